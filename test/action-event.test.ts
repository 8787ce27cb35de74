/**
 * What the Action reads from each workflow event: the pull request to comment on, the commit the
 * check run belongs to, and the branch `baseline: auto` compares with.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventSubject } from '../src/action/event.ts';

const SHA = '1'.repeat(40);
const HEAD = '2'.repeat(40);
const GROUP = '3'.repeat(40);

describe('eventSubject', () => {
  it('a pull request (or pull_request_target): the PR, its head commit, its base branch', () => {
    const payload = {
      pull_request: { number: 12, head: { sha: HEAD }, base: { ref: 'release/2' } },
    };
    for (const eventName of ['pull_request', 'pull_request_target']) {
      assert.deepEqual(eventSubject({ eventName, sha: SHA, payload }, {}), {
        pullRequest: 12,
        headSha: HEAD,
        baseBranch: 'release/2',
        mergeQueue: false,
      });
    }
  });

  it("a merge group: no PR, the group's head commit, the target branch without refs/heads/", () => {
    const payload = {
      merge_group: { head_sha: GROUP, base_ref: 'refs/heads/release/2', head_ref: 'refs/heads/x' },
    };
    assert.deepEqual(eventSubject({ eventName: 'merge_group', sha: SHA, payload }, {}), {
      pullRequest: null,
      headSha: GROUP,
      baseBranch: 'release/2',
      mergeQueue: true,
    });
    // A payload missing its fields falls back to what the runner says.
    assert.deepEqual(
      eventSubject({ eventName: 'merge_group', sha: SHA, payload: { merge_group: {} } }, {}),
      { pullRequest: null, headSha: SHA, baseBranch: null, mergeQueue: true },
    );
  });

  it('other events: GITHUB_SHA, and GITHUB_BASE_REF when the runner sets one', () => {
    const push = { eventName: 'push', sha: SHA, payload: { ref: 'refs/heads/main' } };
    assert.deepEqual(eventSubject(push, {}), {
      pullRequest: null,
      headSha: SHA,
      baseBranch: null,
      mergeQueue: false,
    });
    assert.equal(eventSubject(push, { GITHUB_BASE_REF: '' }).baseBranch, null);
    assert.equal(eventSubject(push, { GITHUB_BASE_REF: 'main' }).baseBranch, 'main');
  });

  it('a comment on a pull request (issue_comment): that PR, and GITHUB_SHA; a plain issue has no PR', () => {
    const onPr = {
      issue: { number: 9, pull_request: { url: 'https://api.github.com/repos/o/r/pulls/9' } },
    };
    assert.deepEqual(eventSubject({ eventName: 'issue_comment', sha: SHA, payload: onPr }, {}), {
      pullRequest: 9,
      headSha: SHA,
      baseBranch: null,
      mergeQueue: false,
    });
    const plain = { issue: { number: 9 } };
    assert.equal(
      eventSubject({ eventName: 'issue_comment', sha: SHA, payload: plain }, {}).pullRequest,
      null,
    );
    // A `pull_request: null` is no pull request either.
    const nulled = { issue: { number: 9, pull_request: null } };
    assert.equal(
      eventSubject({ eventName: 'issue_comment', sha: SHA, payload: nulled }, {}).pullRequest,
      null,
    );
    // An `issues` event's issue is not commented on: the Action reads the PR from comments only.
    assert.equal(
      eventSubject({ eventName: 'issues', sha: SHA, payload: onPr }, {}).pullRequest,
      null,
    );
  });
});
