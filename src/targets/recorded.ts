/**
 * Outputs recorded in the testset as the target: a suite without `function:` scores each row's
 * `output` field, as produced by an earlier run or another tool.
 */
import type { Target } from '../types/index.ts';

/** The target of a suite whose outputs are the testset's `output` column. */
export const recordedTarget: Target = recordedColumnTarget('output');

/**
 * The target of a suite whose outputs are in the testset column `column` (`output:` in
 * evals.yaml, such as Judgment's `actual_output`).
 */
export function recordedColumnTarget(column: string): Target {
  return {
    description:
      column === 'output'
        ? 'the output field of each testset row'
        : `the ${column} field of each testset row`,
    call({ testCase }) {
      if (!Object.hasOwn(testCase, column)) {
        throw new Error(
          `the suite has no function: and this row has no ${JSON.stringify(column)} field to score`,
        );
      }
      // A null is no output: an artifact records an errored case's output as null, and scored
      // as a value it would pass every check that something is not there (`not: true`).
      if (testCase[column] === null) {
        throw new Error(
          `this row's ${JSON.stringify(column)} is null: there is no output to score (an errored case records null)`,
        );
      }
      return { output: testCase[column] };
    },
  };
}
