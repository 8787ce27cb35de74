/**
 * A testset as a table that fits the terminal (`evals testset show`), and the defaults it is
 * shown with: its columns and how its rows are identified. Pure: cases in, a string out.
 */
import { painter } from './ansi.ts';
import { plural } from './labels.ts';
import { compactJson, isHashId, REVISION_LENGTH, widest } from './testset-text.ts';
import {
  renderTable,
  textWidth,
  textWidthUpTo,
  truncateToWidth,
  printable,
} from '../shared/text-table.ts';
import type { PreparedCase } from '../types/index.ts';

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

/** Narrowest a data column gets before columns are dropped instead. */
const MIN_COLUMN_WIDTH = 6;
const COLUMN_GAP = '  ';

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
    {
      // A data field may itself be called `id`: the identity column then says what it is.
      header: fields.includes('id') ? 'case id' : 'id',
      cells: cases.map((c) =>
        tableId(c.id, Math.max(REVISION_LENGTH, Math.floor(options.maxWidth / 2))),
      ),
      align: 'left',
    },
  ];
  const variable: Column[] = fields.map((field) => ({
    header: printable(field),
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
        `identity: ${printable(options.identity)}`,
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

/**
 * A table id: a hash as its first 12 hex digits, a dedup id whole, since ids such as
 * `question-0001` and `question-0002` differ only at the end and the table exists to show them.
 * Only a dedup id wider than `maxWidth` (half the terminal) is cut with `…`, so the data columns
 * keep room; `--json` has every id whole.
 */
function tableId(id: string, maxWidth: number): string {
  if (isHashId(id)) return id.slice(0, REVISION_LENGTH);
  return truncateToWidth(cellText(id), maxWidth);
}

/**
 * A value as one table cell: text as itself, other values as compact JSON, absent and `null`
 * distinct (`` vs `null`). Line breaks become `⏎` so every row stays one line.
 */
function cellText(value: unknown): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : compactJson(value);
  return printable(text.replace(/\r\n|\r|\n/g, '⏎'));
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
