/**
 * A suite's grid matrix as terminal text: a row per grid point, its cases, pass rate, each
 * evaluator's mean and its verdict; the best value of each column marked `*` (and bold): the
 * lowest mean for an evaluator whose lower scores are better, as the heading says.
 *
 * The grid values are the only thing that tells the rows apart, so they are the last to give
 * way. Laid out in the first of these that fits `width`: the table as it is; the table with
 * long headers on two lines (`answer-` over `correctness`), which narrows the evaluator columns
 * to their numbers; that table with grid values cut where all of a column's values agree
 * (`claude…sonnet…`, `claude…haiku…`), never so far that two of them read the same; else one
 * block per grid point, its params on a line of their own above its numbers.
 */
import {
  printable,
  renderTable,
  textWidth,
  textWidthUpTo,
  truncateToWidth,
  type TableColumn,
} from '../shared/text-table.ts';
import type { Painter } from './ansi.ts';
import { cutMiddle } from './case-text.ts';
import type { GridMatrix } from './grid-matrix.ts';
import { formatCount, formatMean, formatPercent, plural } from './labels.ts';

const RIGHT: TableColumn = { align: 'right' };
const GAP = '  ';
const ELLIPSIS = '…';

/**
 * The matrix under a heading line, as lines; `indent` goes before every line below the heading,
 * and no line is wider than `width`.
 */
export function renderMatrixText(
  matrix: GridMatrix,
  paint: Painter,
  indent: string,
  width = Infinity,
): string[] {
  const lowest = matrix.evaluators.filter((_, column) => matrix.lowerIsBetter[column] === true);
  const best =
    lowest.length === 0 ? '* best' : `* best (lowest for ${lowest.map(printable).join(', ')})`;
  const points = `${paint.bold(printable(matrix.suite))}  ${plural(matrix.rows.length, 'grid point')}`;
  const legend = `mean score per evaluator, ${best}`;
  const heading = `${points} · ${legend}`;
  // Too wide: the legend goes under the count, cut at its end if it must be.
  const headings =
    textWidthUpTo(heading, width) <= width
      ? [heading]
      : [points, `${indent}${truncateToWidth(legend, width - textWidth(indent))}`];
  return [...headings, ...matrixLines(matrix, paint, indent, width)];
}

/** The cells of the matrix: grid values apart from the rest, which is never cut. */
interface MatrixCells {
  keys: string[];
  /** Per row, its value of each key. */
  params: string[][];
  /** The headers of the columns after the grid values. */
  statHeaders: string[];
  /** Per row, verdict, cases, pass rate and each evaluator's mean. */
  stats: string[][];
}

function matrixCells(matrix: GridMatrix, paint: Painter): MatrixCells {
  // The mark goes before the value: right-aligned columns keep their digits in line.
  const mark = (text: string, isBest: boolean): string => (isBest ? paint.bold(`*${text}`) : text);
  return {
    keys: matrix.keys.map(printable),
    params: matrix.rows.map((row) => matrix.keys.map((key) => printable(row.params[key] ?? ''))),
    statHeaders: ['verdict', 'cases', 'pass rate', ...matrix.evaluators.map(printable)],
    stats: matrix.rows.map((row) => [
      row.verdict === 'pass' ? paint.green('PASS') : paint.red('FAIL'),
      formatCount(row.cases),
      row.passRate === null
        ? '—'
        : mark(formatPercent(row.passRate), row.passRate === matrix.bestPassRate),
      ...row.means.map((mean, column) =>
        mean === null ? '—' : mark(formatMean(mean), mean === matrix.bestMeans[column]),
      ),
    ]),
  };
}

function matrixLines(matrix: GridMatrix, paint: Painter, indent: string, width: number): string[] {
  const cells = matrixCells(matrix, paint);
  const columns = [
    ...cells.keys.map(() => ({})),
    {},
    RIGHT,
    RIGHT,
    ...matrix.evaluators.map(() => RIGHT),
  ];
  const fits = (lines: readonly string[]): boolean =>
    lines.every((line) => textWidthUpTo(line, width) <= width);
  const table = (headers: readonly (readonly string[])[], params: readonly string[][]): string[] =>
    renderTable(
      [...headers, ...params.map((values, index) => [...values, ...(cells.stats[index] ?? [])])],
      { indent, columns },
    );

  const plain = table([[...cells.keys, ...cells.statHeaders]], cells.params);
  if (fits(plain)) return plain;

  const headers = [...cells.keys, ...cells.statHeaders];
  const bodies = [
    ...transpose(cells.params, cells.keys.length),
    ...transpose(cells.stats, cells.statHeaders.length),
  ];
  const split = headers.map((header, column) =>
    splitHeader(header, Math.max(0, ...(bodies[column] ?? []).map((cell) => textWidth(cell)))),
  );
  const twoLines = [split.map(([top]) => top), split.map(([, bottom]) => bottom)];
  const wrapped = table(twoLines, cells.params);
  if (fits(wrapped)) return wrapped;

  const cut = cutParams(cells, split, bodies, width - textWidth(indent));
  if (cut !== null) {
    const lines = table(twoLines, cut);
    if (fits(lines)) return lines;
  }
  return pointBlocks(cells, indent, width);
}

/** The columns of `rows`, `count` of them. */
function transpose(rows: readonly (readonly string[])[], count: number): string[][] {
  return Array.from({ length: count }, (_, column) => rows.map((row) => row[column] ?? ''));
}

/**
 * A header wider than its column's cells as two lines, broken after a `-`, `_`, `.` or `/`, or
 * at a space, where the longer line is shortest; `[header, '']` when it fits or cannot break.
 */
export function splitHeader(header: string, cellWidth: number): [string, string] {
  let best: [string, string] = [header, ''];
  let bestWidth = textWidth(header);
  if (bestWidth <= cellWidth) return best;
  for (const found of header.matchAll(/[-_./](?=.)| /g)) {
    const space = found[0] === ' ';
    const top = header.slice(0, space ? found.index : found.index + 1);
    const bottom = header.slice(found.index + 1);
    if (top === '') continue;
    const longer = Math.max(textWidth(top), textWidth(bottom));
    if (longer < bestWidth) {
      best = [top, bottom];
      bestWidth = longer;
    }
  }
  return best;
}

/**
 * The grid values cut so the table fits `room` columns, each grid column no narrower than its
 * header and the width that keeps its values apart ({@link cutApart}); null when that is still
 * too wide.
 */
function cutParams(
  cells: MatrixCells,
  split: readonly [string, string][],
  bodies: readonly string[][],
  room: number,
): string[][] | null {
  const widths = split.map(([top, bottom], column) =>
    Math.max(
      textWidth(top),
      textWidth(bottom),
      ...(bodies[column] ?? []).map((cell) => textWidth(cell)),
    ),
  );
  const keyCount = cells.keys.length;
  const fixed = widths.slice(keyCount).reduce((sum, each) => sum + each, 0);
  const gridRoom = room - fixed - GAP.length * (widths.length - 1);
  const naturals = widths.slice(0, keyCount);
  const minimums = naturals.map((natural, column) => {
    const values = bodies[column] ?? [];
    const [top, bottom] = split[column] ?? ['', ''];
    const header = Math.max(textWidth(top), textWidth(bottom));
    let narrowest = natural;
    for (let each = Math.min(natural, gridRoom) - 1; each > header; each--) {
      if (cutApart(values, each) === null) break;
      narrowest = each;
    }
    return Math.max(header, Math.min(narrowest, natural));
  });
  const given = shareWidths(naturals, minimums, gridRoom);
  if (given === null) return null;
  const cuts = given.map((each, column) => cutApart(bodies[column] ?? [], each));
  if (cuts.some((cut) => cut === null)) return null;
  return cells.params.map((values) =>
    values.map((value, column) => cuts[column]?.get(value) ?? value),
  );
}

/**
 * Widths between each column's minimum and natural width within `room`: the minimums first,
 * then what is left shared fairly, the columns that need least served first. Null when even
 * the minimums do not fit.
 */
function shareWidths(
  naturals: readonly number[],
  minimums: readonly number[],
  room: number,
): number[] | null {
  const widths = [...minimums];
  let left = room - widths.reduce((sum, each) => sum + each, 0);
  if (left < 0) return null;
  const need = (column: number): number => (naturals[column] ?? 0) - (minimums[column] ?? 0);
  const order = naturals.map((_, column) => column).sort((a, b) => need(a) - need(b));
  order.forEach((column, rank) => {
    const extra = Math.min(need(column), Math.floor(left / (order.length - rank)));
    widths[column] = (widths[column] ?? 0) + extra;
    left -= extra;
  });
  return widths;
}

/**
 * Each of `values` in at most `width` columns, cut where all of them agree: the start they
 * share (`claude-3-5-`) is cut to its first characters and the end they share (`-20241022`) is
 * kept when short, else marked `…`, so the part that differs (`sonnet`, `haiku`) stays whole:
 * `claude…sonnet…`. Values that fit stay whole. Null when the differing part does not fit or
 * two values would read the same.
 */
export function cutApart(values: readonly string[], width: number): Map<string, string> | null {
  const distinct = [...new Set(values)];
  const chars = distinct.map((value) => Array.from(value));
  const first = chars[0] ?? [];
  const shortest = Math.min(...chars.map((each) => each.length));
  let prefix = 0;
  while (prefix < shortest && chars.every((each) => each[prefix] === first[prefix])) prefix++;
  let suffix = 0;
  const fromEnd = (each: string[], at: number): string | undefined => each[each.length - 1 - at];
  while (
    prefix + suffix < shortest &&
    chars.every((each) => fromEnd(each, suffix) === fromEnd(first, suffix))
  ) {
    suffix++;
  }
  const shown = new Map<string, string>();
  for (const [index, value] of distinct.entries()) {
    const each = chars[index] ?? [];
    const cut =
      textWidth(value) <= width
        ? value
        : cutAround(
            each.slice(0, prefix).join(''),
            each.slice(prefix, each.length - suffix).join(''),
            each.slice(each.length - suffix).join(''),
            width,
          );
    if (cut === null) return null;
    shown.set(value, cut);
  }
  return new Set(shown.values()).size === shown.size ? shown : null;
}

/** `head + core + tail` in `width` columns, `core` whole; null when it cannot be. */
function cutAround(head: string, core: string, tail: string, width: number): string | null {
  const room = width - textWidth(core);
  if (room < (head === '' ? 0 : 1) + (tail === '' ? 0 : 1)) return null;
  // The shared end is kept when it leaves the shared start a character and its `…`.
  const tailShown =
    textWidth(tail) <= room - Math.min(textWidth(head), 2) ? tail : tail === '' ? '' : ELLIPSIS;
  const headRoom = room - textWidth(tailShown);
  const headShown = textWidth(head) <= headRoom ? head : truncateToWidth(head, headRoom);
  return `${headShown}${core}${tailShown}`;
}

/**
 * The last resort: per grid point its params on a line (`model=… prompt=…`), and under it its
 * verdict, cases, pass rate and means as `label value` pieces, as many to a line as fit.
 */
function pointBlocks(cells: MatrixCells, indent: string, width: number): string[] {
  const under = `${indent}  `;
  const paramValues = transpose(cells.params, cells.keys.length);
  const lines: string[] = [];
  cells.params.forEach((values, row) => {
    const params = values.map((value, column) => {
      const key = cells.keys[column] ?? '';
      const room = width - textWidth(indent) - textWidth(key) - 1;
      const shown =
        textWidth(value) <= room
          ? value
          : (cutApart(paramValues[column] ?? [], room)?.get(value) ?? cutMiddle(value, room));
      return `${key}=${shown}`;
    });
    lines.push(...flow(params, indent, width));
    const [verdict = '', ...rest] = cells.stats[row] ?? [];
    const labels = cells.statHeaders.slice(1);
    lines.push(
      ...flow(
        [
          verdict,
          ...rest.map((value, column) =>
            labelled(labels[column] ?? '', value, width - under.length),
          ),
        ],
        under,
        width,
      ),
    );
  });
  return lines;
}

/** `label value` in at most `room` columns, the label cut in its middle when it must be. */
function labelled(label: string, value: string, room: number): string {
  const labelRoom = room - textWidth(value) - 1;
  return `${textWidth(label) <= labelRoom ? label : cutMiddle(label, Math.max(1, labelRoom))} ${value}`;
}

/** `pieces` two spaces apart, as many to a line as fit `width`; a piece too wide alone is cut. */
function flow(pieces: readonly string[], indent: string, width: number): string[] {
  const room = width - textWidth(indent);
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    const shown = textWidthUpTo(piece, room) <= room ? piece : cutMiddle(piece, room);
    if (line !== '' && textWidth(line) + GAP.length + textWidth(shown) <= room) {
      line += `${GAP}${shown}`;
    } else {
      if (line !== '') lines.push(`${indent}${line}`);
      line = shown;
    }
  }
  if (line !== '') lines.push(`${indent}${line}`);
  return lines;
}
