/**
 * All the waiting one Action run may do for GitHub: every retry of every request draws on one
 * budget (a minute by default), so a GitHub outage delays the report by at most that, however
 * many requests the report makes.
 */

/** The default budget: a report never waits more than a minute in all. */
export const DEFAULT_RETRY_BUDGET_SECONDS = 60;

/** Waits granted so far against a fixed total; one per Action run, shared by every request. */
export class RetryBudget {
  /** Milliseconds in one second of waiting: 1000, less only when a test shortens every wait. */
  readonly secondMs: number;
  private readonly totalMs: number;
  private spentMs = 0;
  private readonly cancel = new AbortController();
  /** Why no more waiting is done (`cancelAll`); null while waits are granted. */
  private cancelledBy: string | null = null;

  /** Aborted by {@link cancelAll}: a wait under way ends early on it. */
  get cancelled(): AbortSignal {
    return this.cancel.signal;
  }

  /**
   * @param seconds the total, in seconds of waiting.
   * @param scale shortens every wait and the total alike (`EVALGATE_GITHUB_RETRY_SCALE`); 1 in
   *   production.
   */
  constructor(seconds = DEFAULT_RETRY_BUDGET_SECONDS, scale = 1) {
    this.secondMs = 1000 * scale;
    this.totalMs = seconds * this.secondMs;
  }

  /**
   * Grants a wait of `ms` when it fits what is left with `reserveMs` still to spare after it, and
   * counts it; false otherwise. A wait for something that is only nice to have reserves what the
   * writes still to come may need.
   */
  take(ms: number, reserveMs = 0): boolean {
    if (this.cancelledBy !== null) return false;
    if (this.spentMs + ms + reserveMs > this.totalMs) return false;
    this.spentMs += ms;
    return true;
  }

  /** Counts `ms` already spent (an attempt that timed out), whether or not it fitted. */
  spend(ms: number): void {
    this.spentMs += ms;
  }

  /**
   * Grants no more waits, and ends the one under way: the job is being cancelled, and the runner
   * kills the step 2.5 s after its SIGTERM, so what is left is posted without waiting. `why`
   * (`the job was cancelled (SIGTERM)`) is what {@link describe} says from now on.
   */
  cancelAll(why: string): void {
    if (this.cancelledBy !== null) return;
    this.cancelledBy = why;
    this.cancel.abort();
  }

  /** Why a retry was refused, for messages: the budget and what was already waited. */
  describe(): string {
    if (this.cancelledBy !== null) return `${this.cancelledBy}: no more waiting`;
    const seconds = (ms: number): string => String(Math.round(ms / this.secondMs));
    return `the retries would wait past the ${seconds(this.totalMs)} s budget; ${seconds(this.spentMs)} s already waited`;
  }
}
