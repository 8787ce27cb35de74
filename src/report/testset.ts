/**
 * Text and JSON forms of testsets for the `evals testset` commands: a testset diff (like
 * `git diff --stat` with the fields that changed) and a testset as a table that fits the
 * terminal. Pure: data in, string out; the caller prints, and decides color and width.
 */
import { painter, type Painter } from './ansi.ts';
import { formatCount, plural } from './labels.ts';
import {
  padToWidth,
  renderTable,
  textWidth,
  textWidthUpTo,
  truncateToWidth,
} from '../shared/text-table.ts';
import type { PreparedCase } from '../types/index.ts';
import {
  isMetadataField,
  type FieldChange,
  type RowChange,
  type TestsetDiff,
} from '../testsets/diff.ts';

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

/** How `renderTestsetTable` lays out a testset. */
export interface TableRenderOptions {
  /** Terminal columns the table must fit in. */
  maxWidth: number;
  /** Emit ANSI colors (bold header, dim line numbers and ids). */
  color: boolean;
  /** Data fields to show, in this order; default every field, in first-seen order. */
  columns?: string[];
  /** The testset's full revision; 12 characters are shown. */
  revision: string;
  /** How rows are identified, as shown in the footer; see {@link describeIdentity}. */
  identity: string;
}

/** One field of a changed row in {@link DiffJson}; `before` or `after` is left out when absent. */
export interface FieldChangeJson {
  field: string;
  before?: unknown;
  after?: unknown;
}

/** A row only on one side, in {@link DiffJson}. `line` is `null` for cases given in code. */
export interface RowJson {
  id: string;
  contentId: string;
  line: number | null;
  data: unknown;
}

/** A row on both sides, in {@link DiffJson}. */
export interface RowChangeJson {
  id: string;
  lines: { before: number | null; after: number | null };
  contentIds: { before: string; after: string };
  fields: FieldChangeJson[];
}

/** The `--json` form of a {@link TestsetDiff}: plain data, safe for `JSON.stringify`. */
export interface DiffJson {
  added: RowJson[];
  removed: RowJson[];
  changed: RowChangeJson[];
  metadataOnly: RowChangeJson[];
  moved: { id: string; lines: { before: number | null; after: number | null } }[];
  unchanged: number;
  reordered: boolean;
  equal: boolean;
}

const DEFAULT_WIDTH = 100;
const REVISION_LENGTH = 12;
const FIELD_INDENT = '    ';
/** Moves are listed up to this many: a sorted file would otherwise list nearly every row. */
const MAX_LISTED_MOVES = 20;
/** Narrowest a data column gets before columns are dropped instead. */
const MIN_COLUMN_WIDTH = 6;
const COLUMN_GAP = '  ';

// ---------------------------------------------------------------------------------------------
// Diff
// ---------------------------------------------------------------------------------------------

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
  if (diff.equal) lines.push('', 'revision unchanged');
  return `${lines.join('\n')}\n`;
}

/**
 * The `--json` form of a diff. Rows carry their id, contentId, source line and data; a field
 * that is absent on one side has no `before` (or `after`) key.
 */
export function renderDiffJson(diff: TestsetDiff): DiffJson {
  const row = (c: PreparedCase): RowJson => ({
    id: c.id,
    contentId: c.contentId,
    line: c.source?.line ?? null,
    data: c.data,
  });
  const lines = (change: { before: PreparedCase; after: PreparedCase }) => ({
    before: change.before.source?.line ?? null,
    after: change.after.source?.line ?? null,
  });
  const change = (c: RowChange): RowChangeJson => ({
    id: c.after.id,
    lines: lines(c),
    contentIds: { before: c.before.contentId, after: c.after.contentId },
    fields: c.fields.map(fieldJson),
  });
  return {
    added: diff.added.map(row),
    removed: diff.removed.map(row),
    changed: diff.changed.map(change),
    metadataOnly: diff.metadataOnly.map(change),
    moved: diff.moved.map((move) => ({ id: move.after.id, lines: lines(move) })),
    unchanged: diff.unchanged,
    reordered: diff.reordered,
    equal: diff.equal,
  };
}

function fieldJson(change: FieldChange): FieldChangeJson {
  return {
    field: change.field,
    ...(change.before === undefined ? {} : { before: change.before }),
    ...(change.after === undefined ? {} : { after: change.after }),
  };
}

function side(label: string, revision: string, rows: number): string {
  return `${clean(label)} (rev ${revision.slice(0, REVISION_LENGTH)}, ${plural(rows, 'row')})`;
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
    const name = clean(change.field);
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

const MAX_SHOWN_ID = 32;

/**
 * A case id as shown in a diff: a hash (content or `hash:` fields) as its first 12 hex digits,
 * a dedup id in full unless absurdly long, since users search their files for it.
 */
function diffId(id: string): string {
  if (/^[0-9a-f]{13,}$/i.test(id)) return id.slice(0, REVISION_LENGTH);
  return shorten(clean(id), MAX_SHOWN_ID);
}

/**
 * Compact JSON for display, keys in the row's own order. Never throws: a value JSON cannot
 * write (a bigint from code) is shown as its text.
 */
function compactJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  return clean(text ?? String(value));
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

// ---------------------------------------------------------------------------------------------
// Table
// ---------------------------------------------------------------------------------------------

/**
 * How a testset identifies its rows, for the table footer: `dedup id`, `hash fields a, b` or
 * `content`; `dedup id (3 of 10 rows), else content` when only some rows have a dedup id.
 */
export function describeIdentity(
  cases: readonly PreparedCase[],
  hashFields: readonly string[] = [],
): string {
  const fallback = hashFields.length > 0 ? `hash fields ${hashFields.join(', ')}` : 'content';
  const withDedup = cases.filter((c) => c.meta.dedupId !== undefined).length;
  if (withDedup === 0) return fallback;
  if (withDedup === cases.length) return 'dedup id';
  return `dedup id (${withDedup} of ${plural(cases.length, 'row')}), else ${fallback}`;
}

/** The data fields of a testset in first-seen order: the table's default columns. */
export function testsetColumns(cases: readonly PreparedCase[]): string[] {
  const seen = new Set<string>();
  for (const c of cases) for (const key of Object.keys(c.data)) seen.add(key);
  return [...seen];
}

interface Column {
  header: string;
  cells: string[];
  align: 'left' | 'right';
}

/**
 * Renders a testset as a table for `evals testset show`: `#` (source line), `id`, the data
 * fields and `tags` (when any row has tags), then a footer with the row count, revision and
 * identity. Cells are one line (`⏎` for a line break) cut with `…`; data columns share the
 * width fairly, and when even `MIN_COLUMN_WIDTH` each does not fit, the rightmost columns are
 * left out and counted. A field listed in `columns` that no row has shows as an empty column.
 * Ends with a newline.
 */
export function renderTestsetTable(cases: PreparedCase[], options: TableRenderOptions): string {
  const paint = painter(options.color);
  const fields = options.columns ?? testsetColumns(cases);

  const fixed: Column[] = [
    {
      header: '#',
      cells: cases.map((c) => (c.source === null ? '-' : String(c.source.line))),
      align: 'right',
    },
    { header: 'id', cells: cases.map((c) => tableId(c.id)), align: 'left' },
  ];
  const variable: Column[] = fields.map((field) => ({
    header: clean(field),
    cells: cases.map((c) => (Object.hasOwn(c.data, field) ? cellText(c.data[field]) : '')),
    align: 'left',
  }));
  if (cases.some((c) => (c.meta.tags?.length ?? 0) > 0)) {
    // A data field may itself be called `tags`; the metadata column then goes by its CSV name.
    variable.push({
      header: fields.includes('tags') ? '__tags__' : 'tags',
      cells: cases.map((c) => cellText((c.meta.tags ?? []).join(', '))),
      align: 'left',
    });
  }

  const shown = variable.slice(0, columnsThatFit(fixed, variable, options.maxWidth));
  const all = [...fixed, ...shown];
  const rows = [
    all.map((col) => col.header),
    ...cases.map((_, index) =>
      all.map((col, position) => {
        const cell = col.cells[index] ?? '';
        return position < fixed.length ? paint.dim(cell) : cell;
      }),
    ),
  ];
  const [header = '', ...body] = renderTable(rows, {
    columns: all.map((col, position) => ({
      align: col.align,
      shrink: position >= fixed.length,
      minWidth: MIN_COLUMN_WIDTH,
    })),
    gap: COLUMN_GAP,
    maxWidth: options.maxWidth,
    rule: '─',
  });
  const lines = [paint.bold(header), ...body];

  const hidden = variable.length - shown.length;
  if (hidden > 0) lines.push(`… ${plural(hidden, 'more column')} (use --json)`);
  lines.push(
    ...wrapParts(
      [
        plural(cases.length, 'row'),
        `revision ${options.revision.slice(0, REVISION_LENGTH)}`,
        `identity: ${clean(options.identity)}`,
      ],
      options.maxWidth,
    ),
  );
  return `${lines.join('\n')}\n`;
}

/**
 * How many of the variable columns, from the left, fit beside the fixed ones at their minimum
 * width (`MIN_COLUMN_WIDTH`, or less for a column whose widest cell is narrower). The table
 * then shares the room among them.
 */
function columnsThatFit(fixed: Column[], variable: Column[], maxWidth: number): number {
  const natural = (col: Column): number =>
    Math.max(textWidthUpTo(col.header, maxWidth), widest(col.cells, maxWidth));
  const fixedWidth = fixed.reduce((sum, col) => sum + natural(col), 0);
  const room = (count: number): number =>
    maxWidth - fixedWidth - COLUMN_GAP.length * (fixed.length + count - 1);
  let kept = 0;
  let minimumSum = 0;
  for (const col of variable) {
    const minimum = Math.min(natural(col), MIN_COLUMN_WIDTH);
    if (minimumSum + minimum > room(kept + 1)) break;
    minimumSum += minimum;
    kept++;
  }
  return kept;
}

/** A table id: a hash as its first 12 hex digits, a dedup id cut to 12 columns with `…`. */
function tableId(id: string): string {
  if (/^[0-9a-f]{13,}$/i.test(id)) return id.slice(0, REVISION_LENGTH);
  return truncateToWidth(cellText(id), REVISION_LENGTH);
}

/**
 * A value as one table cell: text as itself, other values as compact JSON, absent and `null`
 * distinct (`` vs `null`). Line breaks become `⏎` so every row stays one line.
 */
function cellText(value: unknown): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : compactJson(value);
  return clean(text.replace(/\r\n|\r|\n/g, '⏎'));
}

/**
 * `a · b · c`, starting a new line where the next part would not fit in `maxWidth`; a part
 * wider than that on its own is broken at its spaces.
 */
function wrapParts(parts: string[], maxWidth: number): string[] {
  const lines: string[] = [];
  const add = (piece: string, separator: string): void => {
    const last = lines.at(-1);
    if (last !== undefined && textWidth(last + separator + piece) <= maxWidth) {
      lines[lines.length - 1] = last + separator + piece;
    } else {
      lines.push(piece);
    }
  };
  for (const part of parts) {
    if (textWidth(part) <= maxWidth) add(part, ' · ');
    else part.split(' ').forEach((word, index) => add(word, index === 0 ? ' · ' : ' '));
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Measuring and cleaning
// ---------------------------------------------------------------------------------------------

/**
 * The widest of `texts`, 0 for none; `limit + 1` when one is wider than `limit` (see
 * `textWidthUpTo`). A loop: spreading 100,000 rows into Math.max overflows.
 */
function widest(texts: readonly string[], limit = Infinity): number {
  let width = 0;
  for (const text of texts) width = Math.max(width, textWidthUpTo(text, limit));
  return width;
}

/**
 * Makes user text (labels, ids, keys, values) safe to print: control characters, escape
 * sequences included, are shown as `\uXXXX` instead of acting on the terminal; a tab is a space.
 */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) =>
    char === '\t' ? ' ' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
