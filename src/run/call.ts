import type { EvaluatorArgs, FnArgs, Params } from '../types/index.ts';

/**
 * Calling user code safely: cancellation signals, time limits, interrupts and error messages.
 *
 * Sync calls are the common case for built-in evaluators and must stay cheap, so nothing here
 * allocates a timer or an `AbortSignal` unless it is needed: a timer only exists while a
 * returned promise is pending (a sync call cannot be pre-empted anyway), and a signal only
 * exists once the callee reads `args.signal`.
 */

/** How a pending call ended: its value, or the message of why it failed. */
export type Outcome<T> =
  | { ok: true; value: T }
  | { ok: false; error: string; /** What was thrown, when anything was. */ thrown?: unknown };

/**
 * setTimeout fires at once (with a warning) past 2^31-1 ms, so longer limits mean "no limit";
 * nobody waits 24.8 days for one call.
 */
const MAX_TIMER_MS = 2_147_483_647;

/** The message of a timed-out call, as recorded in the results. */
export function timeoutMessage(timeoutMs: number): string {
  return `timed out after ${timeoutMs} ms`;
}

/**
 * The cancellation of one user call, and the base of the argument objects handed to user code
 * so that one allocation serves both. The `AbortSignal` is created on first read of `signal`:
 * materialising a signal costs ~3 µs on Node 20, more than a trivial sync function or
 * evaluator takes, and most callees never look at it. An abort that comes first is replayed
 * onto the signal when it is created.
 *
 * `signal` is a prototype getter (a getter in an object literal costs ~2 µs per object), so
 * `{ ...args }` does not copy it; user code that forwards its arguments should pass them whole.
 */
export class CallScope {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  /** The signal handed to the callee; aborted on time-out or interrupt. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * Aborts a scope's signal (once; later reasons are ignored, like AbortController). Static so
   * that no `abort` method shows up on the objects user code receives.
   */
  static abort(scope: CallScope, reason: unknown): void {
    if (scope.#aborted) return;
    scope.#aborted = true;
    scope.#reason = reason;
    scope.#controller?.abort(reason);
  }
}

/** The argument of one call of the function under test. */
export class FnCallArgs extends CallScope implements FnArgs {
  testCase: Record<string, unknown>;
  params: Params;

  constructor(testCase: Record<string, unknown>, params: Params) {
    super();
    this.testCase = testCase;
    this.params = params;
  }
}

/** The argument of one evaluator call. */
export class EvaluatorCallArgs extends CallScope implements EvaluatorArgs {
  testCase: Record<string, unknown>;
  output: unknown;
  params: Params;
  durationMs: number;

  constructor(
    testCase: Record<string, unknown>,
    output: unknown,
    params: Params,
    durationMs: number,
  ) {
    super();
    this.testCase = testCase;
    this.output = output;
    this.params = params;
    this.durationMs = durationMs;
  }
}

/**
 * Whether user code returned something to wait for (a promise or any thenable). A `then`
 * getter that throws makes the value a plain one rather than crashing the engine.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    return typeof (value as { then?: unknown }).then === 'function';
  } catch {
    return false;
  }
}

/**
 * The message recorded for anything user code threw or rejected with: an Error's message
 * (`Error: boom` → `boom`), a string as is, other values as JSON (`{"code":1}`, `42`).
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  ) {
    return (error as { message: string }).message;
  }
  try {
    const json = JSON.stringify(error);
    if (json !== undefined) return json;
  } catch {
    // Cyclic or BigInt-holding values: fall back to their string form.
  }
  return String(error);
}

interface PendingCall {
  abandon(reason: unknown): void;
}

/** What an interrupted call resolves to; the engine drops the case, so the text is never shown. */
const INTERRUPTED: Outcome<never> = { ok: false, error: 'interrupted' };

/**
 * Every call of one engine run that is waiting on a promise, so an interrupt can abort their
 * signals and stop waiting for them at once. Calls that ignore their signal are abandoned, not
 * awaited: their promises keep running, but nothing of theirs is recorded any more.
 */
export class PendingCalls {
  #pending = new Set<PendingCall>();
  #interrupted = false;
  #reason: unknown;

  /** True once `interrupt` was called: start no new user calls. */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  /** Aborts every pending call and resolves each of them as interrupted. */
  interrupt(reason: unknown): void {
    if (this.#interrupted) return;
    this.#interrupted = true;
    this.#reason = reason;
    const pending = [...this.#pending];
    this.#pending.clear();
    for (const call of pending) call.abandon(reason);
  }

  /**
   * Waits for a promise returned by user code, no longer than `timeoutMs` (null: no limit) and
   * no longer than the next interrupt. A time-out aborts the scope's signal with a
   * `TimeoutError`; the timer is cleared however the wait ends, so nothing keeps the process
   * alive. Never rejects.
   */
  settle<T>(
    value: PromiseLike<T>,
    scope: CallScope,
    timeoutMs: number | null,
  ): Promise<Outcome<T>> {
    if (this.#interrupted) {
      CallScope.abort(scope, this.#reason);
      return Promise.resolve(INTERRUPTED);
    }
    return new Promise<Outcome<T>>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let done = false;
      const finish = (outcome: Outcome<T>): void => {
        if (done) return;
        done = true;
        if (timer !== undefined) clearTimeout(timer);
        this.#pending.delete(call);
        resolve(outcome);
      };
      const call: PendingCall = {
        abandon: (reason) => {
          CallScope.abort(scope, reason);
          finish(INTERRUPTED);
        },
      };
      this.#pending.add(call);
      if (timeoutMs !== null && timeoutMs <= MAX_TIMER_MS) {
        timer = setTimeout(() => {
          const message = timeoutMessage(timeoutMs);
          CallScope.abort(scope, new DOMException(message, 'TimeoutError'));
          finish({ ok: false, error: message });
        }, timeoutMs);
      }
      // Promise.resolve adopts foreign thenables too, turning a throwing `then` into a rejection.
      Promise.resolve(value).then(
        (result) => finish({ ok: true, value: result }),
        (error: unknown) => finish({ ok: false, error: describeError(error), thrown: error }),
      );
    });
  }
}
