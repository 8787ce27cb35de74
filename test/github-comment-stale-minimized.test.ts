/**
 * A stale sticky comment (another identity's earlier report, which this token may not edit) is
 * hidden as outdated once. GitHub says which comments are hidden already (GraphQL `isMinimized`
 * on IssueComment), so a later run neither hides one again nor names it (the Action would warn
 * about it on every push); one a person hid for another reason stays as they left it. Against
 * the fake GitHub on 127.0.0.1, which answers `nodes(ids:)` as GitHub does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { upsertStickyComment } from '../src/github/comment.ts';
import { MARKER, target, useGitHubFixture } from './helpers/github-fixture.ts';

const github = useGitHubFixture();

/** The minimizeComment mutations the fake GitHub received. */
function minimizeCalls(): number {
  return github
    .calls('POST', /^\/graphql$/)
    .filter((r) => /minimizeComment/.test((r.body as { query?: string }).query ?? '')).length;
}

/** The ids each `nodes(ids:)` query the fake GitHub received asked about, in order. */
function nodesQueries(): unknown[][] {
  return github
    .calls('POST', /^\/graphql$/)
    .map((r) => r.body as { query?: string; variables?: { ids?: unknown } })
    .filter((body) => /nodes\(ids:/.test(body.query ?? ''))
    .map((body) => (Array.isArray(body.variables?.ids) ? (body.variables.ids as unknown[]) : []));
}

function oldReport(login = 'github-actions[bot]') {
  return github.server.addComment(7, {
    body: `${MARKER}\nfail: old verdict`,
    login,
    type: 'Bot',
  });
}

describe('stale comments hidden already', () => {
  // A personal access token (alice) after GITHUB_TOKEN: the Actions bot's report is another
  // identity's on every run, not only on the first.
  it('the next run neither hides the stale comment again nor names it', async () => {
    const old = oldReport();
    github.server.setUser('alice');
    const first = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\npass`);
    assert.deepEqual(first.ok && first.stale, [
      { url: old.html_url, author: 'github-actions[bot]', hidden: true },
    ]);
    assert.equal(minimizeCalls(), 1);
    const again = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nagain`);
    assert.equal(again.ok && again.action, 'updated');
    assert.equal(again.ok && again.stale, undefined);
    assert.equal(minimizeCalls(), 1, 'no second minimizeComment');
    assert.equal(old.minimized, 'OUTDATED');
  });

  it('leaves a comment a person hid for another reason as it is, unnamed', async () => {
    const old = oldReport();
    old.minimized = 'RESOLVED';
    const fresh = oldReport('other-app[bot]');
    github.server.setAppToken('evalgate-ci');
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result.ok && result.stale, [
      { url: fresh.html_url, author: 'other-app[bot]', hidden: true },
    ]);
    assert.equal(old.minimized, 'RESOLVED');
    assert.equal(minimizeCalls(), 1);
  });

  it('hides and names each when GitHub does not say which are hidden (the query refused)', async () => {
    const old = oldReport();
    old.minimized = 'OUTDATED';
    github.server.setAppToken('evalgate-ci');
    github.server.failNext('POST', /^\/graphql$/, 403, 1, {
      message: 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/graphql',
      status: '403',
    });
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result.ok && result.stale, [
      { url: old.html_url, author: 'github-actions[bot]', hidden: true },
    ]);
    assert.equal(minimizeCalls(), 1);
  });

  // GitHub's `nodes` takes at most 100 ids a query, and the REST list pages at 100: a pull
  // request with more stale reports than that is asked about in chunks, each read in full.
  it('asks about more than 100 stale comments in chunks, so hidden ones past the 100th stay unnamed', async () => {
    const old = Array.from({ length: 105 }, () => oldReport());
    for (const comment of old) comment.minimized = 'OUTDATED';
    github.server.setUser('alice');
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.equal(result.ok && result.action, 'created');
    assert.equal(result.ok && result.stale, undefined);
    assert.equal(minimizeCalls(), 0, 'no comment hidden again');
    // The list came in two pages (Link rel="next"; it is read again after the create), and no
    // query asked about over 100 ids.
    const listed = github.calls('GET', /\/issues\/7\/comments$/);
    assert.deepEqual(
      listed.slice(0, 2).map((r) => r.query['page'] ?? '1'),
      ['1', '2'],
    );
    const asked = nodesQueries().map((ids) => ids.length);
    assert.deepEqual(asked, [100, 5]);
  });

  it('names and hides the shown stale comments past the 100th, leaving the hidden ones be', async () => {
    const old = Array.from({ length: 103 }, () => oldReport());
    for (const comment of old.slice(0, 101)) comment.minimized = 'OUTDATED';
    github.server.setUser('alice');
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(
      result.ok && result.stale,
      old.slice(101).map((c) => ({ url: c.html_url, author: 'github-actions[bot]', hidden: true })),
    );
    assert.equal(minimizeCalls(), 2);
    assert.ok(old.every((c) => c.minimized === 'OUTDATED'));
  });

  it('asks at most 10 queries, taking stale comments past the 1,000th as shown', async () => {
    const old = Array.from({ length: 1002 }, () => oldReport());
    for (const comment of old) comment.minimized = 'OUTDATED';
    github.server.setUser('alice');
    const result = await upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(
      result.ok && result.stale,
      old
        .slice(1000)
        .map((c) => ({ url: c.html_url, author: 'github-actions[bot]', hidden: true })),
    );
    assert.deepEqual(
      nodesQueries().map((ids) => ids.length),
      Array.from({ length: 10 }, () => 100),
    );
  });

  it('the fake GitHub refuses over 100 ids in one nodes query, as GitHub does', async () => {
    const query =
      'query($ids: [ID!]!) { nodes(ids: $ids) { ... on IssueComment { id isMinimized } } }';
    const ids = Array.from({ length: 101 }, () => `IC_kw${oldReport().id}`);
    const refused = await github.octokit.graphql(query, { ids }).then(
      () => assert.fail('expected a GraphQL error'),
      (error: { data?: unknown; errors?: { type?: string; message?: string }[] }) => error,
    );
    assert.equal(refused.data, null);
    assert.equal(refused.errors?.[0]?.type, 'ARGUMENT_LIMIT');
    assert.equal(
      refused.errors?.[0]?.message,
      'You may not provide more than 100 node ids; you provided 101.',
    );
  });

  it('the fake GitHub answers isMinimized and minimizedReason as GitHub does', async () => {
    const hidden = oldReport();
    const shown = oldReport();
    hidden.minimized = 'OUTDATED';
    const query =
      'query($ids: [ID!]!) { nodes(ids: $ids) { ... on IssueComment { id isMinimized minimizedReason } } }';
    const answer = await github.octokit.graphql<{ nodes: unknown[] }>(query, {
      ids: [`IC_kw${hidden.id}`, `IC_kw${shown.id}`],
    });
    assert.deepEqual(answer.nodes, [
      { id: `IC_kw${hidden.id}`, isMinimized: true, minimizedReason: 'outdated' },
      { id: `IC_kw${shown.id}`, isMinimized: false, minimizedReason: null },
    ]);
    // An id naming no comment: null beside the others, and an error (octokit throws with the data).
    const missing = await github.octokit.graphql(query, { ids: ['IC_kw999999'] }).then(
      () => assert.fail('expected a GraphQL error'),
      (error: { data?: unknown; errors?: { type?: string }[] }) => error,
    );
    assert.deepEqual(missing.data, { nodes: [null] });
    assert.equal(missing.errors?.[0]?.type, 'NOT_FOUND');
  });
});
