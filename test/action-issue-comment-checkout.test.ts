/**
 * An `issue_comment` job (a `/evals` comment on a pull request) evaluates what it checked out,
 * while GITHUB_SHA is the default branch's latest commit. The Action asks GitHub for the pull
 * request (`GET …/pulls/:n`): a checkout of its head (refs/pull/N/head, as the docs say) gets the
 * check run on that head and no warning; the default branch gets the warning that the verdict is
 * about it, `pr-number` input or not. Other commits: `action-issue-comment-merge.test.ts`. The
 * built dist/index.js against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ONE_FAILING, REPOSITORY, suiteFiles, workspace } from './helpers/action-run.ts';
import { commitAll, git } from './helpers/git.ts';

const MAIN_TIP = 'f'.repeat(40);

/** The environment GitHub gives an `issue_comment` run, GITHUB_SHA the default branch's tip. */
function chatOpsEnv(sha = MAIN_TIP): Record<string, string> {
  return { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_SHA: sha, GITHUB_REF: 'refs/heads/main' };
}

describe('issue_comment with the pull request checked out', () => {
  const fixture = useActionFixture();

  /** A workspace with one commit checked out, and a `/evals` comment on pull request `number`. */
  function chatOps(number: number): { ws: ReturnType<typeof workspace>; checkedOut: string } {
    const ws = workspace(suiteFiles(ONE_FAILING));
    git(ws.dir, 'init', '-q', '-b', 'feature');
    const checkedOut = commitAll(ws.dir, 'the pull request');
    writeFileSync(
      ws.event,
      JSON.stringify({
        action: 'created',
        issue: {
          number,
          pull_request: { url: `https://api.github.com/repos/octo/repo/pulls/${number}` },
        },
        comment: { id: 1, body: '/evals' },
        repository: REPOSITORY,
      }),
    );
    return { ws, checkedOut };
  }

  it("the pull request's head checked out: the check run goes on it, with no warning", async () => {
    const { ws, checkedOut } = chatOps(7);
    fixture.server.addPullRequest({ number: 7, headSha: checkedOut });
    const r = await fixture.run(ws, { 'pr-number': '7' }, chatOpsEnv());
    assert.equal(r.code, 1, r.stdout);
    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, checkedOut, 'the commit whose code ran, not the default branch');
    // Set up as the docs say, the job gets no warning: it ran the pull request's head.
    assert.doesNotMatch(r.stdout, /::warning::/);
    assert.doesNotMatch(r.summary, /WARNING/);
    assert.doesNotMatch(fixture.server.state.comments.get(7)?.[0]?.body ?? '', /WARNING/);
  });

  it('with the default branch checked out (the default) and pr-number: the check run stays on GITHUB_SHA, with the warning that it ran the default branch', async () => {
    // The workflow named the pull request (`pr-number`), so it asked about that pull request's
    // code; a verdict on the default branch's is worth the same warning as without the input.
    const { ws, checkedOut } = chatOps(10);
    fixture.server.addPullRequest({ number: 10, headSha: 'd'.repeat(40) });
    const r = await fixture.run(ws, { 'pr-number': '10' }, chatOpsEnv(checkedOut));
    assert.equal(r.code, 1, r.stdout);
    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, checkedOut);
    const warnings = r.stdout.match(/^::warning::evalgate: issue_comment.*$/gm) ?? [];
    assert.equal(warnings.length, 1, r.stdout);
    assert.match(
      warnings[0] ?? '',
      /the evals ran GITHUB_SHA [0-9a-f]{40}, the default branch's latest commit, not the code of pull request #10, .*ref: refs\/pull\/10\/head/,
    );
    assert.match(
      fixture.server.state.comments.get(10)?.[0]?.body ?? '',
      /> \[!WARNING\]\n> issue\\_comment: the evals ran GITHUB\\_SHA/,
    );
  });
});
