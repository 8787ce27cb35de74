/**
 * `baseline: auto` on an `issue_comment` job (a `/evals` comment on a pull request): the event
 * names no base branch, so the Action takes it from the pulls API (`base.ref`), with the one read
 * of the pull request that also tells where the check run goes, and searches that branch's
 * artifacts as on `pull_request`. When the pull request cannot be read (no token, 403, 404), it
 * warns why and runs without a comparison. The built dist/index.js against the fake GitHub on
 * 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { addResultsArtifact, cliResults, useActionFixture } from './helpers/action-fixture.ts';
import {
  ONE_FAILING,
  REPOSITORY,
  suiteFiles,
  workspace,
  type Workspace,
} from './helpers/action-run.ts';
import { commitAll, git } from './helpers/git.ts';

const CHATOPS_ENV = {
  GITHUB_EVENT_NAME: 'issue_comment',
  GITHUB_SHA: 'f'.repeat(40),
  GITHUB_REF: 'refs/heads/main',
};

/** A checkout of one commit with a `/evals` comment on pull request `number`; its sha. */
function commentedOn(ws: Workspace, number: number): string {
  git(ws.dir, 'init', '-q', '-b', 'feature');
  const head = commitAll(ws.dir, 'the pull request');
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
  return head;
}

describe('issue_comment with baseline: auto', () => {
  const fixture = useActionFixture();
  const reads = (number: number): number =>
    fixture.server.requests.filter(
      (q) => q.method === 'GET' && q.path === `/repos/octo/repo/pulls/${number}`,
    ).length;
  const comparison = (ws: Workspace): unknown =>
    (
      JSON.parse(readFileSync(join(ws.dir, 'evals-results.json'), 'utf8')) as {
        comparison?: unknown;
      }
    ).comparison;

  it("compares with the newest results of the pull request's base branch, reading the pull request once", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    addResultsArtifact(fixture.server, 'release', await cliResults(ws, 'base.json', 1));
    // Newer, but from another branch: not the base.
    addResultsArtifact(fixture.server, 'main', '{}');
    const head = commentedOn(ws, 41);
    fixture.server.addPullRequest({ number: 41, headSha: head, baseRef: 'release' });
    const r = await fixture.run(ws, { baseline: 'auto' }, CHATOPS_ENV);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /^evalgate: comparing with evals-results from release \(/m);
    assert.doesNotMatch(r.stdout, /::warning::/);
    assert.notEqual(comparison(ws), undefined, 'the comparison is in the artifact');
    const body = fixture.server.state.comments.get(41)?.[0]?.body ?? '';
    assert.match(body, /too few cases to test a change against the baseline/);
    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, head);
    assert.equal(reads(41), 1, 'one read serves the baseline and the check run');
  });

  it('says so when the base branch has no results yet, as on pull_request', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    const head = commentedOn(ws, 42);
    fixture.server.addPullRequest({ number: 42, headSha: head, baseRef: 'develop' });
    const r = await fixture.run(ws, { baseline: 'auto' }, CHATOPS_ENV);
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stdout,
      /^evalgate: no results artifact named evals-results from develop yet.*; running without a comparison/m,
    );
    assert.equal(comparison(ws), undefined);
    assert.equal(reads(42), 1);
  });

  it('a pull request GitHub does not show (404) or refuses (403): a warning with the reason, and no comparison', async () => {
    for (const [number, status, said] of [
      [43, 404, '404 Not Found'],
      [44, 403, '403'],
    ] as const) {
      const ws = workspace(suiteFiles(ONE_FAILING));
      const head = commentedOn(ws, number);
      if (status === 403) {
        fixture.server.addPullRequest({ number, headSha: head });
        fixture.server.failNext('GET', new RegExp(`/pulls/${number}$`), 403);
      }
      const r = await fixture.run(ws, { baseline: 'auto' }, CHATOPS_ENV);
      assert.equal(r.code, 1, r.stdout);
      assert.match(
        r.stdout,
        new RegExp(
          `^::warning::evalgate: baseline: auto: the base branch of pull request #${number} is not known: could not read pull request #${number}: ${said}.*; running without a comparison`,
          'm',
        ),
      );
      assert.equal(comparison(ws), undefined);
      assert.equal(fixture.server.state.comments.get(number)?.length, 1, 'the run went on');
      assert.equal(reads(number), 1);
    }
  });

  it('no github-token: a warning that says so, and no comparison', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    commentedOn(ws, 45);
    const r = await fixture.run(ws, { baseline: 'auto', 'github-token': '' }, CHATOPS_ENV);
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stdout,
      /^::warning::evalgate: baseline: auto needs a github-token; running without a comparison/m,
    );
    assert.equal(comparison(ws), undefined);
    assert.equal(reads(45), 0);
  });
});
