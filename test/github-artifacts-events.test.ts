/**
 * `baseline: auto` takes the branch's results only from runs that evaluate the branch's own code
 * (push, schedule, workflow_dispatch): GitHub names the base branch as the `head_branch` of a
 * `pull_request_target` run and the default branch as that of an `issue_comment` run, jobs that
 * may have checked out and evaluated a pull request. findBaselineArtifact against the fake
 * GitHub, which answers a run's event only through `GET …/actions/runs/:id`, as GitHub does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notFound } from '../src/action/baseline.ts';
import { findBaselineArtifact } from '../src/github/baseline.ts';
import type { Octokit } from '../src/github/octokit.ts';
import { RESULTS, target, useArtifactServer } from './helpers/github-artifact-fixtures.ts';
import type { GitHubServer } from './helpers/github-server.ts';
import { writeZip } from './helpers/zip-writer.ts';

const day = (n: number): string => new Date(Date.UTC(2024, 4, 1) + n * 86_400_000).toISOString();

let server: GitHubServer;
let octokit: Octokit;

useArtifactServer((started, client) => {
  server = started;
  octokit = client;
});

const zip = writeZip([{ name: 'evals-results.json', data: RESULTS }]);

function runLookups(): number {
  return server.requests.filter((request) => /\/actions\/runs\/\d+$/.test(request.path)).length;
}

describe('findBaselineArtifact: only the branch runs that evaluate its own code', () => {
  it('passes over newer pull_request_target, issue_comment and workflow_run uploads on main', async () => {
    for (const [n, event] of [
      [40, 'pull_request_target'],
      [39, 'issue_comment'],
      [38, 'workflow_run'],
    ] as const) {
      server.addArtifact({ name: 'evals-results', branch: 'main', createdAt: day(n), event, zip });
    }
    const pushed = server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      createdAt: day(30),
      runId: 555,
      zip,
    });
    server.addArtifact({ name: 'evals-results', branch: 'main', createdAt: day(20), zip });

    const result = await findBaselineArtifact(octokit, target, {
      name: 'evals-results',
      branch: 'main',
    });
    assert.ok(result.ok);
    assert.equal(result.found?.id, pushed.id, 'the newest upload of a push run');
    assert.deepEqual(result.searched.skipped, {
      pull_request_target: 1,
      issue_comment: 1,
      workflow_run: 1,
    });
    // The three passed over and the one taken; never the older push below it.
    assert.equal(runLookups(), 4);
  });

  it('takes schedule and workflow_dispatch runs, and looks up no run older than the one taken', async () => {
    server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      createdAt: day(50),
      event: 'schedule',
      zip,
    });
    const manual = server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      createdAt: day(60),
      event: 'workflow_dispatch',
      zip,
    });
    const result = await findBaselineArtifact(octokit, target, {
      name: 'evals-results',
      branch: 'main',
    });
    assert.ok(result.ok);
    assert.equal(result.found?.id, manual.id);
    assert.equal(runLookups(), 1);
  });

  it('none from such a run: no baseline, and the message says what was passed over and why', async () => {
    server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      createdAt: day(5),
      event: 'pull_request_target',
      zip,
    });
    const result = await findBaselineArtifact(octokit, target, {
      name: 'evals-results',
      branch: 'main',
    });
    assert.ok(result.ok);
    assert.equal(result.found, null);
    assert.equal(
      notFound('evals-results', 'main', result.searched),
      'no results artifact named evals-results from main yet (looked at all 1 artifacts of that name); running without a comparison. ' +
        "Passed over 1 uploaded by pull_request_target runs: only results uploaded by a push, schedule, workflow_dispatch run are main's own " +
        "(such a job may have checked out a pull request), so upload main's results from one of those (docs/action.md#baseline-auto-on-a-busy-repository)",
    );
  });
});
