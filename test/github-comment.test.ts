/** The sticky PR comment (`src/github/comment.ts`) against the fake GitHub. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { upsertStickyComment } from '../src/github/comment.ts';
import { freePort } from './helpers/free-port.ts';
import type { StoredComment } from './helpers/github-server.ts';
import { testOctokit } from './helpers/github-client.ts';
import { MARKER, target, useGitHubFixture } from './helpers/github-fixture.ts';

/** Each test starts from an empty server acting for a GITHUB_TOKEN. */
const github = useGitHubFixture();

function comments(issue = target.issueNumber) {
  return github.server.state.comments.get(issue) ?? [];
}

/** Seeds a comment on #7 by a bot, the Actions bot (github-actions[bot]) unless `login` says. */
function botComment(body: string, login = 'github-actions[bot]'): StoredComment {
  return github.server.addComment(7, { body, login, type: 'Bot' });
}

describe('upsertStickyComment', () => {
  it('creates the comment once, then updates that same comment', async () => {
    const first = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nfirst`);
    assert.equal(first.ok && first.action, 'created');
    const second = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nsecond`);
    assert.equal(second.ok && second.action, 'updated');

    assert.equal(comments().length, 1);
    const [only] = comments();
    assert.equal(only?.body, `${MARKER}\nsecond`);
    assert.equal(only?.user.login, 'github-actions[bot]');
    assert.ok(first.ok && second.ok && first.url === second.url && first.url === only?.html_url);
    assert.equal(github.calls('POST', /\/comments$/).length, 1);
    assert.equal(github.calls('PATCH', /\/issues\/comments\/\d+$/).length, 1);
    assert.ok(
      github.server.requests.every(
        (request) => request.headers.authorization === 'token test-token',
      ),
    );
  });

  it("takes a bot's marker comment for its own when GET /user is refused (GITHUB_TOKEN)", async () => {
    const ours = botComment(`${MARKER}\nold`);
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result, { ok: true, url: ours.html_url, action: 'updated' });
    assert.equal(github.calls('GET', /^\/user$/).length, 1);
  });

  it("takes a bot's marker comment for its own when GET /user answers 404", async () => {
    github.server.setUser('alice');
    github.server.failNext('GET', /^\/user$/, 404);
    const ours = botComment(MARKER);
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result, { ok: true, url: ours.html_url, action: 'updated' });
  });

  it('matches the token user from GET /user (a PAT) and ignores the Actions bot then', async () => {
    github.server.setUser('alice');
    const bots = botComment(MARKER);
    const alices = github.server.addComment(7, { body: `${MARKER}\nold`, login: 'alice' });
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    // The bot's is an earlier token's report: left as it is, and hidden as outdated.
    assert.deepEqual(result, {
      ok: true,
      url: alices.html_url,
      action: 'updated',
      stale: [{ url: bots.html_url, author: 'github-actions[bot]', hidden: true }],
    });
    assert.equal(bots.body, MARKER);
  });

  it("never edits a human's comment, nor one whose first line is not the marker", async () => {
    const quote = github.server.addComment(7, {
      body: `> ${MARKER}\n> why is this failing?`,
      login: 'bob',
    });
    const human = github.server.addComment(7, { body: `${MARKER}\ncopied`, login: 'bob' });
    // Another job's comment that shows a model output holding this job's marker.
    const quoted = `${MARKER.replace('eval', 'other')}\n\`\`\`\n${MARKER}\n\`\`\``;
    const otherJob = botComment(quoted);
    const spaced = botComment(` ${MARKER}`, 'renovate[bot]');
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nreport`);
    assert.equal(result.ok && result.action, 'created');
    assert.equal(comments().length, 5);
    for (const untouched of [quote, human, otherJob, spaced]) {
      assert.equal(untouched.updated_at, untouched.created_at);
    }
    assert.equal(otherJob.body, quoted);
  });

  it('finds its comment again when GitHub stored the first line with a CRLF', async () => {
    const ours = botComment(`${MARKER}\r\nedited in the browser`);
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result, { ok: true, url: ours.html_url, action: 'updated' });
  });

  it("with a GitHub App token (403 on GET /user), updates the app bot's own comment", async () => {
    github.server.setAppToken('evalgate-ci');
    const first = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nfirst`);
    const second = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nsecond`);
    assert.equal(first.ok && first.action, 'created');
    assert.equal(second.ok && second.action, 'updated');
    assert.deepEqual(
      comments().map((comment) => [comment.user.login, comment.body]),
      [['evalgate-ci[bot]', `${MARKER}\nsecond`]],
    );
    assert.equal(github.calls('GET', /^\/user$/).length, 2);
  });

  it("with a user's token (a PAT), leaves a bot's marker comment alone", async () => {
    github.server.setUser('alice');
    const bots = botComment(MARKER, 'evalgate-ci[bot]');
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nmine`);
    assert.equal(result.ok && result.action, 'created');
    assert.equal(bots.body, MARKER);
    assert.equal(comments()[1]?.user.login, 'alice');
  });

  it('updates the newest of several own marker comments and deletes the older one', async () => {
    const older = botComment(`${MARKER}\nolder`);
    botComment('unrelated');
    const newest = botComment(`${MARKER}\nnewer`);
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result, { ok: true, url: newest.html_url, action: 'updated' });
    assert.deepEqual(
      comments().map((comment) => comment.body),
      ['unrelated', `${MARKER}\nnew`],
    );
    assert.equal(github.calls('DELETE', new RegExp(`/issues/comments/${older.id}$`)).length, 1);
  });

  it('pages through more than 100 comments and finds the marker on page 3', async () => {
    for (let i = 0; i < 250; i++) {
      if (i === 230) botComment(`${MARKER}\nold`);
      else
        github.server.addComment(7, {
          body: `comment ${i}`,
          login: i % 2 === 0 ? 'bob' : 'github-actions[bot]',
          type: i % 2 === 0 ? 'User' : 'Bot',
        });
    }
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.equal(result.ok && result.action, 'updated');
    const pages = github
      .calls('GET', /\/issues\/7\/comments$/)
      .map((request) => request.query['page'] ?? '1');
    assert.deepEqual(pages, ['1', '2', '3']);
    assert.ok(
      github
        .calls('GET', /\/issues\/7\/comments$/)
        .every((request) => request.query['per_page'] === '100'),
    );
    assert.equal(comments()[230]?.body, `${MARKER}\nnew`);
    assert.equal(comments().length, 250);
  });

  it('prepends the marker when the body lacks it, so the next run finds the comment', async () => {
    await upsertStickyComment(github.octokit, target, MARKER, 'no marker here');
    assert.equal(comments()[0]?.body, `${MARKER}\nno marker here`);
    const again = await upsertStickyComment(github.octokit, target, MARKER, 'still none');
    assert.equal(again.ok && again.action, 'updated');
  });

  it('creates a new comment when the one found was deleted before the update (404)', async () => {
    botComment(MARKER);
    github.server.failNext('PATCH', /\/issues\/comments\/\d+$/, 404);
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.equal(result.ok && result.action, 'created');
  });

  it('reports a 403 on create as github.forbidden naming forks and both permissions GitHub accepts', async () => {
    github.server.failNext('POST', /\/issues\/7\/comments$/, 403);
    const result = await upsertStickyComment(github.octokit, target, MARKER, MARKER);
    assert.equal(result.ok, false);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.forbidden');
    assert.equal(result.failure.status, 403);
    assert.equal(
      result.failure.message,
      'could not create the PR comment: 403 Resource not accessible by integration ' +
        '(a pull request from a fork gets a read-only token, otherwise the workflow needs ' +
        '`permissions: pull-requests: write` (or `issues: write`: either one is enough); ' +
        'see docs/action.md#tokens-and-permissions)',
    );
    assert.equal(comments().length, 0);
  });

  it('names pull-requests: write (or issues: write) when listing the comments is refused, since the comment is written next', async () => {
    // With only `pull-requests: read` added, the next run would be refused the write: one fix.
    github.server.failNext('GET', /\/issues\/7\/comments$/, 403);
    const result = await upsertStickyComment(github.octokit, target, MARKER, MARKER);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.forbidden');
    assert.equal(
      result.failure.message,
      'could not list the comments of PR #7: 403 Resource not accessible by integration ' +
        '(the token lacks `permissions: pull-requests: write` (or `issues: write`: either one is enough); ' +
        'see docs/action.md#tokens-and-permissions)',
    );
    assert.equal(comments().length, 0);
  });

  it("reports a 403 on updating the token user's own comment without creating a second", async () => {
    github.server.setUser('alice');
    github.server.addComment(7, { body: MARKER, login: 'alice' });
    github.server.failNext('PATCH', /\/issues\/comments\/\d+$/, 403);
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.equal(!result.ok && result.failure.code, 'github.forbidden');
    assert.match(
      !result.ok ? result.failure.message : '',
      // A personal access token's own permission: the workflow's `permissions:` do not apply.
      /^could not update the PR comment: 403 .*personal access token of alice, which lacks `Pull requests: Read and write` \(or `Issues: Read and write`\) if fine-grained/,
    );
    assert.equal(github.calls('POST', /\/comments$/).length, 0);
  });

  it("writes its own comment when editing a bot's marker comment is refused (another app's)", async () => {
    // The fake refuses, as GitHub does, an installation token's edit of another app's comment.
    const other = botComment(MARKER, 'other-app[bot]');
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.equal(result.ok && result.action, 'created');
    assert.equal(other.body, MARKER);
    // The next run finds the newest: ours.
    const again = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nagain`);
    assert.equal(again.ok && again.action, 'updated');
    assert.deepEqual(
      comments().map((comment) => comment.body),
      [MARKER, `${MARKER}\nagain`],
    );
  });

  it("updates its own comment when another app's newer one carries the same marker", async () => {
    const ours = botComment(`${MARKER}\nold`);
    const other = botComment(MARKER, 'other-app[bot]');
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result, {
      ok: true,
      url: ours.html_url,
      action: 'updated',
      stale: [{ url: other.html_url, author: 'other-app[bot]', hidden: true }],
    });
    assert.equal(ours.body, `${MARKER}\nnew`);
    assert.equal(other.body, MARKER);
    assert.equal(comments().length, 2);
  });

  it('maps a 404 while listing to github.not-found', async () => {
    github.server.failNext('GET', /\/issues\/7\/comments$/, 404);
    const result = await upsertStickyComment(github.octokit, target, MARKER, MARKER);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.not-found');
    assert.equal(result.failure.status, 404);
    assert.match(result.failure.message, /^could not list the comments of PR #7: 404 Not Found \(/);
  });

  it('retries a 502 twice, then writes one comment', async () => {
    const log: string[] = [];
    const retrying = testOctokit(github.server.url, { log });
    github.server.failNext('POST', /\/issues\/7\/comments$/, 502, 2);
    const result = await upsertStickyComment(retrying, target, MARKER, MARKER);
    assert.equal(result.ok && result.action, 'created');
    assert.equal(github.calls('POST', /\/issues\/7\/comments$/).length, 3);
    assert.equal(comments().length, 1);
    assert.deepEqual(
      log.map((line) => line.replace(/http:\/\/127\.0\.0\.1:\d+/, '')),
      [
        'GitHub answered 502 to POST /repos/acme/app/issues/7/comments: retry 1 of 3 in 1 s',
        'GitHub answered 502 to POST /repos/acme/app/issues/7/comments: retry 2 of 3 in 4 s',
      ],
    );
  });

  it('surfaces a 500 that outlasts three retries as github.unavailable', async () => {
    github.server.failNext('POST', /\/issues\/7\/comments$/, 500, 4);
    const result = await upsertStickyComment(github.octokit, target, MARKER, MARKER);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.unavailable');
    assert.equal(result.failure.status, 500);
    assert.equal(github.calls('POST', /\/issues\/7\/comments$/).length, 4);
    assert.equal(comments().length, 0);
  });

  it('stops when GET /user fails for another reason than 403/404 (bad credentials)', async () => {
    github.server.failNext('GET', /^\/user$/, 401);
    const result = await upsertStickyComment(github.octokit, target, MARKER, MARKER);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.forbidden');
    assert.match(
      result.failure.message,
      /GET \/user\): 401 Bad credentials \(the token was rejected/,
    );
    assert.equal(github.server.requests.length, 1);
  });

  it('maps no answer at all (nothing listening) to github.unavailable without a status', async () => {
    const unused = await freePort();
    const offline = testOctokit(`http://127.0.0.1:${unused}`);
    const result = await upsertStickyComment(offline, target, MARKER, MARKER);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.unavailable');
    assert.equal(result.failure.status, undefined);
    assert.match(result.failure.message, /no answer from the GitHub API/);
  });

  it('refuses an empty marker, which would match every comment it wrote', async () => {
    await assert.rejects(
      upsertStickyComment(github.octokit, target, ' ', 'body'),
      /marker must be one non-empty line/,
    );
    await assert.rejects(
      upsertStickyComment(github.octokit, target, `${MARKER}\nsecond line`, 'body'),
      /marker must be one non-empty line/,
    );
  });
});
