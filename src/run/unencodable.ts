/**
 * A case whose result cannot be encoded as the artifact writes it: user code returned an output,
 * or an evaluation's metadata, that throws while it is turned into JSON (a `toJSON` or a getter
 * that throws). The case is recorded as errored, saying which part failed and why, with those
 * parts left out; everything else it had is kept. This path only runs after the encoding of a
 * whole result threw, so probing its parts one by one costs nothing on the usual path.
 */
import type { CaseResult, EvaluationResult, Threshold, TrialResult } from '../types/index.ts';
import { describeError } from '../shared/describe-error.ts';

/** `result`, made encodable: the parts `encode` throws on replaced, the case errored. */
export function unencodable(
  encode: (value: unknown) => string,
  result: CaseResult,
  error: unknown,
): CaseResult {
  const problems: string[] = [];
  const encodes = (what: string, value: unknown): boolean => {
    try {
      encode(value);
      return true;
    } catch (thrown) {
      problems.push(`${what}: ${whyNot(thrown)}`);
      return false;
    }
  };
  const part = (trial: TrialResult, label: string): TrialResult => ({
    ...trial,
    output: encodes(`${label}output`, trial.output) ? trial.output : null,
    evaluations: trial.evaluations.map((evaluation) =>
      encodes(`${label}evaluator "${evaluation.evaluator}"`, evaluation)
        ? evaluation
        : brokenEvaluation(evaluation),
    ),
  });
  const { trials, ...single } = result;
  const fixed: CaseResult = {
    ...single,
    ...part(single, ''),
    data: encodes('the case data', single.data) ? single.data : {},
    ...(trials !== undefined
      ? { trials: trials.map((trial, i) => part(trial, `trial ${i + 1}: `)) }
      : {}),
  };
  // Nothing found at fault part by part: say what the whole threw.
  if (problems.length === 0) problems.push(whyNot(error));
  fixed.error = `the result cannot be written as JSON (${problems.join('; ')})`;
  fixed.passed = false;
  return fixed;
}

/** Why encoding threw, in the user's terms: V8's stack overflow means a value nested too deep. */
function whyNot(thrown: unknown): string {
  return thrown instanceof RangeError && /call stack/i.test(thrown.message)
    ? 'nested thousands of levels deep'
    : describeError(thrown);
}

/** An evaluation that cannot be encoded: its numbers kept, its metadata and usage dropped. */
function brokenEvaluation(evaluation: EvaluationResult): EvaluationResult {
  return {
    evaluator: String(evaluation.evaluator),
    score: null,
    threshold: plainThreshold(evaluation.threshold),
    passed: false,
    metadata: null,
    error: 'its result cannot be written as JSON (see the case error)',
    durationMs: evaluation.durationMs,
  };
}

function plainThreshold(threshold: Threshold | null): Threshold | null {
  if (threshold === null) return null;
  const plain: Threshold = {};
  for (const bound of ['lt', 'lte', 'gt', 'gte'] as const) {
    const value = threshold[bound];
    if (typeof value === 'number') plain[bound] = value;
  }
  return plain;
}
