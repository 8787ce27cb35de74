/**
 * A comparison row's numbers as the page's table and chart tooltips write them, with the formats
 * the terminal and the PR comment use (format.ts). No DOM: tests read them in Node.
 */
import type { ComparisonRowView } from '../src/report/html-model.ts';
import { kappa, percent, points, pointsChange, score, scoreChange } from './format.ts';

/** base, head, Δ and CI of a row: a pass rate as `93.3%` and `-6.7 pp`, a score as `0.933`. */
export function rowNumbers(row: ComparisonRowView): string[] {
  if (row.kind === 'pass rate') {
    return [
      percent(row.base),
      percent(row.head),
      pointsChange(row.delta),
      interval(row, points, ' pp'),
    ];
  }
  const value = row.kind === 'agreement' ? kappa : score;
  return [value(row.base), value(row.head), scoreChange(row.delta), interval(row, scoreChange, '')];
}

/** `[-6.7, +2.0] pp`; `—` for a row with no interval (no case paired), as for its other numbers. */
function interval(
  row: ComparisonRowView,
  format: (value: number | null) => string,
  unit: string,
): string {
  if (row.low === null || row.high === null) return '—';
  const zero = row.endsAtZero ? ' includes 0' : '';
  return `[${format(row.low)}, ${format(row.high)}]${unit}${zero}`;
}
