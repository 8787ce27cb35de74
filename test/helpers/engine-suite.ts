/** Suites, evaluators and rows for the engine tests (`test/engine-*.test.ts`). */
import type { SuiteSpec } from '../../src/run/types.ts';
import type { EngineEvaluator, Evaluation, EvaluatorArgs } from '../../src/types/index.ts';
import { suiteSpec, type SuiteOverrides } from './cases.ts';

/** One testset row: a case's data. */
export type Row = Record<string, unknown>;

/** A suite over `rows` (default: the one row `{ i: 0 }`); the other overrides as in `suiteSpec`. */
export function makeSuite(overrides: SuiteOverrides & { rows?: Row[] } = {}): SuiteSpec {
  const { rows = [{ i: 0 }], ...rest } = overrides;
  return suiteSpec(rows, rest);
}

/** An engine evaluator `id` that scores with `evaluate`; `extra` sets threshold, timeout, … */
export function evaluator(
  id: string,
  evaluate: (args: EvaluatorArgs) => Evaluation | Promise<Evaluation>,
  extra: Partial<EngineEvaluator> = {},
): EngineEvaluator {
  return { id, evaluateTestCase: evaluate, ...extra };
}

/** Rows `{ i: 0 } … { i: n-1 }`. */
export function rows(n: number): Row[] {
  return Array.from({ length: n }, (_, i) => ({ i }));
}

/** The position `i` of a row made by `rows`. */
export function index(testCase: Row): number {
  return testCase.i as number;
}

/** A promise that never settles and ignores every signal: the worst user code there is. */
export function never(): Promise<never> {
  return new Promise<never>(() => {});
}
