/**
 * The retry loop around single request attempts: bounded attempts, backoff between them that
 * honours what the server asked for (up to a limit), and a stop as soon as the signal aborts.
 * Judge calls and the HTTP target share it.
 */
import { callLimitOf } from '../shared/call-limit.ts';
import { CallTimeout } from '../shared/call-timeout.ts';
import { abortableSleep, type Sleep } from './abortable-sleep.ts';
import { backoffDelay } from './backoff.ts';
import type { AttemptOutcome } from './post-attempt.ts';
import type { JudgeError } from './types.ts';

/**
 * A server may ask for a wait longer than any eval run should sit idle (a daily quota's
 * `Retry-After`). Beyond this we give up with the error rather than wait less than asked.
 */
export const MAX_SERVER_WAIT_MS = 120_000;

/** How a call retries. */
export interface RetryPolicy {
  /** Retries after the first attempt (so at most `maxRetries + 1` attempts). */
  maxRetries: number;
  sleep: Sleep;
  /** In [0, 1), for backoff jitter. */
  random: () => number;
  signal?: AbortSignal;
  /** The error of a call stopped by `signal` during a wait. */
  aborted: () => JudgeError;
}

/** A failed attempt: worth another one, or not. */
type Failed = Exclude<AttemptOutcome, { kind: 'ok' }>;

/** What a retry loop ended with. */
type Retried<T> =
  | { ok: true; answer: T; attempts: number }
  | { ok: false; error: JudgeError & { attempts: number } };

/**
 * Runs `attempt` until it answers, fails for good, or the retries run out. Backoff waits happen
 * outside `attempt`, so a caller holding a concurrency slot per attempt frees it while waiting.
 *
 * A call's time limit may pass while the loop retries (backoff adds up: a server that refuses
 * connections is retried for seconds). The time-out is why the call ended, but the failures
 * before it are why it did not answer, so the last of them goes into the time-out's message
 * (see {@link CallTimeout}).
 */
export async function withRetries<T extends { kind: 'ok' }>(
  attempt: () => Promise<T | Failed>,
  policy: RetryPolicy,
): Promise<Retried<T>> {
  const { signal } = policy;
  let last: { error: JudgeError; attempts: number } | undefined;
  const onAbort = (): void => {
    const reason: unknown = signal?.reason;
    if (!(reason instanceof CallTimeout) || last === undefined) return;
    const failed = `${last.attempts} failed attempt${last.attempts === 1 ? '' : 's'}`;
    reason.note(`retrying, after ${failed}; the last: ${last.error.message}`);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await retryLoop(attempt, policy, (error, attempts) => (last = { error, attempts }));
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

async function retryLoop<T extends { kind: 'ok' }>(
  attempt: () => Promise<T | Failed>,
  policy: RetryPolicy,
  retrying: (error: JudgeError, attempts: number) => void,
): Promise<Retried<T>> {
  for (let attempts = 1; ; attempts++) {
    const outcome = await attempt();
    if (outcome.kind === 'ok') return { ok: true, answer: outcome, attempts };
    const failed = outcome;
    if (failed.kind === 'fail') return { ok: false, error: { ...failed.error, attempts } };
    if (attempts > policy.maxRetries) {
      // Said, so that a failure a retry could have hidden (a 503, a dropped connection) is not
      // read as a single unlucky request.
      if (attempts === 1) return { ok: false, error: { ...failed.error, attempts } };
      const gaveUp = `after ${attempts} attempts`;
      const message = `${failed.error.message}; ${gaveUp}`;
      return { ok: false, error: { ...failed.error, message, gaveUp, attempts } };
    }
    const asked = failed.serverDelay ?? 0;
    if (asked > MAX_SERVER_WAIT_MS) {
      const gaveUp = `the server asked to wait ${Math.ceil(asked / 1000)} s, more than ${MAX_SERVER_WAIT_MS / 1000} s`;
      const message = `${failed.error.message}; ${gaveUp}`;
      return { ok: false, error: { ...failed.error, message, gaveUp, attempts } };
    }
    // A wait the server asked for that outlasts the call's time limit would end in a time-out
    // hiding the server's answer: fail now, saying both. Only a wait it asked for: with none, a
    // deadline just passed is the time-out's to report ("asked to wait 0 s" would be false).
    const limit = callLimitOf(policy.signal);
    const left = limit?.msLeft();
    if (
      failed.serverDelay !== undefined &&
      limit !== undefined &&
      left !== undefined &&
      asked > left
    ) {
      const gaveUp = `the server asked to wait ${Math.ceil(asked / 1000)} s, more than the ${seconds(left)} s left of the ${seconds(limit.timeoutMs)} s time limit`;
      const message = `${failed.error.message}; ${gaveUp}`;
      return { ok: false, error: { ...failed.error, message, gaveUp, attempts } };
    }
    retrying(failed.error, attempts);
    const wait = Math.max(asked, backoffDelay(attempts - 1, policy.random));
    await abortableSleep(policy.sleep, wait, policy.signal);
    if (policy.signal?.aborted) return { ok: false, error: { ...policy.aborted(), attempts } };
  }
}

/** Milliseconds as seconds with at most one decimal, never negative: `4.2`, `30`. */
function seconds(ms: number): string {
  return String(Math.max(0, Math.floor(ms / 100) / 10));
}
