/**
 * The label a row is shown with. Only a change that is significant once every row of the
 * comparison is counted (Holm) counts for the gate, and only it is shown in the red or green of a
 * verdict (a PR reader would take a red row for what blocked, or should have blocked, the merge).
 * A change that does not block but whose Benjamini–Hochberg q-value is below
 * `POSSIBLE_CHANGE_Q` is a possible change, in yellow. A row whose own test alone calls a change
 * is shown `unchanged`: among many rows some p falls below 0.05 by chance, and labelling it made
 * about one pull request in four that changed nothing show a warning (docs/statistics.md).
 */
import { POSSIBLE_CHANGE_Q } from '../compare/family.ts';
import type { ChangeLabel, RowTest, RunComparison } from '../types/comparison.ts';

/** What a reader is told of a row: its label, or a possible change the gate does not count. */
export type ShownLabel = ChangeLabel | 'possible regression' | 'possible improvement';

/** The row fields the shown label is read from. */
export type LabelledRow = Pick<RowTest, 'label' | 'significant' | 'qValue'>;

/** `change`'s label as the reports show it. */
export function shownLabel(change: LabelledRow): ShownLabel {
  if (change.significant) return change.label;
  if (change.label !== 'regressed' && change.label !== 'improved') return change.label;
  if (!possibleChange(change)) return 'unchanged';
  return change.label === 'regressed' ? 'possible regression' : 'possible improvement';
}

/**
 * A change the row's own test calls (`regressed` or `improved`) that does not block but is still
 * a discovery at a false-discovery rate below `POSSIBLE_CHANGE_Q`.
 */
function possibleChange(change: LabelledRow): boolean {
  return change.qValue !== null && change.qValue < POSSIBLE_CHANGE_Q;
}

/**
 * A change the row's own test calls (p < 0.05) that the reports show as `unchanged`: not
 * significant over the comparison, and its q-value not below `POSSIBLE_CHANGE_Q`.
 */
export function withinFamilyNoise(change: LabelledRow): boolean {
  return change.label !== 'unchanged' && shownLabel(change) === 'unchanged';
}

/**
 * The rows of `runs` shown as possible regressions and possible improvements, and those shown
 * `unchanged` although their own test calls a change (`noise`), for the counts line.
 */
export function possibleCounts(runs: readonly RunComparison[]): {
  regressions: number;
  improvements: number;
  noise: number;
} {
  const counts = { regressions: 0, improvements: 0, noise: 0 };
  for (const run of runs) {
    for (const row of [run.passRate, ...run.evaluators, ...run.agreement]) {
      const label = shownLabel(row);
      if (label === 'possible regression') counts.regressions++;
      else if (label === 'possible improvement') counts.improvements++;
      else if (withinFamilyNoise(row)) counts.noise++;
    }
  }
  return counts;
}

/** Rows in the order the reports list them: regressions first, then improvements. */
export const SHOWN_ORDER: Record<ShownLabel, number> = {
  regressed: 0,
  'possible regression': 0,
  improved: 1,
  'possible improvement': 1,
  unchanged: 2,
  'too few cases': 3,
};

/**
 * Whether an interval ends exactly at 0 around a change that is not 0. The inverted test puts an
 * end there whenever ties at "no change" keep 0 in, at p = 0.06 as at 0.5: 0 is inside (the row
 * is not significant), so every report says `includes 0` lest `0.00…+0.13` read as a near miss.
 */
export function endsAtZero(delta: number, ci: { low: number; high: number }): boolean {
  return delta !== 0 && (ci.low === 0 || ci.high === 0);
}

/**
 * Runs with a regression the gate counts first, then those with a possible one (`shownLabel`),
 * otherwise in HEAD's order (the sort is stable).
 */
export function orderRuns(runs: readonly RunComparison[]): RunComparison[] {
  const regressed = (run: RunComparison): number => {
    const rows = [run.passRate, ...run.evaluators, ...run.agreement].map(shownLabel);
    if (rows.includes('regressed')) return 0;
    return rows.includes('possible regression') ? 1 : 2;
  };
  return [...runs].sort((a, b) => regressed(a) - regressed(b));
}
