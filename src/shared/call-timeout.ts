/**
 * Why a call's signal aborts when its time limit passes. It is a `TimeoutError` DOMException as
 * user code expects, and it also lets what the call was waiting on say so: a retry loop stopped
 * between attempts notes its last failure, so the case's error reads `timed out after 1000 ms
 * while retrying, after 3 failed attempts; the last: … (ECONNREFUSED) …` rather than hiding
 * that the server was down. Abort listeners run synchronously, before the time-out is recorded.
 */
/** The message of a timed-out call, as recorded in the results: `timed out after 1000 ms`. */
export function timeoutMessage(timeoutMs: number): string {
  return `timed out after ${timeoutMs} ms`;
}

/** The reason a call's signal aborts with at its time limit (see above). */
export class CallTimeout extends DOMException {
  /** The limit that passed. */
  readonly timeoutMs: number;
  #doing: string | undefined;

  constructor(timeoutMs: number) {
    super(timeoutMessage(timeoutMs), 'TimeoutError');
    this.timeoutMs = timeoutMs;
  }

  /** What the call was doing when its time ran out (`retrying, after …`); the first note wins. */
  note(doing: string): void {
    this.#doing ??= doing;
  }

  /** `timed out after 1000 ms`, then ` while …` when something noted what it was doing. */
  describe(): string {
    return this.#doing === undefined ? this.message : `${this.message} while ${this.#doing}`;
  }
}
