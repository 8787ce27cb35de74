/**
 * The sticky comment when an earlier report on the pull request was written by another identity
 * (the workflow switched between GITHUB_TOKEN, a GitHub App token and a personal access token):
 * the token cannot edit it (GitHub answers 403), so a new comment carries the report and the old
 * one is hidden as outdated, or, when GitHub refuses that too, named to the caller.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { upsertStickyComment } from '../src/github/comment.ts';
import { MARKER, target, useGitHubFixture } from './helpers/github-fixture.ts';

const github = useGitHubFixture();

function comments() {
  return github.server.state.comments.get(target.issueNumber) ?? [];
}

describe('upsertStickyComment with another identity’s earlier report', () => {
  it('GITHUB_TOKEN → App token: posts its own comment and hides the Actions bot’s as outdated', async () => {
    const old = github.server.addComment(7, {
      body: `${MARKER}\nfail: old verdict`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    github.server.setAppToken('evalgate-ci');
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\npass`);
    assert.equal(result.ok && result.action, 'created');
    assert.deepEqual(result.ok && result.stale, [
      { url: old.html_url, author: 'github-actions[bot]', hidden: true },
    ]);
    assert.equal(old.minimized, 'OUTDATED');
    assert.equal(old.body, `${MARKER}\nfail: old verdict`);
    assert.equal(comments()[1]?.user.login, 'evalgate-ci[bot]');
    // The next run updates its own comment and keeps the old one hidden.
    const again = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nagain`);
    assert.equal(again.ok && again.action, 'updated');
    assert.equal(comments().length, 2);
  });

  it('names the stale comment as still shown when GitHub refuses to hide it', async () => {
    const old = github.server.addComment(7, { body: MARKER, login: 'other-app[bot]', type: 'Bot' });
    // Both GraphQL requests refused: whether it is hidden already, and hiding it.
    github.server.failNext('POST', /^\/graphql$/, 403, 2, {
      message: 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/graphql',
      status: '403',
    });
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.equal(result.ok && result.action, 'created');
    const [stale, ...more] = (result.ok && result.stale) || [];
    assert.deepEqual(more, []);
    assert.deepEqual(
      { ...stale, why: undefined },
      {
        url: old.html_url,
        author: 'other-app[bot]',
        hidden: false,
        why: undefined,
      },
    );
    assert.match(stale?.why ?? '', /^403 Resource not accessible by integration/, 'and why');
    assert.equal(old.minimized, undefined);
  });

  it('PAT → GITHUB_TOKEN: hides the person’s earlier report (it has the run line) but never a person’s plain comment', async () => {
    const report = github.server.addComment(7, {
      body: `${MARKER}\n<!-- evalgate-run 40.1 -->\nfail`,
      login: 'alice',
    });
    const chat = github.server.addComment(7, { body: `${MARKER}\nI quoted this`, login: 'bob' });
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\npass`, {
      id: 41,
      attempt: 1,
    });
    assert.equal(result.ok && result.action, 'created');
    assert.deepEqual(result.ok && result.stale?.map((s) => s.url), [report.html_url]);
    assert.equal(report.minimized, 'OUTDATED');
    assert.equal(chat.minimized, undefined);
  });

  it('PAT run finishing after a later GITHUB_TOKEN run: keeps the later report shown and writes nothing over it', async () => {
    github.server.setUser('alice');
    const later = github.server.addComment(7, {
      body: `${MARKER}\n<!-- evalgate-run 42.1 -->\npass: the later push`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nfail`, {
      id: 41,
      attempt: 1,
    });
    assert.equal(result.ok && result.action, 'kept-newer');
    assert.equal(result.ok && result.url, later.html_url);
    assert.equal(result.ok && result.stale, undefined);
    assert.equal(later.minimized, undefined);
    assert.equal(comments().length, 1);
  });

  it('GITHUB_TOKEN run finishing after a later PAT run: hides only the older report, never the later one', async () => {
    const older = github.server.addComment(7, {
      body: `${MARKER}\n<!-- evalgate-run 40.1 -->\nfail: older`,
      login: 'alice',
    });
    const later = github.server.addComment(7, {
      body: `${MARKER}\n<!-- evalgate-run 42.1 -->\npass: later`,
      login: 'alice',
    });
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nfail`, {
      id: 41,
      attempt: 1,
    });
    assert.equal(result.ok && result.action, 'kept-newer');
    assert.equal(result.ok && result.url, later.html_url);
    assert.deepEqual(result.ok && result.stale?.map((s) => s.url), [older.html_url]);
    assert.equal(later.minimized, undefined);
    assert.equal(older.minimized, 'OUTDATED');
    assert.equal(comments().length, 2);
  });

  it('says nothing of stale comments when there are none', async () => {
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result, { ok: true, url: comments()[0]?.html_url, action: 'created' });
  });
});
