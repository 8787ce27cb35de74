/**
 * An `issue_comment` job (a `/evals` comment) that checks out another commit than the pull
 * request's head. `refs/pull/N/merge` is the test merge commit (`merge_commit_sha` in
 * `GET …/pulls/:n`); GitHub shows a pull request the check runs of its head commit (a check run
 * lists the open pull requests whose `head_sha` matches it), never those of the merge commit, so
 * the check run goes on the PR's head, and the summary, the comment and the check run say the
 * results are for the merge of that head into the base branch, at the base commit the merge was
 * made on. Any other commit gets the check run, with a warning; so does a checkout GitHub cannot
 * be asked about, with the reason. The built dist/index.js against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import {
  ONE_FAILING,
  REPOSITORY,
  suiteFiles,
  workspace,
  type Workspace,
} from './helpers/action-run.ts';
import { commitAll, git, mergeCheckout } from './helpers/git.ts';

const MAIN_TIP = 'f'.repeat(40);
const CHATOPS_ENV = {
  GITHUB_EVENT_NAME: 'issue_comment',
  GITHUB_SHA: MAIN_TIP,
  GITHUB_REF: 'refs/heads/main',
};

/** A `/evals` comment on pull request `number` as the event of `ws`. */
function commentOn(ws: Workspace, number: number): void {
  const url = `https://api.github.com/repos/octo/repo/pulls/${number}`;
  writeFileSync(
    ws.event,
    JSON.stringify({
      action: 'created',
      issue: { number, pull_request: { url } },
      comment: { id: 1, body: '/evals' },
      repository: REPOSITORY,
    }),
  );
}

describe('issue_comment with another commit than the pull request’s head checked out', () => {
  const fixture = useActionFixture();

  it("the test merge commit: the check run goes on the pull request's head; the reports say they are about its merge into the base branch", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    // What actions/checkout leaves for refs/pull/11/merge: the merge commit, detached.
    const { head, base, merge } = mergeCheckout(ws.dir);
    fixture.server.addPullRequest({
      number: 11,
      headSha: head,
      mergeCommitSha: merge,
      baseRef: 'main',
      baseSha: base,
    });
    commentOn(ws, 11);
    const r = await fixture.run(ws, {}, CHATOPS_ENV);
    assert.equal(r.code, 1, r.stdout);

    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, head, 'the head GitHub shows the checks of, not the merge');
    assert.doesNotMatch(r.stdout, /::warning::/);
    const said = `issue\\\\_comment: these results are for the test merge commit ${merge} of pull request \\\\#11, the merge of its head ${head} into main at ${base}, not for the head alone; the check run goes on the head`;
    const note = new RegExp(`> \\[!NOTE\\]\\n> ${said}`);
    assert.match(r.summary, note);
    assert.match(fixture.server.state.comments.get(11)?.[0]?.body ?? '', note);
    assert.match(posted?.output.summary ?? '', note);
    assert.match(r.stdout, new RegExp(`^evalgate: ${said.replaceAll('\\\\', '')}`, 'm'));
  });

  it('neither the head nor the merge commit: the check run goes on the checkout, with a warning naming the head', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    git(ws.dir, 'init', '-q', '-b', 'feature');
    const checkedOut = commitAll(ws.dir, 'some other commit');
    const head = 'd'.repeat(40);
    fixture.server.addPullRequest({ number: 12, headSha: head, mergeCommitSha: '9'.repeat(40) });
    commentOn(ws, 12);
    const r = await fixture.run(ws, {}, CHATOPS_ENV);
    assert.equal(r.code, 1, r.stdout);
    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, checkedOut);
    assert.match(
      r.stdout,
      new RegExp(
        `^::warning::evalgate: issue_comment: the evals ran the checked-out commit ${checkedOut}, neither the head of pull request #12 \\(${head}\\) nor its test merge commit: this verdict is about that code, so the check run goes on ${checkedOut}, not on ${head}`,
        'm',
      ),
    );
    assert.match(fixture.server.state.comments.get(12)?.[0]?.body ?? '', /> \[!WARNING\]/);
  });

  it('a pull request GitHub does not show (404): the check run goes on the checkout, with a warning that says why it could not tell', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    git(ws.dir, 'init', '-q', '-b', 'feature');
    const checkedOut = commitAll(ws.dir, 'the pull request');
    commentOn(ws, 13);
    const r = await fixture.run(ws, { 'pr-number': '13' }, CHATOPS_ENV);
    assert.equal(r.code, 1, r.stdout);
    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, checkedOut);
    assert.match(
      r.stdout,
      new RegExp(
        `^::warning::evalgate: issue_comment: the evals ran the checked-out commit ${checkedOut}, not GITHUB_SHA ${MAIN_TIP}: .*; whether it is the head of pull request #13 is not known: could not read pull request #13: 404 Not Found`,
        'm',
      ),
    );
  });
});
