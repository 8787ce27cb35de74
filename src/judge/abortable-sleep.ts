/**
 * Waiting between attempts of a judge call: a wait that an aborted run cuts short, so a long
 * `Retry-After` does not keep the process alive after Ctrl-C.
 */

/** How the client waits `ms` milliseconds; it may stop early when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The default sleep: a timer cleared on abort; it resolves either way, never rejects. */
export function timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * `sleep(ms, signal)`, resolved as soon as `signal` aborts whether or not `sleep` honours it
 * (an injected sleep may not); it never rejects.
 */
export function abortableSleep(
  sleep: Sleep,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal === undefined) return sleep(ms);
  return new Promise<void>((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    sleep(ms, signal).then(done, done);
  });
}
