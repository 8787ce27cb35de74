/**
 * The label a row is shown with. A change the row's own test calls but that is not significant
 * once every row of the comparison is counted does not count for the gate, so every report calls
 * it a possible change, not in the red or green of one that does (a PR reader would take a red
 * row for what blocked, or should have blocked, the merge).
 */
import type { ChangeLabel, RowTest } from '../types/comparison.ts';

/** What a reader is told of a row: its label, or a possible change the gate does not count. */
export type ShownLabel = ChangeLabel | 'possible regression' | 'possible improvement';

/** `change`'s label as the reports show it. */
export function shownLabel(change: Pick<RowTest, 'label' | 'significant'>): ShownLabel {
  if (change.significant) return change.label;
  if (change.label === 'regressed') return 'possible regression';
  if (change.label === 'improved') return 'possible improvement';
  return change.label;
}

/**
 * Whether an interval ends exactly at 0 around a change that is not 0. The inverted test puts an
 * end there whenever ties at "no change" keep 0 in, at p = 0.06 as at 0.5: 0 is inside (the row
 * is not significant), so every report says `includes 0` lest `0.00…+0.13` read as a near miss.
 */
export function endsAtZero(delta: number, ci: { low: number; high: number }): boolean {
  return delta !== 0 && (ci.low === 0 || ci.high === 0);
}
