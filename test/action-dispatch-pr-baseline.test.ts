/**
 * A `workflow_dispatch` run given `pr-number` that checked out the pull request evaluates the
 * pull request's code, while GitHub names the run's branch and commit as those it was
 * dispatched on (`main` and its tip). Its uploaded results passed for `main`'s own, and the next
 * pull request's `baseline: auto` was judged against another pull request's code. Now the results
 * record the commit that was checked out and evaluated, and `baseline: auto` takes only results
 * whose evaluated commit is the commit of the run that uploaded them: a run of the branch's own
 * code.
 *
 * The Action runs from src/ (through tsx) in a child process, against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliResults, resultsZip, useSourceAction } from './helpers/action-fixture.ts';
import { ALL_PASS, ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';
import { commitAll, git } from './helpers/git.ts';

const MAIN_TIP = '1'.repeat(40);
const EARLIER_MAIN = '2'.repeat(40);

describe('results of a workflow_dispatch run that evaluated a pull request', () => {
  const fixture = useSourceAction();

  it('record the commit the job checked out, not the one it was dispatched on', async () => {
    const ws = workspace(suiteFiles(ALL_PASS), 'push');
    git(ws.dir, 'init', '-q', '-b', 'main');
    commitAll(ws.dir, 'main');
    git(ws.dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(ws.dir, 'feature.txt'), 'the change\n');
    const prHead = commitAll(ws.dir, 'the pull request');
    git(ws.dir, 'checkout', '-q', '--detach');
    fixture.server.addPullRequest({ number: 9, headSha: prHead, baseRef: 'main' });
    const r = await fixture.run(
      ws,
      { 'pr-number': '9', report: 'false' },
      {
        GITHUB_EVENT_NAME: 'workflow_dispatch',
        GITHUB_REF: 'refs/heads/main',
        GITHUB_SHA: MAIN_TIP,
      },
    );
    assert.equal(r.code, 0, r.stdout);
    const results = JSON.parse(readFileSync(join(ws.dir, 'evals-results.json'), 'utf8')) as {
      git: { sha: string | null } | null;
    };
    assert.equal(results.git?.sha, prHead);
  });

  it("are passed over by baseline: auto, which compares with main's own results", async () => {
    const made = workspace(suiteFiles(ONE_FAILING), 'push');
    const ofCommit = async (sha: string): Promise<string> => {
      const data = JSON.parse(await cliResults(made, 'r.json', 1)) as Record<string, unknown>;
      return JSON.stringify({ ...data, git: { sha, ref: 'main' } }, null, 2);
    };
    // main's own results (a push), then the dispatched run's on main's tip, evaluating PR 9's head.
    fixture.server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      zip: resultsZip(await ofCommit(EARLIER_MAIN)),
      createdAt: '2024-01-01T00:00:00Z',
      headSha: EARLIER_MAIN,
    });
    const dispatched = fixture.server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      zip: resultsZip(await ofCommit('d'.repeat(40))),
      createdAt: '2024-01-02T00:00:00Z',
      headSha: MAIN_TIP,
      event: 'workflow_dispatch',
    });
    const ws = workspace(suiteFiles(ONE_FAILING));
    const r = await fixture.run(ws, { baseline: 'auto', report: 'false' });
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stdout,
      /^evalgate: comparing with evals-results from main \(2024-01-01T00:00:00Z, /m,
      "main's own results, not the newer ones of the pull request's code",
    );
    const downloads = fixture.server.state.storageDownloads.map((d) => d.artifactId);
    assert.ok(downloads.includes(dispatched.id), 'the newer candidate was looked at');
  });

  it('say why when no results of the branch own code remain', async () => {
    fixture.server.state.artifacts.clear();
    const made = workspace(suiteFiles(ONE_FAILING), 'push');
    const data = JSON.parse(await cliResults(made, 'r.json', 1)) as Record<string, unknown>;
    fixture.server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      zip: resultsZip(JSON.stringify({ ...data, git: { sha: 'd'.repeat(40), ref: null } })),
      headSha: MAIN_TIP,
      event: 'workflow_dispatch',
    });
    const ws = workspace(suiteFiles(ONE_FAILING));
    const r = await fixture.run(ws, { baseline: 'auto', report: 'false' });
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /no results artifact named evals-results from main yet/);
    assert.match(r.stdout, /1 that evaluated another commit than their run's/);
  });
});
