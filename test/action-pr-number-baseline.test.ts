/**
 * `baseline: auto` with a `pr-number` on an event that names no pull request (a
 * `workflow_dispatch` that evaluates pull request #N on demand): the pull request is the one
 * `pr-number` names, so the comparison is with its base branch (the pulls API's `base.ref`), as
 * on `issue_comment`, not dropped with "this workflow_dispatch event has none".
 *
 * The Action runs from src/ (through tsx) in a child process, against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { addResultsArtifact, cliResults, useSourceAction } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

describe('workflow_dispatch with pr-number and baseline: auto', () => {
  const fixture = useSourceAction();

  it("compares with the newest results of that pull request's base branch", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING), 'push');
    addResultsArtifact(fixture.server, 'release', await cliResults(ws, 'base.json', 1));
    addResultsArtifact(fixture.server, 'main', '{}');
    fixture.server.addPullRequest({ number: 9, headSha: 'd'.repeat(40), baseRef: 'release' });
    const r = await fixture.run(
      ws,
      { baseline: 'auto', 'pr-number': '9', report: 'false' },
      { GITHUB_EVENT_NAME: 'workflow_dispatch', GITHUB_REF: 'refs/heads/feature' },
    );
    assert.equal(r.code, 1, `the verdict is fail\n${r.stdout}`);
    assert.doesNotMatch(r.stdout, /event has none/);
    assert.match(r.stdout, /^evalgate: comparing with evals-results from release \(/m);
    const results = JSON.parse(readFileSync(join(ws.dir, 'evals-results.json'), 'utf8')) as {
      comparison?: unknown;
    };
    assert.notEqual(results.comparison, undefined, 'the comparison is in the artifact');
    const body = fixture.server.state.comments.get(9)?.[0]?.body ?? '';
    assert.match(body, /against the baseline/, 'the comment on #9 shows the comparison');
  });
});
