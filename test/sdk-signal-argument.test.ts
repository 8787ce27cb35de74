/**
 * `runTestSuite`'s `signal` must be an AbortSignal. Given something else, such as the
 * AbortController itself (`signal: controller`, a slip for `controller.signal`), it threw
 * `TypeError: signal?.addEventListener is not a function` from inside evalgate, after the
 * process guard was installed and never removed: the script's process then ended with
 * `error: the process exited (exit code 0) before evals finished` and exit code 1, whatever the
 * script did next. It is now a UsageError before anything runs, that names the fix.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sdkScript } from './helpers/sdk-script.ts';

describe('runTestSuite: a signal that is not an AbortSignal', () => {
  it('is refused up front, and leaves the process as it was', { timeout: 60_000 }, async () => {
    const out = await sdkScript(`const controller = new AbortController();
try {
  await runTestSuite({ id: 's', testCases: [{ q: 'a' }], testCaseHash: ['q'], fn: () => 'x', quiet: true, signal: controller });
} catch (error) {
  console.log(error.name + ': ' + error.message);
}
console.log('went on');
`).run();
    assert.equal(out.code, 0, out.stderr);
    assert.match(
      out.stdout,
      /^UsageError: runTestSuite\(s\): signal must be an AbortSignal \(an AbortController's \.signal\), got an AbortController: pass controller\.signal\nwent on\n$/,
    );
    assert.equal(out.stderr, '');
  });
});
