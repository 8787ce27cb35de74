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
import { describe, it } from 'node:test';
import { addResultsArtifact, cliResults, useActionFixture } from './helpers/action-fixture.ts';
import { ONE_FAILING, QUEUE_SHA, suiteFiles, workspace } from './helpers/action-run.ts';

describe('the Action in a merge queue', () => {
  const fixture = useActionFixture();

  it("puts the check run on the group's head commit and posts no comment", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING), 'merge_group');
    const r = await fixture.run(ws);
    assert.equal(
      r.code,
      1,
      `the verdict is fail, so the queue's required check fails\n${r.stdout}`,
    );
    const runs = [...fixture.server.state.checkRuns.values()];
    assert.equal(runs.length, 1);
    assert.equal(runs[0]?.head_sha, QUEUE_SHA);
    assert.equal(runs[0]?.conclusion, 'failure');
    assert.equal(fixture.server.state.comments.size, 0);
    assert.match(r.stdout, /in a merge queue there is no pull request to comment on/);
    assert.match(r.summary, /evals: evals\.yaml/);
  });

  it("compares with the newest results of the queue's target branch under baseline: auto", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING), 'merge_group');
    addResultsArtifact(fixture.server, 'main', await cliResults(ws, 'base.json', 1));
    // Newer, but from an earlier group's temporary branch: never a baseline.
    addResultsArtifact(fixture.server, 'gh-readonly-queue/main/pr-6-' + 'f'.repeat(40), '{}');
    const r = await fixture.run(ws, { baseline: 'auto' });
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /comparing with evals-results from main/);
    const results = JSON.parse(readFileSync(join(ws.dir, 'evals-results.json'), 'utf8')) as {
      comparison?: { hasRegression: boolean };
    };
    assert.equal(results.comparison?.hasRegression, false, 'the comparison is in the artifact');
  });

  it('says why there is no comparison on an event with no base branch (push)', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING.slice(0, 2)), 'push');
    const r = await fixture.run(ws, { baseline: 'auto' });
    assert.equal(r.code, 0, r.stdout);
    assert.match(
      r.stdout,
      /baseline: auto compares a pull request \(or a merge queue's group\) with its base branch; this push event has none/,
    );
  });
});
