/**
 * GitHub answers 410 Gone on a pull request's comments when the issue was deleted or the
 * repository has issues turned off. The Action says so in its warning, instead of a bare
 * status, and still ends on the eval verdict with its check run. The Action from src/ against the
 * fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

describe('the Action when the pull request is gone (410)', () => {
  const fixture = useSourceAction();

  it('warns that the pull request or issue is gone, and keeps the verdict and check run', async () => {
    fixture.server.failNext('GET', /\/issues\/7\/comments/, 410, 1, {
      message: 'This issue was deleted',
    });
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'fail');
    const warning = /^::warning::evalgate: could not list the comments of PR #7[^\n]*$/m.exec(
      r.stdout,
    )?.[0];
    assert.match(warning ?? '', /410 This issue was deleted \(GitHub says it is gone/, r.stdout);
    assert.doesNotMatch(warning ?? '', /permission|fork/);
    assert.equal(fixture.server.state.comments.size, 0);
    assert.equal(fixture.server.state.checkRuns.size, 1, 'the check run still goes out');
  });
});
