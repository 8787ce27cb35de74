/**
 * A check-run create GitHub stored but whose answer was lost is looked for among the commit's
 * check runs of that name before it is sent again. GitHub does not document that list's order,
 * and a commit that a scheduled workflow evaluates every few minutes while its branch stands
 * still carries hundreds of check runs of one name. The lookup read the first 5 pages (500) and,
 * not finding the create there, took it as not stored and sent it again: a second check run of
 * the same name whenever the list is oldest first. It now reads both ends of the list (following
 * GitHub's `Link` relations) and then the rest, and when the list is longer than it reads, it
 * does not send the create again.
 *
 * Against the fake GitHub on 127.0.0.1; the lost answer is a 502 given after the fake stored the
 * create (a fetch in front of the client's).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { publishCheckRun, type CheckRunReport } from '../src/github/check-run.ts';
import { newCheckRun } from './helpers/github-server-check-runs.ts';
import { testOctokit } from './helpers/github-client.ts';
import { startGitHubServer, type GitHubServer } from './helpers/github-server.ts';

const target = { owner: 'octo', repo: 'repo' };
const SHA = 'f'.repeat(40);
const NAME = 'evals: evals.yaml';

const report: CheckRunReport = {
  name: NAME,
  headSha: SHA,
  conclusion: 'success',
  title: 'pass',
  summary: 'all passed',
  annotations: [],
};

/** A fetch that lets the first create through to GitHub, then loses its answer (a 502). */
function losingFirstCreate(): typeof fetch {
  let lost = false;
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!lost && init?.method === 'POST' && url.pathname.endsWith('/check-runs')) {
      lost = true;
      await response.arrayBuffer();
      return new Response(JSON.stringify({ message: 'Server Error' }), {
        status: 502,
        headers: { 'content-type': 'application/json' },
      });
    }
    return response;
  };
}

/** `count` earlier check runs of {@link NAME} on {@link SHA}, as earlier workflow runs left them. */
function seedEarlierRuns(server: GitHubServer, count: number): void {
  for (let i = 0; i < count; i++) {
    const run = newCheckRun(1 + i, target.owner, target.repo, {
      name: NAME,
      head_sha: SHA,
      external_id: `evalgate-earlier-${i}`,
      conclusion: 'success',
    });
    server.state.checkRuns.set(run.id, run);
  }
}

for (const order of ['oldest-first', 'newest-first'] as const) {
  describe(`a lost check-run create on a commit with 600 check runs of that name (${order})`, () => {
    let server: GitHubServer;
    before(async () => {
      server = await startGitHubServer({ checkRunOrder: order });
    });
    after(() => server.close());
    beforeEach(() => {
      server.state.checkRuns.clear();
      server.requests.length = 0;
    });

    it('is found and taken as the answer: one new check run, not two', async () => {
      seedEarlierRuns(server, 600);
      const octokit = testOctokit(server.url, { fetch: losingFirstCreate() });
      const result = await publishCheckRun(octokit, target, report);
      assert.equal(result.ok, true, JSON.stringify(result));
      const ours = [...server.state.checkRuns.values()].filter(
        (run) => !(run.external_id ?? '').startsWith('evalgate-earlier-'),
      );
      assert.equal(ours.length, 1, 'the create was not sent again');
      assert.equal(result.ok && result.id, ours[0]?.id);
      const lookups = server.requests.filter(
        (r) => r.method === 'GET' && /check-runs$/.test(r.path),
      );
      assert.ok(lookups.length <= 2, `both ends of the list first: ${lookups.length} pages read`);
    });
  });
}

describe('a create whose answer was lost, on a commit with more check runs than are read', () => {
  let server: GitHubServer;
  before(async () => {
    server = await startGitHubServer();
  });
  after(() => server.close());

  it('is not sent again: whether GitHub stored it could not be checked, which is said', async () => {
    seedEarlierRuns(server, 2500);
    // Lost before GitHub stored it: the lookup cannot tell, since it does not read every page.
    server.failNext('POST', /\/check-runs$/, 502);
    const octokit = testOctokit(server.url);
    const result = await publishCheckRun(octokit, target, report);
    assert.equal(result.ok, false);
    assert.match(
      result.ok ? '' : result.failure.message,
      /whether GitHub stored it anyway could not be checked \(.*2,500 check runs named "evals: evals\.yaml".*\); not sending it again/,
    );
    assert.equal(server.state.checkRuns.size, 2500, 'nothing sent again');
    const lookups = server.requests.filter((r) => r.method === 'GET' && /check-runs$/.test(r.path));
    assert.equal(lookups.length, 10, 'the pages read are bounded');
  });
});
