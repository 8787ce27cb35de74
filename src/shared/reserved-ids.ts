/**
 * The `evaluator` name of the synthetic evaluation recorded when a pass-condition function
 * throws, times out or returns a non-boolean. The case is then failed, not errored: `errored` is
 * reserved for the target, and the evaluation list is where a report already looks for why a
 * case failed. So no evaluator of a config may have this id.
 */
export const PASS_CONDITION_EVALUATOR = 'pass';
