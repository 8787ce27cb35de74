/**
 * Step debug logging (the ACTIONS_STEP_DEBUG secret or variable, or a re-run with "Enable debug
 * logging"): the runner then sets RUNNER_DEBUG=1 and shows a step's `::debug::` lines. The
 * Action then logs every request it makes to GitHub and the status of each answer, retries
 * included, and never a header or body (so never the token); without it, no such line. The
 * built dist/index.js against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

const fixture = useActionFixture({ env: { EVALGATE_GITHUB_RETRY_SCALE: '0.05' } });

function debugLines(stdout: string): string[] {
  return stdout.match(/^::debug::evalgate: [^\n]*$/gm) ?? [];
}

describe('the Action with step debug logging', () => {
  it('logs each request and its status, retries included, and no token', async () => {
    fixture.server.failNext('POST', /\/check-runs$/, 502, 1);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), {}, { RUNNER_DEBUG: '1' });
    assert.equal(r.code, 1, r.stdout);
    const lines = debugLines(r.stdout);
    assert.ok(
      lines.includes('::debug::evalgate: POST /repos/octo/repo/check-runs -> 502'),
      r.stdout,
    );
    assert.ok(
      lines.includes('::debug::evalgate: POST /repos/octo/repo/check-runs -> 201'),
      r.stdout,
    );
    assert.ok(
      lines.some((line) =>
        /^::debug::evalgate: GET \/repos\/octo\/repo\/issues\/7\/comments\S* -> 200$/.test(line),
      ),
      r.stdout,
    );
    assert.ok(lines.every((line) => !line.includes('test-token')));
  });

  it('logs none without it', async () => {
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(r.code, 1, r.stdout);
    assert.deepEqual(debugLines(r.stdout), []);
  });
});
