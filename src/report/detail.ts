/**
 * Cases the pull-request reports may not show in detail. The Action keeps the first cases of a
 * run that did not pass whole, and those past a bound reduced (see `ReducedCases` in
 * compare/comparable.ts): a run where everything fails must not hold every failing case whole.
 * The reports count such a case, compare its pass status with a baseline and list its trials'
 * pass rate, but never show its reasons or output: they are not there. A mark on the object, not
 * a property, so that no artifact or JSON ever carries it.
 */
import type { CaseResult } from '../types.ts';

const undetailed = new WeakSet<CaseResult>();

/** Marks `result` as kept without the details a report of a failing case shows. */
export function markUndetailed(result: CaseResult): CaseResult {
  undetailed.add(result);
  return result;
}

/** False for a case kept without its details ({@link markUndetailed}). */
export function isDetailed(result: CaseResult): boolean {
  return !undetailed.has(result);
}
