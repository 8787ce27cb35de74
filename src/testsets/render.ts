/**
 * Text and JSON forms of testsets for the `evals testset` commands: a testset diff (like
 * `git diff --stat` with the fields that changed) and a testset as a table that fits the
 * terminal. Pure: data in, string out; the caller prints, and decides color and width.
 */
import { painter, type Painter } from '../report/ansi.ts';
import { formatCount, plural } from '../report/labels.ts';
import type { PreparedCase } from '../types.ts';
import { isMetadataField, type FieldChange, type RowChange, type TestsetDiff } from './diff.ts';

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
  const id = (row: PreparedCase): string => padEnd(diffId(row.id), idWidth);

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
        ? shorten(compactJson(row.data), Math.max(16, width - displayWidth(head) - 2))
        : `(same data as removed ${diffId(twin.id)})`;
    lines.push(paint.green(`${head}  ${tail}`));
  }
  for (const row of diff.removed) {
    const head = `- ${id(row)}  ${lineOf(row)}`;
    lines.push(
      paint.red(
        `${head}  ${shorten(compactJson(row.data), Math.max(16, width - displayWidth(head) - 2))}`,
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
        `${paint.yellow('↕')} ${padEnd(diffId(move.after.id), moveIdWidth)}  ${movedLines(move)}`,
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
    const room = Math.max(24, width - FIELD_INDENT.length - displayWidth(name) - 2 - 3);
    const half = Math.floor(room / 2);
    if (displayWidth(before) + displayWidth(after) > room) {
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
      const beforeRoom = Math.max(half, room - displayWidth(after));
      before = shorten(before, beforeRoom);
      after = shorten(after, room - displayWidth(before));
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
  if (displayWidth(text) <= max) return text;
  const quoted = text.length > 1 && /^\u2026?"/.test(text) && text.endsWith('"') && max > 3;
  return quoted ? `${truncate(text.slice(0, -1), max - 1)}"` : truncate(text, max);
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
  /** Widest cell or header. */
  natural: number;
  width: number;
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

  const fixed = [
    column(
      '#',
      cases.map((c) => (c.source === null ? '-' : String(c.source.line))),
      'right',
    ),
    column(
      'id',
      cases.map((c) => tableId(c.id)),
      'left',
    ),
  ];
  const variable = fields.map((field) =>
    column(
      clean(field),
      cases.map((c) => (Object.hasOwn(c.data, field) ? cellText(c.data[field]) : '')),
      'left',
    ),
  );
  if (cases.some((c) => (c.meta.tags?.length ?? 0) > 0)) {
    // A data field may itself be called `tags`; the metadata column then goes by its CSV name.
    const header = fields.includes('tags') ? '__tags__' : 'tags';
    variable.push(
      column(
        header,
        cases.map((c) => cellText((c.meta.tags ?? []).join(', '))),
        'left',
      ),
    );
  }

  const shown = fitColumns(fixed, variable, options.maxWidth);
  const all = [...fixed, ...shown];
  const lines = [
    paint.bold(joinCells(all.map((col) => align(truncate(col.header, col.width), col)))),
    joinCells(all.map((col) => '─'.repeat(col.width))),
  ];
  cases.forEach((_, index) => {
    const cells = all.map((col, position) => {
      const cell = truncate(col.cells[index] ?? '', col.width);
      // The last cell is not padded: colored padding would survive the line's trimEnd.
      const text = position === all.length - 1 && col.align === 'left' ? cell : align(cell, col);
      return position < fixed.length ? paint.dim(text) : text;
    });
    lines.push(joinCells(cells));
  });

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

function column(header: string, cells: string[], alignment: 'left' | 'right'): Column {
  const natural = Math.max(1, displayWidth(header), widest(cells));
  return { header, cells, align: alignment, natural, width: natural };
}

/**
 * Sets the widths of the variable columns and returns those that fit. Keeps as many columns,
 * from the left, as fit at their minimum width; then shares the room max-min fairly: narrow
 * columns get their natural width, the wide ones split the rest evenly.
 */
function fitColumns(fixed: Column[], variable: Column[], maxWidth: number): Column[] {
  const fixedWidth = fixed.reduce((sum, col) => sum + col.width, 0);
  const minimum = (col: Column): number => Math.min(col.natural, MIN_COLUMN_WIDTH);
  const room = (count: number): number =>
    maxWidth - fixedWidth - COLUMN_GAP.length * (fixed.length + count - 1);

  let kept = 0;
  let minimumSum = 0;
  for (const col of variable) {
    if (minimumSum + minimum(col) > room(kept + 1)) break;
    minimumSum += minimum(col);
    kept++;
  }
  const shown = variable.slice(0, kept);

  let remaining = room(kept);
  const byNatural = [...shown].sort((a, b) => a.natural - b.natural);
  byNatural.forEach((col, index) => {
    const share = Math.floor(remaining / (byNatural.length - index));
    col.width = Math.max(minimum(col), Math.min(col.natural, share));
    remaining -= col.width;
  });
  return shown;
}

/** A table id: a hash as its first 12 hex digits, a dedup id cut to 12 columns with `…`. */
function tableId(id: string): string {
  if (/^[0-9a-f]{13,}$/i.test(id)) return id.slice(0, REVISION_LENGTH);
  return truncate(cellText(id), REVISION_LENGTH);
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

function align(text: string, col: Column): string {
  return col.align === 'right' ? padStart(text, col.width) : padEnd(text, col.width);
}

function joinCells(cells: string[]): string {
  return cells.join(COLUMN_GAP).trimEnd();
}

/**
 * `a · b · c`, starting a new line where the next part would not fit in `maxWidth`; a part
 * wider than that on its own is broken at its spaces.
 */
function wrapParts(parts: string[], maxWidth: number): string[] {
  const lines: string[] = [];
  const add = (piece: string, separator: string): void => {
    const last = lines.at(-1);
    if (last !== undefined && displayWidth(last + separator + piece) <= maxWidth) {
      lines[lines.length - 1] = last + separator + piece;
    } else {
      lines.push(piece);
    }
  };
  for (const part of parts) {
    if (displayWidth(part) <= maxWidth) add(part, ' · ');
    else part.split(' ').forEach((word, index) => add(word, index === 0 ? ' · ' : ' '));
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Text measuring and cleaning
// ---------------------------------------------------------------------------------------------

// eslint-disable-next-line no-control-regex
const ANSI_SGR = /\x1b\[[0-9;]*m/g;
/** Text made only of these (ASCII and Latin) is one column per character: the common case. */
const NARROW_ONLY = /^[\u0020-\u007e\u00a0-\u02ff]*$/;
/** Combining marks, zero-width spaces and joiners, variation selectors: no column of their own. */
const ZERO_WIDTH = /^(?:\p{Mn}|\p{Me}|[\u200b-\u200f\u2060]|\p{Variation_Selector})$/u;
/**
 * East Asian wide and fullwidth ranges (CJK, Hangul, kana, fullwidth forms) and emoji shown as
 * pictures: two columns. A subset of Unicode's East Asian Width table, enough for real text.
 */
const WIDE =
  /^(?:[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]|\p{Emoji_Presentation})$/u;

/**
 * Columns a string takes on a terminal: ANSI colors stripped, CJK and emoji two columns,
 * combining marks none. Per code point, so an emoji joined with ZWJ counts each part.
 */
export function displayWidth(text: string): number {
  const plain = text.includes('\x1b') ? text.replace(ANSI_SGR, '') : text;
  if (NARROW_ONLY.test(plain)) return plain.length;
  let width = 0;
  for (const char of plain) width += charWidth(char);
  return width;
}

function charWidth(char: string): number {
  if (ZERO_WIDTH.test(char)) return 0;
  return WIDE.test(char) ? 2 : 1;
}

/** Cuts plain text to `max` columns, marking the cut with `…`; never splits a wide character. */
function truncate(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return '';
  let width = 0;
  let kept = '';
  for (const char of text) {
    const next = charWidth(char);
    if (width + next > max - 1) break;
    kept += char;
    width += next;
  }
  return `${kept}…`;
}

/** The widest of `texts`, 0 for none. A loop: spreading 100,000 rows into Math.max overflows. */
function widest(texts: readonly string[]): number {
  let width = 0;
  for (const text of texts) width = Math.max(width, displayWidth(text));
  return width;
}

function padEnd(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

function padStart(text: string, width: number): string {
  return ' '.repeat(Math.max(0, width - displayWidth(text))) + text;
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
