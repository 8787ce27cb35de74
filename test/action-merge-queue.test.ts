/**
 * The GitHub Action in a merge queue (`on: merge_group`), end to end: the committed
 * dist/index.js run as a child process with the environment and event payload GitHub gives a
 * merge group, against the GitHub REST API server on 127.0.0.1. The queue waits for a check on
 * the group's head commit; `baseline: auto` compares with the queue's target branch; there is no
 * pull request to comment on.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  actionCheckout,
  ONE_FAILING,
  QUEUE_SHA,
  runAction,
  suiteFiles,
  workspace,
} from './helpers/action-run.ts';
import { runCli } from './helpers/cli.ts';
import { startGitHubServer, type GitHubServer } from './helpers/github-server.ts';
import { writeZip } from './helpers/zip-writer.ts';

describe('the Action in a merge queue', () => {
  let server: GitHubServer;
  let action: string;
  before(async () => {
    server = await startGitHubServer();
    action = actionCheckout();
  });
  after(() => server.close());

  it("puts the check run on the group's head commit and posts no comment", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING), 'merge_group');
    const r = await runAction(action, ws, server);
    assert.equal(
      r.code,
      1,
      `the verdict is fail, so the queue's required check fails\n${r.stdout}`,
    );
    const runs = [...server.state.checkRuns.values()];
    assert.equal(runs.length, 1);
    assert.equal(runs[0]?.head_sha, QUEUE_SHA);
    assert.equal(runs[0]?.conclusion, 'failure');
    assert.equal(server.state.comments.size, 0);
    assert.match(r.stdout, /in a merge queue there is no pull request to comment on/);
    assert.match(r.summary, /evals: evals\.yaml/);
  });

  it("compares with the newest results of the queue's target branch under baseline: auto", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING), 'merge_group');
    const base = await runCli(['run', '-o', 'base.json'], { cwd: ws.dir });
    assert.equal(base.code, 1, base.stderr);
    server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      zip: writeZip([
        { name: 'evals-results.json', data: readFileSync(join(ws.dir, 'base.json')) },
      ]),
    });
    // Newer, but from an earlier group's temporary branch: never a baseline.
    server.addArtifact({
      name: 'evals-results',
      branch: 'gh-readonly-queue/main/pr-6-' + 'f'.repeat(40),
      zip: writeZip([{ name: 'evals-results.json', data: '{}' }]),
    });
    const r = await runAction(action, ws, server, { baseline: 'auto' });
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /comparing with evals-results from main/);
    const results = JSON.parse(readFileSync(join(ws.dir, 'evals-results.json'), 'utf8')) as {
      comparison?: { hasRegression: boolean };
    };
    assert.equal(results.comparison?.hasRegression, false, 'the comparison is in the artifact');
  });

  it('says why there is no comparison on an event with no base branch (push)', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING.slice(0, 2)), 'push');
    const r = await runAction(action, ws, server, { baseline: 'auto' });
    assert.equal(r.code, 0, r.stdout);
    assert.match(
      r.stdout,
      /baseline: auto compares a pull request \(or a merge queue's group\) with its base branch; this push event has none/,
    );
  });
});
