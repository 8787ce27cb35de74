/**
 * A suite's grid matrix as terminal text: a row per grid point, its cases, pass rate, each
 * evaluator's mean and its verdict; the best value of each column marked `*` (and bold): the
 * lowest mean for an evaluator whose lower scores are better, as the heading says.
 */
import { printable, renderTable, type TableColumn } from '../shared/text-table.ts';
import type { Painter } from './ansi.ts';
import type { GridMatrix } from './grid-matrix.ts';
import { formatCount, formatPercent, plural } from './labels.ts';

const RIGHT: TableColumn = { align: 'right' };

/**
 * The matrix under a heading line, as lines; `indent` goes before every table line, and grid
 * values are cut to keep a line within `width` when they can.
 */
export function renderMatrixText(
  matrix: GridMatrix,
  paint: Painter,
  indent: string,
  width = Infinity,
): string[] {
  // The mark goes before the value: right-aligned columns keep their digits in line.
  const mark = (text: string, isBest: boolean): string => (isBest ? paint.bold(`*${text}`) : text);
  const header = [
    ...matrix.keys.map(printable),
    'verdict',
    'cases',
    'pass rate',
    ...matrix.evaluators.map(printable),
  ];
  const rows = matrix.rows.map((row) => [
    ...matrix.keys.map((key) => printable(row.params[key] ?? '')),
    row.verdict === 'pass' ? paint.green('PASS') : paint.red('FAIL'),
    formatCount(row.cases),
    row.passRate === null
      ? '—'
      : mark(formatPercent(row.passRate), row.passRate === matrix.bestPassRate),
    ...row.means.map((mean, column) =>
      mean === null ? '—' : mark(mean.toFixed(3), mean === matrix.bestMeans[column]),
    ),
  ]);
  const columns = [
    // Long grid values give way first; numbers are never cut.
    ...matrix.keys.map(() => ({ shrink: true, minWidth: 6 })),
    {},
    RIGHT,
    RIGHT,
    ...matrix.evaluators.map(() => RIGHT),
  ];
  const lowest = matrix.evaluators.filter((_, column) => matrix.lowerIsBetter[column] === true);
  const best =
    lowest.length === 0 ? '* best' : `* best (lowest for ${lowest.map(printable).join(', ')})`;
  return [
    `${paint.bold(printable(matrix.suite))}  ${plural(matrix.rows.length, 'grid point')} · mean score per evaluator, ${best}`,
    ...renderTable([header, ...rows], { indent, columns, maxWidth: width }),
  ];
}
