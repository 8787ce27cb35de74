import type { RunPlan } from '../plan/types.ts';
import type { ResumedCases, SuiteSpec } from '../run/types.ts';
import type { BoundSuite } from './bind.ts';

/**
 * The engine's suites: each planned suite with what was bound for it. `resumed(suite, run)`
 * gives the reader of the cases an interrupted run finished, for a plan that resumes one.
 */
export function suiteSpecs(
  plan: RunPlan,
  bound: ReadonlyMap<string, BoundSuite>,
  resumed?: (suite: string, run: number) => ResumedCases | undefined,
): SuiteSpec[] {
  return plan.suites.map((suite) => {
    const b = bound.get(suite.id);
    if (b === undefined) throw new Error(`suiteSpecs: suite ${suite.id} was not bound`);
    return {
      id: suite.id,
      target: b.target,
      evaluators: b.evaluators,
      runs: suite.runs.map((run, i) => {
        const taken = resumed?.(suite.id, i);
        return { params: run.params, cases: run.cases, ...(taken ? { resumed: taken } : {}) };
      }),
      concurrency: suite.concurrency,
      timeoutMs: suite.timeoutMs,
      trials: suite.trials,
      pass: b.pass,
      gate: suite.gate,
      testset: suite.testset,
    };
  });
}
