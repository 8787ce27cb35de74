/**
 * A testset diff for the terminal (`evals testset diff`), like `git diff --stat` with the fields
 * that changed. Pure: the diff in, a string out; the caller prints, and decides color and width.
 */
import { painter, type Painter } from './ansi.ts';
import { formatCount, plural } from './labels.ts';
import { compactJson, isHashId, REVISION_LENGTH, widest } from './testset-text.ts';
import {
  padToWidth,
  textWidth,
  textWidthUpTo,
  truncateToWidth,
  printable,
} from '../shared/text-table.ts';
import type { PreparedCase } from '../types/index.ts';
import { isMetadataField, type FieldChange, type TestsetDiff } from '../testsets/diff.ts';

/** What `renderDiff` needs besides the diff: the two sides' names, revisions and row counts. */
export interface DiffRenderOptions {
  /** The older side as shown, e.g. `testsets/capitals.csv@main`. */
  beforeLabel: string;
  /** The newer side as shown, e.g. `testsets/capitals.csv`. */
  afterLabel: string;
  /** Full revisions; 12 characters are shown. */
  beforeRevision: string;
  afterRevision: string;
  /** Row counts of each side (every row of the file, as the revision covers). */
  beforeRows: number;
  afterRows: number;
  /** Emit ANSI colors. The caller decides from the stream and NO_COLOR. */
  color: boolean;
  /** Terminal columns that long values are shortened to fit. Defaults to 100. */
  width?: number;
}

const DEFAULT_WIDTH = 100;
const FIELD_INDENT = '    ';
/** Moves are listed up to this many: a sorted file would otherwise list nearly every row. */
const MAX_LISTED_MOVES = 20;
/** A dedup id longer than this is cut: users search their files for it, so it is kept whole up to here. */
const MAX_SHOWN_ID = 32;

/**
 * Renders a diff for the terminal: the two sides, a count line, then one entry per changed
 * (`~`, with each field as `before → after`), added (`+`), removed (`-`) and metadata-only row,
 * then the rows that moved. Ends with a newline.
 */
export function renderDiff(diff: TestsetDiff, options: DiffRenderOptions): string {
  const paint = painter(options.color);
  const width = Math.max(40, options.width ?? DEFAULT_WIDTH);
  const lines: string[] = [
    paint.red(`--- ${side(options.beforeLabel, options.beforeRevision, options.beforeRows)}`),
    paint.green(`+++ ${side(options.afterLabel, options.afterRevision, options.afterRows)}`),
    summaryLine(diff),
  ];

  // Ids line up in one column across every entry; the widest is at most MAX_SHOWN_ID.
  const listed = [
    ...diff.changed.map((change) => change.after),
    ...diff.added,
    ...diff.removed,
    ...diff.metadataOnly.map((change) => change.after),
  ];
  const idWidth = widest(listed.map((row) => diffId(row.id)));
  const id = (row: PreparedCase): string => padToWidth(diffId(row.id), idWidth);

  // With dedup ids, a renamed id is a removal plus an addition of the very same content.
  const removedByContent = new Map(diff.removed.map((row) => [row.contentId, row]));

  // Straight into `lines`: spreading 100,000 entries into push() would overflow the stack.
  lines.push('');
  const firstEntry = lines.length;
  for (const change of diff.changed) {
    lines.push(`${paint.yellow('~')} ${id(change.after)}  ${movedLines(change)}`);
    lines.push(...fieldLines(change.fields, paint, width));
    if (change.fields.every((field) => isMetadataField(field.field))) {
      lines.push(
        `${FIELD_INDENT}${paint.dim('(same data; the contentId differs because the testset id does)')}`,
      );
    }
  }
  for (const row of diff.added) {
    const twin = removedByContent.get(row.contentId);
    const head = `+ ${id(row)}  ${lineOf(row)}`;
    const tail =
      twin === undefined
        ? shorten(compactJson(row.data), Math.max(16, width - textWidth(head) - 2))
        : `(same data as removed ${diffId(twin.id)})`;
    lines.push(paint.green(`${head}  ${tail}`));
  }
  for (const row of diff.removed) {
    const head = `- ${id(row)}  ${lineOf(row)}`;
    lines.push(
      paint.red(
        `${head}  ${shorten(compactJson(row.data), Math.max(16, width - textWidth(head) - 2))}`,
      ),
    );
  }
  for (const change of diff.metadataOnly) {
    const note = paint.dim('(metadata only; revision unchanged)');
    lines.push(`${paint.yellow('~')} ${id(change.after)}  ${movedLines(change)}  ${note}`);
    lines.push(...fieldLines(change.fields, paint, width));
  }
  if (lines.length === firstEntry) lines.pop();

  if (diff.reordered) {
    lines.push(
      '',
      `row order changed (the revision depends on it): ${plural(diff.moved.length, 'row')} moved`,
    );
    const shown = diff.moved.slice(0, MAX_LISTED_MOVES);
    const moveIdWidth = widest(shown.map((move) => diffId(move.after.id)));
    for (const move of shown) {
      lines.push(
        `${paint.yellow('↕')} ${padToWidth(diffId(move.after.id), moveIdWidth)}  ${movedLines(move)}`,
      );
    }
    if (diff.moved.length > shown.length) {
      lines.push(`… ${formatCount(diff.moved.length - shown.length)} more moved`);
    }
  }
  if (diff.equal && options.beforeRevision === options.afterRevision) {
    lines.push('', 'revision unchanged');
  } else if (diff.equal) {
    // Same rows read with different testset ids (a renamed file, a suite's `id:`): the id is
    // part of every contentId, so the revision differs and a pin of the old one no longer holds.
    lines.push(
      '',
      "rows unchanged, but the revision differs: the two sides are read with different testset ids (the file name, or a suite's testset `id:`), which every contentId includes; a suite pinned to the old revision needs `evals testset pin`, or `id:` set to the old name",
    );
  }
  return `${lines.join('\n')}\n`;
}

function side(label: string, revision: string, rows: number): string {
  return `${printable(label)} (rev ${revision.slice(0, REVISION_LENGTH)}, ${plural(rows, 'row')})`;
}

function summaryLine(diff: TestsetDiff): string {
  const parts = [
    `${formatCount(diff.added.length)} added`,
    `${formatCount(diff.removed.length)} removed`,
    `${formatCount(diff.changed.length)} changed`,
  ];
  if (diff.metadataOnly.length > 0)
    parts.push(`${formatCount(diff.metadataOnly.length)} metadata only`);
  parts.push(`${formatCount(diff.unchanged)} unchanged`);
  return parts.join(', ');
}

/**
 * One line per field: `name: before → after`, values as compact JSON. When both values are too
 * long and differ past the start, both are cut at the same place before the first difference,
 * so the change stays in view instead of two identical-looking prefixes.
 */
function fieldLines(fields: FieldChange[], paint: Painter, width: number): string[] {
  return fields.map((change) => {
    const name = printable(change.field);
    let before = change.before === undefined ? 'absent' : compactJson(change.before);
    let after = change.after === undefined ? 'absent' : compactJson(change.after);
    const room = Math.max(24, width - FIELD_INDENT.length - textWidth(name) - 2 - 3);
    const half = Math.floor(room / 2);
    if (textWidthUpTo(before, room) + textWidthUpTo(after, room) > room) {
      if (change.before !== undefined && change.after !== undefined) {
        // Only when the first difference would fall outside the shown part of `before`.
        const prefix = commonPrefix(before, after);
        // The difference lands two thirds into the window: context before it, the change after.
        const skip = prefix - Math.floor((half * 2) / 3);
        if (prefix >= half - 2 && skip > 0) {
          before = `…${[...before].slice(skip).join('')}`;
          after = `…${[...after].slice(skip).join('')}`;
        }
      }
      // A short side leaves its unused room to the other.
      const beforeRoom = Math.max(half, room - textWidthUpTo(after, room));
      before = shorten(before, beforeRoom);
      after = shorten(after, room - textWidth(before));
    }
    return `${FIELD_INDENT}${name}: ${paint.red(before)} → ${paint.green(after)}`;
  });
}

/** The number of leading code points two strings share. */
function commonPrefix(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  let count = 0;
  while (count < left.length && left[count] === right[count]) count++;
  return count;
}

function lineOf(row: PreparedCase): string {
  return row.source === null ? '(inline)' : `line ${row.source.line}`;
}

/** `line 4` when the row kept its line, else `line 4 → 7`. */
function movedLines(change: { before: PreparedCase; after: PreparedCase }): string {
  const before = change.before.source;
  const after = change.after.source;
  if (before !== null && after !== null) {
    return before.line === after.line
      ? `line ${before.line}`
      : `line ${before.line} → ${after.line}`;
  }
  const from = lineOf(change.before);
  const to = lineOf(change.after);
  return from === to ? from : `${from} → ${to}`;
}

/**
 * A case id as shown in a diff: a hash (content or `hash:` fields) as its first 12 hex digits,
 * a dedup id in full unless absurdly long, since users search their files for it.
 */
function diffId(id: string): string {
  if (isHashId(id)) return id.slice(0, REVISION_LENGTH);
  return shorten(printable(id), MAX_SHOWN_ID);
}

/**
 * Cuts text to `max` columns with `…`. A cut JSON string keeps its closing quote, so it still
 * reads as a string: `"An island nat…"`.
 */
function shorten(text: string, max: number): string {
  if (textWidthUpTo(text, max) <= max) return text;
  const quoted = text.length > 1 && /^\u2026?"/.test(text) && text.endsWith('"') && max > 3;
  return quoted ? `${truncateToWidth(text.slice(0, -1), max - 1)}"` : truncateToWidth(text, max);
}
