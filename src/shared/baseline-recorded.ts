/**
 * The mark an automatic battle leaves on an evaluator call's arguments when it recorded the
 * case's first baseline instead of judging it, and so gives no evaluation (`automatic-battle` of
 * evals.yaml and the SDK's `BaseAutomaticBattle`, as in the Autoblocks SDK). The engine reads it
 * to tell that case from one the evaluator skipped: a run whose every case recorded a first
 * baseline judged nothing yet, but is not a gate that checked nothing by mistake (run/gate.ts,
 * `judged`).
 *
 * A registered symbol, so a class of another copy of evalgate (a module's own install) marks
 * what this copy reads, and not an own string key, which would show in every evaluator's
 * arguments as they are printed or spread.
 */
const RECORDED = Symbol.for('evalgate.baselineRecorded');

/** Marks `args` as those of a call that recorded its case's first baseline. */
export function markBaselineRecorded(args: object): void {
  try {
    Object.defineProperty(args, RECORDED, { value: true, configurable: true });
  } catch {
    // Arguments a subclass froze or copied into something else: the run then reads the case as
    // skipped, which can only fail it (`judged`), never pass it unchecked.
  }
}

/** Whether a call with `args` recorded its case's first baseline (see `markBaselineRecorded`). */
export function baselineRecorded(args: object): boolean {
  return (args as Record<symbol, unknown>)[RECORDED] === true;
}
