/** Suites and call counters for the `trials: N` tests (`test/engine-trials*.test.ts`). */
import type { SuiteSpec } from '../../src/run/types.ts';
import type { EngineEvaluator } from '../../src/types/index.ts';
import { suiteSpec, type SuiteOverrides } from './cases.ts';
import type { Row } from './engine-suite.ts';

/** A suite `trials` that runs each case 3 times, over `rows` (default: the one row `{ i: 0 }`). */
export function suite(overrides: SuiteOverrides & { rows?: Row[] } = {}): SuiteSpec {
  const { rows = [{ i: 0 }], ...rest } = overrides;
  return suiteSpec(rows, { id: 'trials', trials: 3, ...rest });
}

/** Counts calls per case (by `testCase.i`): the n-th call of a case gets `n` (1-based). */
export function callCounter(): (testCase: Row) => number {
  const calls = new Map<unknown, number>();
  return (testCase) => {
    const n = (calls.get(testCase.i) ?? 0) + 1;
    calls.set(testCase.i, n);
    return n;
  };
}

/** The evaluator threshold `{ gte }`. */
export const threshold = (gte: number): EngineEvaluator['threshold'] => ({ gte });
