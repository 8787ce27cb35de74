/**
 * Outputs recorded in the testset as the target: a suite without `function:` scores each row's
 * `output` field, as produced by an earlier run or another tool.
 */
import type { Target } from '../types/index.ts';

/** The target of a suite whose outputs are the testset's `output` column. */
export const recordedTarget: Target = {
  description: 'the output field of each testset row',
  call({ testCase }) {
    if (!('output' in testCase)) {
      throw new Error('the suite has no function: and this row has no "output" field to score');
    }
    return { output: testCase.output };
  },
};
