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
