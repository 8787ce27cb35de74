/**
 * The time limit of the call a signal belongs to, for code that is handed only the signal (the
 * retry loop shared by judges and the model and http targets): a server's `Retry-After` longer
 * than the time left cannot be honoured, so the call fails at once saying so, rather than sleep
 * until the time-out ends it with a message that hides the server's answer.
 *
 * Kept beside the signal rather than on the argument objects user code receives, so that no new
 * member shows up there; a WeakMap, so a signal's entry goes with it.
 */

/** A call's time limit and how much of it is left now. */
export interface CallLimit {
  /** The limit, in ms. */
  readonly timeoutMs: number;
  /** How many ms of it are left (negative once it passed). */
  msLeft(): number;
}

const limits = new WeakMap<AbortSignal, CallLimit>();

/** Records that `signal` is aborted when `limit` passes. */
export function setCallLimit(signal: AbortSignal, limit: CallLimit): void {
  limits.set(signal, limit);
}

/** The time limit of the call `signal` belongs to; undefined when it has none (or is unknown). */
export function callLimitOf(signal: AbortSignal | undefined): CallLimit | undefined {
  return signal === undefined ? undefined : limits.get(signal);
}
