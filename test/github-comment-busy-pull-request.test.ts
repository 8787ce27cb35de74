/**
 * The sticky comment on a pull request with thousands of comments (a long-lived PR, bots
 * commenting on every push): GitHub lists them 100 a page at most, oldest first, so the report
 * of an early run sits on the first page and a duplicate a racing run left on the last. Every
 * page is read, the report is updated in place and the duplicate removed; nothing is created.
 * `src/github/comment.ts` against the fake GitHub.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { upsertStickyComment } from '../src/github/comment.ts';
import { MARKER, target, useGitHubFixture } from './helpers/github-fixture.ts';

const github = useGitHubFixture();

describe('a pull request with 2,500 comments', () => {
  it('finds the report on the first page and its duplicate on the last: one comment left, updated', async () => {
    const { server } = github;
    const first = server.addComment(7, {
      body: `${MARKER}\nthe first report`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    for (let i = 0; i < 2_498; i++) {
      server.addComment(7, { body: `comment ${i}`, login: `user${i % 40}` });
    }
    const duplicate = server.addComment(7, {
      body: `${MARKER}\na duplicate of a racing run`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    const result = await upsertStickyComment(
      github.octokit,
      target,
      MARKER,
      `${MARKER}\nthe new report`,
    );
    assert.equal(result.ok && result.action, 'updated');
    const comments = server.state.comments.get(7) ?? [];
    assert.equal(comments.length, 2_499, 'the duplicate is removed, nothing created');
    const marked = comments.filter((c) => c.body.startsWith(MARKER));
    assert.equal(marked.length, 1);
    // The newest by id is kept: the duplicate's id is the larger.
    assert.equal(marked[0]?.id, duplicate.id);
    assert.match(marked[0]?.body ?? '', /the new report/);
    assert.ok(!comments.some((c) => c.id === first.id));
    assert.equal(github.calls('GET', /\/issues\/7\/comments$/).length, 25, 'every page, once');
    assert.equal(github.calls('POST', /\/issues\/7\/comments$/).length, 0);
  });
});
