/**
 * A bounded wait for what a run sets going but does not wait for: a killed process or thread
 * going away, a socket it dropped seen closed by the server.
 */

/**
 * Checks `done` every 100 ms, at most `tries` times (5 s by default), and returns its last
 * answer. The caller asserts that answer, never how long it took: the bound only keeps a broken
 * guarantee from hanging the test.
 */
export async function waitUntil(done: () => boolean, tries = 50): Promise<boolean> {
  for (let i = 0; i < tries && !done(); i++) await new Promise((r) => setTimeout(r, 100));
  return done();
}

/**
 * `promise`, or a failure naming `what` once `ms` have passed, after `onTimeout` has ended what
 * it waits on (kills the child): a wait on a child that never ends fails the test, not CI.
 */
export async function within<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
  onTimeout: () => void = () => {},
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
    }, ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
