/**
 * ChatOps: an `issue_comment` job (a `/evals` comment) comments on the pull request it was
 * written on without a `pr-number` input, taking the number from the event (`issue.number`,
 * when `issue.pull_request` says the issue is a pull request), and never on a plain issue. When
 * the job evaluated the default branch instead of the pull request, the comment says so. The
 * built dist/index.js against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ONE_FAILING, REPOSITORY, suiteFiles, workspace } from './helpers/action-run.ts';
import { commitAll, git } from './helpers/git.ts';

const MAIN_TIP = 'f'.repeat(40);

/** The environment GitHub gives an `issue_comment` run: GITHUB_SHA is the default branch's tip. */
function chatOpsEnv(sha = MAIN_TIP): Record<string, string> {
  return { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_SHA: sha, GITHUB_REF: 'refs/heads/main' };
}

describe('issue_comment: the pull request commented on gets the comment', () => {
  const fixture = useActionFixture();

  /** A workspace with one commit checked out, and a `/evals` comment on issue `number`. */
  function commentedOn(
    number: number,
    pullRequest: boolean,
  ): { ws: ReturnType<typeof workspace>; checkedOut: string } {
    const ws = workspace(suiteFiles(ONE_FAILING));
    git(ws.dir, 'init', '-q', '-b', 'feature');
    const checkedOut = commitAll(ws.dir, 'the checkout');
    const issue = pullRequest
      ? {
          number,
          pull_request: { url: `https://api.github.com/repos/octo/repo/pulls/${number}` },
        }
      : { number };
    writeFileSync(
      ws.event,
      JSON.stringify({
        action: 'created',
        issue,
        comment: { id: 1, body: '/evals' },
        repository: REPOSITORY,
      }),
    );
    return { ws, checkedOut };
  }

  it('without pr-number, comments on the pull request of the event; the check run goes on the checked-out commit', async () => {
    const { ws, checkedOut } = commentedOn(31, true);
    const r = await fixture.run(ws, {}, chatOpsEnv());
    assert.equal(r.code, 1, r.stdout);
    const comments = fixture.server.state.comments.get(31) ?? [];
    assert.equal(comments.length, 1, r.stdout);
    assert.equal(r.outputs['comment-url'], comments[0]?.html_url);
    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, checkedOut);
    // The pull request was checked out: nothing says it ran the default branch.
    assert.doesNotMatch(r.stdout, /default branch's latest commit, not the code of pull request/);
  });

  it('on a plain issue, comments nowhere', async () => {
    const { ws } = commentedOn(32, false);
    const before = fixture.server.state.comments.size;
    const r = await fixture.run(ws, {}, chatOpsEnv());
    assert.equal(r.code, 1, r.stdout);
    assert.equal(fixture.server.state.comments.get(32), undefined);
    assert.equal(fixture.server.state.comments.size, before);
    assert.equal(r.outputs['comment-url'], '');
  });

  it('the pr-number input wins over the event', async () => {
    const { ws } = commentedOn(33, true);
    const r = await fixture.run(ws, { 'pr-number': '34' }, chatOpsEnv());
    assert.equal(r.code, 1, r.stdout);
    assert.equal(fixture.server.state.comments.get(33), undefined);
    assert.equal(fixture.server.state.comments.get(34)?.length, 1);
  });

  it('with the default branch checked out, the comment on the pull request warns that it ran the default branch', async () => {
    const { ws, checkedOut } = commentedOn(35, true);
    const r = await fixture.run(ws, {}, chatOpsEnv(checkedOut));
    assert.equal(r.code, 1, r.stdout);
    const body = fixture.server.state.comments.get(35)?.[0]?.body ?? '';
    assert.match(
      body,
      new RegExp(
        `> \\[!WARNING\\]\\n> issue\\\\_comment: the evals ran GITHUB\\\\_SHA ${checkedOut}, the default branch's latest commit, not the code of pull request \\\\#35,`,
      ),
    );
    assert.match(
      r.stdout,
      /^::warning::evalgate: issue_comment: the evals ran GITHUB_SHA [0-9a-f]{40}, the default branch's latest commit, not the code of pull request #35, .*ref: refs\/pull\/35\/head/m,
    );
    // The check run stays on the commit that ran, the default branch's.
    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, checkedOut);
  });
});
