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
import { after, before, describe, it } from 'node:test';
import { addResultsArtifact, cliResults } from './helpers/action-fixture.ts';
import {
  ONE_FAILING,
  runAction,
  sourceCheckout,
  suiteFiles,
  workspace,
} from './helpers/action-run.ts';
import { startGitHubServer, type GitHubServer } from './helpers/github-server.ts';

describe('workflow_dispatch with pr-number and baseline: auto', () => {
  let server: GitHubServer;
  let action = '';
  before(async () => {
    server = await startGitHubServer();
    action = sourceCheckout();
  });
  after(() => server.close());

  it("compares with the newest results of that pull request's base branch", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING), 'push');
    addResultsArtifact(server, 'release', await cliResults(ws, 'base.json', 1));
    addResultsArtifact(server, 'main', '{}');
    server.addPullRequest({ number: 9, headSha: 'd'.repeat(40), baseRef: 'release' });
    const r = await runAction(
      action,
      ws,
      server,
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
    const body = server.state.comments.get(9)?.[0]?.body ?? '';
    assert.match(body, /against the baseline/, 'the comment on #9 shows the comparison');
  });
});
