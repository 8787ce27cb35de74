/**
 * Where an `issue_comment` (ChatOps) job's check run goes, given what the pulls API says of the
 * pull request: its head and its test merge commit go on the head (the merge with a note naming
 * its base), the default branch's commit stays where it is, any other commit gets a warning. And
 * the merge's parents read from a shallow clone, as `actions/checkout` makes one.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chatOpsCommit, gitParents, reportedCommit } from '../src/action/chatops.ts';
import type { PullRequestCommits } from '../src/github/pull-request.ts';
import { commitAll, git, newRepo } from './helpers/git.ts';
import { tempFolder } from './helpers/temp.ts';

const MAIN_TIP = 'f'.repeat(40);
const HEAD = 'd'.repeat(40);
const MERGE = '9'.repeat(40);
const BASE = 'c'.repeat(40);
const chatOps = { eventName: 'issue_comment', sha: MAIN_TIP, payload: {} };
const pr: PullRequestCommits = {
  number: 7,
  headSha: HEAD,
  mergeCommitSha: MERGE,
  baseRef: 'main',
  baseSha: BASE,
};

describe('chatOpsCommit', () => {
  it("the pull request's head: the check run goes on it, with no warning and no note", () => {
    for (const checkedOut of [HEAD, HEAD.toUpperCase()]) {
      assert.deepEqual(chatOpsCommit(chatOps, pr, checkedOut, null), {
        sha: HEAD,
        warning: null,
        note: null,
      });
    }
  });

  it('the test merge commit: the head, with a note naming the base the merge was made on', () => {
    const fromGit = chatOpsCommit(chatOps, pr, MERGE, ['b'.repeat(40), HEAD]);
    assert.equal(fromGit.sha, HEAD);
    assert.equal(fromGit.warning, null);
    assert.match(
      fromGit.note ?? '',
      /^issue_comment: these results are for the test merge commit 9{40} of pull request #7, the merge of its head d{40} into main at b{40}, not for the head alone; the check run goes on the head/,
    );
    // Without the parents (no git), the pulls API's base.
    assert.match(chatOpsCommit(chatOps, pr, MERGE, null).note ?? '', /into main at c{40}, not/);
    assert.match(
      chatOpsCommit(chatOps, { ...pr, baseSha: '' }, MERGE, null).note ?? '',
      /into main, not/,
    );
  });

  it("the default branch's commit stays on GITHUB_SHA (chatOpsDefaultBranch warns of it)", () => {
    assert.deepEqual(chatOpsCommit(chatOps, pr, MAIN_TIP, null), {
      sha: MAIN_TIP,
      warning: null,
      note: null,
    });
  });

  it('another commit, or a pull request without a merge commit: that commit, with a warning', () => {
    const other = 'e'.repeat(40);
    for (const pull of [pr, { ...pr, mergeCommitSha: null }]) {
      const commit = chatOpsCommit(chatOps, pull, other, null);
      assert.equal(commit.sha, other);
      assert.match(
        commit.warning ?? '',
        /^issue_comment: the evals ran the checked-out commit e{40}, neither the head of pull request #7 \(d{40}\) nor its test merge commit: this verdict is about that code, so the check run goes on e{40}, not on d{40}/,
      );
    }
  });
});

describe('reportedCommit on pull_request_target', () => {
  const target = {
    eventName: 'pull_request_target',
    sha: BASE,
    payload: {
      pull_request: {
        number: 7,
        head: { sha: HEAD },
        base: { sha: BASE, ref: 'main' },
        merge_commit_sha: MERGE,
      },
    },
  };
  const input = {
    context: target,
    subjectSha: HEAD,
    headShaInput: false,
    checkedOut: MERGE,
    pullRequest: null,
    parentsOf: () => Promise.resolve(null),
  };

  it("the payload's merge commit: the head, with the merge's note, from the payload alone", async () => {
    const commit = await reportedCommit(input);
    assert.equal(commit.sha, HEAD);
    assert.equal(commit.warning, null);
    assert.match(
      commit.note ?? '',
      /^pull_request_target: these results are for the test merge commit 9{40} of pull request #7, the merge of its head d{40} into main at c{40}, not for the head alone; the check run goes on the head, where GitHub shows the pull request's checks \(docs\/action\.md#which-commit-the-check-run-goes-on\)$/,
    );
  });

  it('no note for the head, with a head-sha input, or on pull_request (which runs the merge by design)', async () => {
    assert.equal((await reportedCommit({ ...input, checkedOut: HEAD })).note, null);
    assert.equal((await reportedCommit({ ...input, headShaInput: true })).note, null);
    const pullRequest = { ...target, eventName: 'pull_request' };
    assert.deepEqual(await reportedCommit({ ...input, context: pullRequest }), {
      sha: HEAD,
      warning: null,
      note: null,
    });
  });
});

describe('gitParents', () => {
  it("reads a merge's parents from a shallow clone; null for a commit that is not there", async () => {
    const origin = newRepo();
    writeFileSync(join(origin, 'a.txt'), 'a\n');
    commitAll(origin, 'base');
    git(origin, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(origin, 'b.txt'), 'b\n');
    const head = commitAll(origin, 'head');
    git(origin, 'checkout', '-q', 'main');
    writeFileSync(join(origin, 'c.txt'), 'c\n');
    const base = commitAll(origin, 'main moves on');
    git(origin, 'merge', '-q', '--no-ff', '-m', 'merge', 'feature');
    const clone = join(tempFolder('evalgate-shallow-'), 'clone');
    git(origin, 'clone', '-q', '--depth', '1', `file://${origin}`, clone);
    const merge = git(clone, 'rev-parse', 'HEAD');
    assert.deepEqual(await gitParents(clone)(merge), [base, head]);
    assert.equal(await gitParents(clone)('0'.repeat(40)), null);
  });
});
