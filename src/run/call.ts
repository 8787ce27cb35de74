import { CallTimeout, timeoutMessage } from '../shared/call-timeout.ts';
import type { EvaluatorArgs, FnArgs, Params } from '../types/index.ts';
import { describeError } from '../shared/describe-error.ts';
import { setCallLimit } from '../shared/call-limit.ts';

/**
 * Calling user code safely: cancellation signals, time limits, interrupts and error messages.
 *
 * Sync calls are the common case for built-in evaluators and must stay cheap, so nothing here
 * allocates a timer or an `AbortSignal` unless it is needed: a timer only exists while a
 * returned promise is pending (a sync call cannot be pre-empted in-process: one that ran past
 * its limit is timed out once it returns), and a signal only exists once the callee reads
 * `args.signal`.
 */

/** How a pending call ended: its value, or the message of why it failed. */
export type Outcome<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      error: string;
      /** What was thrown, when anything was (by a timed-out call: as it stopped, in the grace). */
      thrown?: unknown;
      /** What a timed-out call returned as it stopped, in the grace (its usage is kept). */
      late?: T;
    };

/**
 * How long a call timed out is still waited for: one that honours its signal settles at once,
 * and what it spent by then (the model calls it had sent, which reached the server) is kept with
 * the time-out. One that ignores its signal is not waited for any longer.
 */
const SETTLE_GRACE_MS = 100;

/**
 * setTimeout fires at once (with a warning) past 2^31-1 ms, so longer limits mean "no limit";
 * nobody waits 24.8 days for one call.
 */
const MAX_TIMER_MS = 2_147_483_647;

/** The message of a timed-out call, kept with the abort reason that carries it. */
export { timeoutMessage };

/**
 * The cancellation of one user call, and the base of the argument objects handed to user code
 * so that one allocation serves both. The `AbortSignal` is created on first read of `signal`:
 * materialising a signal costs ~3 µs on Node 20, more than a trivial sync function or
 * evaluator takes, and most callees never look at it. An abort that comes first is replayed
 * onto the signal when it is created.
 *
 * `signal` is a prototype getter (a getter in an object literal costs ~2 µs per object), so
 * `{ ...args }` does not copy it; user code that forwards its arguments should pass them whole.
 * `trial` is one too, so the objects' own fields stay those the SDK hands out.
 */
export class CallScope {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  readonly #trial: number;
  /** The call's time limit: when it started, by `#now`, and how long it may take. */
  #started = 0;
  #timeoutMs: number | undefined;
  #now: (() => number) | undefined;

  constructor(trial = 1) {
    this.#trial = trial;
  }

  /** Which trial of the case the call is for, from 1 (always 1 without `trials:`). */
  get trial(): number {
    return this.#trial;
  }

  /** The signal handed to the callee; aborted on time-out or interrupt. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
      this.#registerLimit();
    }
    return this.#controller.signal;
  }

  /**
   * Records the call's time limit (`timeoutMs` from `started`, by the clock `now`), for the
   * signal: read by the retry loop (see shared/call-limit.ts). No allocation until the signal is.
   */
  static limit(scope: CallScope, timeoutMs: number, started: number, now: () => number): void {
    scope.#started = started;
    scope.#timeoutMs = timeoutMs;
    scope.#now = now;
    if (scope.#controller !== undefined) scope.#registerLimit();
  }

  #registerLimit(): void {
    const timeoutMs = this.#timeoutMs;
    const now = this.#now;
    if (timeoutMs === undefined || now === undefined || this.#controller === undefined) return;
    const deadline = this.#started + timeoutMs;
    setCallLimit(this.#controller.signal, { timeoutMs, msLeft: () => deadline - now() });
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

  constructor(testCase: Record<string, unknown>, params: Params, trial = 1) {
    super(trial);
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
  /** Set only when true: an own field otherwise, it would show in every evaluator's argument. */
  declare untimed?: boolean;

  constructor(
    testCase: Record<string, unknown>,
    output: unknown,
    params: Params,
    durationMs: number,
    trial = 1,
  ) {
    super(trial);
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

/** A call's outcome and how long the call itself took. */
export type CallOutcome<T> = Outcome<T> & { durationMs: number };

/** Durations in the results: microsecond precision is plenty, and keeps the artifact short. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** The message of a call that ran synchronously past its limit: it could not be stopped. */
export function syncTimeoutMessage(timeoutMs: number, ranMs: number): string {
  return `${timeoutMessage(timeoutMs)} (it ran ${Math.round(ranMs)} ms without returning: synchronous code cannot be stopped in-process)`;
}

interface PendingCall {
  /** Ends the wait with `outcome`, aborting the callee's signal with `reason`. */
  end(reason: unknown, error: string): void;
}

/** What an interrupted call resolves to; the engine drops the case, so the text is never shown. */
const INTERRUPTED = 'interrupted';

const ignore = (): void => {};

/**
 * Every call of user code in one engine run: each is timed, held to its time limit, and
 * remembered while it waits on a promise, so that
 *
 * - an interrupt aborts every pending call's signal and stops waiting for it at once (calls that
 *   ignore their signal are abandoned, not awaited: their promises keep running, but nothing of
 *   theirs is recorded any more);
 * - when nothing else is left to happen (the event loop emptied: `neverSettled`), the calls
 *   still waiting are known never to settle, and each ends as an error.
 *
 * A call that runs synchronously past its limit cannot be stopped, but it still times out: its
 * result is not used. `current` is the unit whose code runs synchronously at this moment, so
 * that a process exit from inside user code can name the case that caused it.
 */
export class UserCalls<U> {
  readonly #now: () => number;
  readonly #pending = new Set<PendingCall>();
  /**
   * Milliseconds spent so far in the synchronous parts of calls (every unit's): while one runs,
   * nothing else does, so a call waiting meanwhile is not held up by itself.
   */
  #syncMs = 0;
  #interrupted = false;
  #reason: unknown;
  #interruptedNow: () => void = () => {};
  /**
   * Resolves once `interrupt` is called: a wait of the engine that is no call of user code (a
   * worker thread to load) ends with it rather than hold the interrupted run.
   */
  readonly interruption = new Promise<void>((resolve) => (this.#interruptedNow = resolve));
  /** The unit whose user code is running synchronously right now, else null. */
  current: U | null = null;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** True once `interrupt` was called: start no new user calls. */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  /** Calls waiting on a promise. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Calls `fn` for `unit`, no longer than `timeoutMs` (null: no limit) and no longer than the
   * next interrupt. A call that answers synchronously gives its outcome at once, timed right
   * after it returns, before any other case gets a turn: its duration is its own. Never throws
   * or rejects.
   */
  call<T>(
    unit: U,
    fn: () => T | PromiseLike<T>,
    scope: CallScope,
    timeoutMs: number | null,
  ): CallOutcome<T> | Promise<CallOutcome<T>> {
    const started = this.#now();
    if (timeoutMs !== null && timeoutMs <= MAX_TIMER_MS) {
      CallScope.limit(scope, timeoutMs, started, this.#now);
    }
    let value: T | PromiseLike<T>;
    this.current = unit;
    try {
      value = fn();
    } catch (thrown) {
      this.current = null;
      const durationMs = this.#since(started);
      this.#syncMs += durationMs;
      return { ok: false, error: describeError(thrown), thrown, durationMs };
    }
    this.current = null;
    const ranMs = this.#now() - started;
    this.#syncMs += ranMs;
    const overran = timeoutMs !== null && ranMs > timeoutMs;
    if (!isThenable(value)) {
      return overran
        ? { ok: false, error: syncTimeoutMessage(timeoutMs, ranMs), durationMs: roundMs(ranMs) }
        : { ok: true, value, durationMs: roundMs(ranMs) };
    }
    if (overran) {
      this.#abandon(value, scope, new CallTimeout(timeoutMs));
      return { ok: false, error: syncTimeoutMessage(timeoutMs, ranMs), durationMs: roundMs(ranMs) };
    }
    if (this.#interrupted) {
      this.#abandon(value, scope, this.#reason);
      return Promise.resolve({ ok: false, error: INTERRUPTED, durationMs: roundMs(ranMs) });
    }
    return this.#settle(value, scope, timeoutMs, started, ranMs);
  }

  /** Aborts every pending call and resolves each of them as interrupted. */
  interrupt(reason: unknown): void {
    if (this.#interrupted) return;
    this.#interrupted = true;
    this.#reason = reason;
    this.#interruptedNow();
    this.#endAll(reason, INTERRUPTED);
  }

  /**
   * Nothing else can happen (the event loop emptied): every call still waiting on a promise
   * never settles. Each ends as an error with `message` and the run goes on. Returns how many.
   */
  neverSettled(message: string): number {
    const count = this.#pending.size;
    this.#endAll(new Error(message), message);
    return count;
  }

  #endAll(reason: unknown, error: string): void {
    const pending = [...this.#pending];
    this.#pending.clear();
    for (const call of pending) call.end(reason, error);
  }

  #since(started: number): number {
    return roundMs(this.#now() - started);
  }

  /** No longer waits on `value`: its signal is aborted and a later rejection is not unhandled. */
  #abandon(value: PromiseLike<unknown>, scope: CallScope, reason: unknown): void {
    CallScope.abort(scope, reason);
    // Promise.resolve adopts foreign thenables too, turning a throwing `then` into a rejection.
    Promise.resolve(value).then(ignore, ignore);
  }

  /**
   * Waits for a promise returned by user code whose synchronous part took `ranMs` of its
   * limit. A time-out aborts the scope's signal with a `TimeoutError` (a {@link CallTimeout},
   * whose abort listeners may note what the call was waiting on: that goes in the error); the
   * timer is cleared however the wait ends, so nothing keeps the process alive.
   */
  #settle<T>(
    value: PromiseLike<T>,
    scope: CallScope,
    timeoutMs: number | null,
    started: number,
    ranMs: number,
  ): Promise<CallOutcome<T>> {
    return new Promise<CallOutcome<T>>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let done = false;
      const finish = (outcome: CallOutcome<T>): void => {
        if (done) return;
        done = true;
        if (timer !== undefined) clearTimeout(timer);
        this.#pending.delete(call);
        resolve(outcome);
      };
      const call: PendingCall = {
        end: (reason, error) => {
          CallScope.abort(scope, reason);
          finish({ ok: false, error, durationMs: this.#since(started) });
        },
      };
      this.#pending.add(call);
      // Set once the limit passed: the time-out, waiting for the callee's last word (see above).
      let timedOut: ((last: { late: T } | { thrown: unknown } | object) => void) | undefined;
      if (timeoutMs !== null && timeoutMs <= MAX_TIMER_MS) {
        timer = setTimeout(() => {
          const reason = new CallTimeout(timeoutMs);
          const durationMs = this.#since(started);
          let error = '';
          timedOut = (last) => finish({ ok: false, error, durationMs, ...last });
          timer = setTimeout(() => timedOut?.({}), SETTLE_GRACE_MS);
          CallScope.abort(scope, reason);
          error = reason.describe();
        }, timeoutMs - ranMs);
      }
      // Synchronous work after an `await` can hold the timer off past the limit and settle
      // first: a call that settles late is timed out all the same. Late by its own time: the
      // synchronous parts of other calls that ran meanwhile (another case's busy function) held
      // up its settling without being its doing, so they are not counted against it.
      const othersBefore = this.#syncMs;
      const late = (durationMs: number): CallOutcome<T> | undefined => {
        if (timeoutMs === null) return undefined;
        const ownMs = durationMs - (this.#syncMs - othersBefore);
        return ownMs > timeoutMs
          ? {
              ok: false,
              error: `${timeoutMessage(timeoutMs)} (it settled after ${Math.round(ownMs)} ms)`,
              durationMs,
            }
          : undefined;
      };
      // Promise.resolve adopts foreign thenables too, turning a throwing `then` into a rejection.
      Promise.resolve(value).then(
        (result) => {
          if (timedOut !== undefined) return timedOut({ late: result });
          const durationMs = this.#since(started);
          finish(late(durationMs) ?? { ok: true, value: result, durationMs });
        },
        (error: unknown) => {
          if (timedOut !== undefined) return timedOut({ thrown: error });
          const durationMs = this.#since(started);
          finish(
            late(durationMs) ?? {
              ok: false,
              error: describeError(error),
              thrown: error,
              durationMs,
            },
          );
        },
      );
    });
  }
}
