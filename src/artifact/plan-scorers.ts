/**
 * Shards of one run written by evalgate versions on either side of `plan.scorers` (an earlier
 * one did not record it) ran the same settings: its absence only means the scorers were not
 * said. So their plans are compared, and the merged one written, without it, which leaves a
 * comparison of the merged run pairing its evaluators by id alone, as that of an earlier
 * artifact does. Pure.
 */
import type { RunPlan } from '../types/index.ts';

/** `plans` as they are when each records `scorers` (or none does), else each without it. */
export function scorersWhereAllRecord(
  plans: readonly (RunPlan | undefined)[],
): (RunPlan | undefined)[] {
  const recorded = plans.filter((plan) => plan?.scorers !== undefined).length;
  if (recorded === 0 || recorded === plans.length) return [...plans];
  return plans.map((plan) => {
    if (plan === undefined) return undefined;
    const { scorers: _dropped, ...rest } = plan;
    return rest;
  });
}
