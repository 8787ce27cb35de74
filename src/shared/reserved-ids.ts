/**
 * The `evaluator` name of the synthetic evaluation recorded when a pass-condition function
 * throws, times out or returns a non-boolean. The case is then failed, not errored: `errored` is
 * reserved for the target, and the evaluation list is where a report already looks for why a
 * case failed. So no evaluator of a config may have this id.
 */
export const PASS_CONDITION_EVALUATOR = 'pass';

/**
 * The one name a plain object cannot hold as a key by assignment: `obj['__proto__'] = v` sets
 * its prototype instead, so a summary keyed by evaluator id (`summary.evaluators`) would lose
 * that evaluator, and the artifact with it. Suite ids cannot start with `_`; an evaluator id
 * taken from a module's name, or given to runTestSuite, could be this.
 */
export const UNSAFE_OBJECT_KEY = '__proto__';

/** Why an evaluator id cannot be `UNSAFE_OBJECT_KEY`, to follow the words naming the id. */
export const UNSAFE_KEY_REASON =
  "cannot be a key of the results' objects (summary.evaluators): JavaScript reads __proto__ as an object's prototype, not as a key";
