/**
 * A `workflow_dispatch` (or `workflow_run`) job given `pr-number` comments on that pull request,
 * whatever it checked out. One that checked out only the branch it runs on evaluated that code,
 * and its verdict went on the pull request as if it were the pull request's, without the warning
 * an `issue_comment` job gets. Now such a job reads the pull request as `issue_comment` does:
 * a checkout of its head gets the check run on the head and no warning; another commit gets the
 * warning, in the log, the job summary, the comment and the check run.
 *
 * The Action runs from src/ (through tsx) in a child process, against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  ONE_FAILING,
  REPOSITORY,
  suiteFiles,
  workspace,
  type Workspace,
} from './helpers/action-run.ts';
import { useSourceAction } from './helpers/action-fixture.ts';
import { commitAll, git } from './helpers/git.ts';

/** A workspace on branch main (commit `main`), and pull request 9's head on branch feature. */
function repository(): { ws: Workspace; main: string; head: string } {
  const ws = workspace(suiteFiles(ONE_FAILING), 'push');
  git(ws.dir, 'init', '-q', '-b', 'main');
  const main = commitAll(ws.dir, 'main');
  git(ws.dir, 'checkout', '-q', '-b', 'feature');
  writeFileSync(join(ws.dir, 'feature.txt'), 'the change\n');
  const head = commitAll(ws.dir, 'the pull request');
  return { ws, main, head };
}

describe('workflow_dispatch and workflow_run with pr-number', () => {
  const fixture = useSourceAction();

  const lastCheckRun = () => [...fixture.server.state.checkRuns.values()].at(-1);
  const comment = (n: number) => fixture.server.state.comments.get(n)?.at(-1)?.body ?? '';

  it('workflow_dispatch with only its branch checked out: the verdict is said to be about that branch, not the pull request', async () => {
    const { ws, main, head } = repository();
    git(ws.dir, 'checkout', '-q', 'main');
    fixture.server.addPullRequest({ number: 9, headSha: head, baseRef: 'main' });
    const r = await fixture.run(
      ws,
      { 'pr-number': '9', report: 'false' },
      { GITHUB_EVENT_NAME: 'workflow_dispatch', GITHUB_SHA: main, GITHUB_REF: 'refs/heads/main' },
    );
    assert.equal(r.code, 1, r.stdout);
    const warning = new RegExp(
      `workflow_dispatch: the evals ran GITHUB_SHA ${main}, not the code of pull request #9 \\(its head ${head}\\)`,
    );
    assert.match(r.stdout, new RegExp(`::warning::evalgate: ${warning.source}`));
    assert.match(r.summary, /\[!WARNING\]\n> workflow\\_dispatch: the evals ran GITHUB\\_SHA/);
    assert.match(comment(9), /\[!WARNING\]\n> workflow\\_dispatch: the evals ran GITHUB\\_SHA/);
    assert.match(comment(9), /refs\/pull\/9\/head/, 'says how to evaluate the pull request');
    const run = lastCheckRun();
    assert.equal(run?.head_sha, main, 'the check run stays on the code that ran');
    assert.match(run?.output.summary ?? '', /workflow\\_dispatch: the evals ran GITHUB\\_SHA/);
  });

  it("workflow_dispatch with the pull request's head checked out: its check run on the head, no warning", async () => {
    const { ws, main, head } = repository();
    git(ws.dir, 'checkout', '-q', '--detach', head);
    fixture.server.addPullRequest({ number: 10, headSha: head, baseRef: 'main' });
    const r = await fixture.run(
      ws,
      { 'pr-number': '10', report: 'false' },
      { GITHUB_EVENT_NAME: 'workflow_dispatch', GITHUB_SHA: main, GITHUB_REF: 'refs/heads/main' },
    );
    assert.equal(r.code, 1, r.stdout);
    assert.doesNotMatch(r.stdout, /::warning::/);
    assert.doesNotMatch(comment(10), /WARNING/);
    assert.equal(lastCheckRun()?.head_sha, head);
  });

  it('workflow_run whose triggering commit was checked out, another pull request named: the warning', async () => {
    const { ws, main, head } = repository();
    git(ws.dir, 'checkout', '-q', 'main');
    fixture.server.addPullRequest({ number: 11, headSha: head, baseRef: 'main' });
    writeFileSync(
      ws.event,
      JSON.stringify({
        action: 'completed',
        workflow_run: { id: 777, run_attempt: 1, head_sha: main, event: 'push' },
        repository: REPOSITORY,
      }),
    );
    const r = await fixture.run(
      ws,
      { 'pr-number': '11', report: 'false' },
      { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_SHA: main, GITHUB_REF: 'refs/heads/main' },
    );
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      comment(11),
      /\[!WARNING\]\n> workflow\\_run: the evals ran .*not the code of pull request \\#11/,
    );
  });

  it('workflow_run after the pull request was merged, its merge checked out: no test-merge note, the check run stays on the merge', async () => {
    const { ws, head } = repository();
    git(ws.dir, 'checkout', '-q', 'main');
    git(ws.dir, 'merge', '-q', '--no-ff', '-m', 'Merge pull request #12', 'feature');
    const merge = git(ws.dir, 'rev-parse', 'HEAD');
    fixture.server.addPullRequest({
      number: 12,
      headSha: head,
      baseRef: 'main',
      mergeCommitSha: merge,
      mergedAt: '2024-01-01T00:00:00Z',
    });
    writeFileSync(
      ws.event,
      JSON.stringify({
        action: 'completed',
        workflow_run: { id: 778, run_attempt: 1, head_sha: merge, event: 'push' },
        repository: REPOSITORY,
      }),
    );
    const r = await fixture.run(
      ws,
      { 'pr-number': '12', report: 'false' },
      { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_SHA: merge, GITHUB_REF: 'refs/heads/main' },
    );
    assert.equal(r.code, 1, r.stdout);
    assert.doesNotMatch(r.stdout, /::warning::|test merge commit/);
    assert.equal(lastCheckRun()?.head_sha, merge, 'the commit that ran, on main');
  });
});
