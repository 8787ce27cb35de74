/**
 * An evaluator's `evaluateTestCase` takes one object, `{ testCase, output, … }`. The Autoblocks
 * Python SDK's form, `evaluate_test_case(test_case, output)`, ported as it is, would get that
 * object as its test case and `undefined` as its output, and score every case wrong without an
 * error: such a method is refused where the evaluator is given (`runTestSuite`, evals.yaml).
 */

/** The form to write, quoted by the message. */
export const EVALUATE_TEST_CASE_FORM = 'evaluateTestCase({ testCase, output })';

/**
 * Why `method` cannot be an evaluator's `evaluateTestCase`, or null when it can: it declares two
 * parameters or more (its `length`; a parameter with a default value or a rest parameter is not
 * counted, so `({ output }, scale = 1)` is taken).
 */
export function positionalParametersProblem(method: unknown): string | null {
  if (typeof method !== 'function' || method.length < 2) return null;
  return `evaluateTestCase declares ${method.length} parameters, like evaluateTestCase(testCase, output) of the Python SDK, but it is called with one object: write ${EVALUATE_TEST_CASE_FORM} (as it is, its output would be undefined)`;
}

/**
 * The name of `value` when it is an evaluator class rather than an instance of one: passed as
 * `evaluators: [HasAllSubstrings]` for `new HasAllSubstrings()`, it would be called "a function".
 */
export function evaluatorClassName(value: unknown): string | undefined {
  if (typeof value !== 'function' || value.name === '') return undefined;
  const prototype: unknown = (value as { prototype?: unknown }).prototype;
  const method: unknown =
    typeof prototype === 'object' && prototype !== null
      ? (prototype as { evaluateTestCase?: unknown }).evaluateTestCase
      : undefined;
  return typeof method === 'function' ? value.name : undefined;
}
