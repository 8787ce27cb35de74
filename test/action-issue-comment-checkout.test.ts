/**
 * An `issue_comment` job (a `/evals` comment on a pull request) that checks out the pull request
 * evaluated the PR's head, while GITHUB_SHA is the default branch's latest commit: the check run
 * goes on the commit whose code ran, with a warning, never on the default branch's tip; one that
 * evaluated the default branch says so, `pr-number` input or not. The built dist/index.js against
 * the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ONE_FAILING, REPOSITORY, suiteFiles, workspace } from './helpers/action-run.ts';
import { commitAll, git } from './helpers/git.ts';

const MAIN_TIP = 'f'.repeat(40);

describe('issue_comment with the pull request checked out', () => {
  const fixture = useActionFixture();

  function chatOps(): { ws: ReturnType<typeof workspace>; checkedOut: string } {
    const ws = workspace(suiteFiles(ONE_FAILING));
    git(ws.dir, 'init', '-q', '-b', 'feature');
    const checkedOut = commitAll(ws.dir, 'the pull request');
    writeFileSync(
      ws.event,
      JSON.stringify({
        action: 'created',
        issue: {
          number: 7,
          pull_request: { url: 'https://api.github.com/repos/octo/repo/pulls/7' },
        },
        comment: { id: 1, body: '/evals' },
        repository: REPOSITORY,
      }),
    );
    return { ws, checkedOut };
  }

  it('the check run goes on the checked-out commit, not on GITHUB_SHA, with a warning', async () => {
    const { ws, checkedOut } = chatOps();
    const r = await fixture.run(
      ws,
      { 'pr-number': '7' },
      { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_SHA: MAIN_TIP, GITHUB_REF: 'refs/heads/main' },
    );
    assert.equal(r.code, 1, r.stdout);
    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, checkedOut, 'the commit whose code ran, not the default branch');
    assert.match(
      r.stdout,
      new RegExp(
        `^::warning::evalgate: issue_comment: the evals ran the checked-out commit ${checkedOut}, not GITHUB_SHA ${MAIN_TIP}`,
        'm',
      ),
    );
  });

  it('with the default branch checked out (the default) and pr-number: it stays on GITHUB_SHA, with the warning that it ran the default branch', async () => {
    // The workflow named the pull request (`pr-number`), and the comment goes on it: a verdict
    // on the default branch's code is worth the same warning as without the input.
    const { ws, checkedOut } = chatOps();
    const r = await fixture.run(
      ws,
      { 'pr-number': '7' },
      { GITHUB_EVENT_NAME: 'issue_comment', GITHUB_SHA: checkedOut, GITHUB_REF: 'refs/heads/main' },
    );
    assert.equal(r.code, 1, r.stdout);
    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, checkedOut);
    const warnings = r.stdout.match(/^::warning::evalgate: issue_comment.*$/gm) ?? [];
    assert.equal(warnings.length, 1, r.stdout);
    assert.match(
      warnings[0] ?? '',
      /the evals ran GITHUB_SHA [0-9a-f]{40}, the default branch's latest commit, not the code of pull request #7, .*ref: refs\/pull\/7\/head/,
    );
    const comment = fixture.server.state.comments.get(7)?.at(-1)?.body ?? '';
    assert.match(comment, /> \[!WARNING\]\n> issue\\_comment: the evals ran GITHUB\\_SHA/);
  });
});
