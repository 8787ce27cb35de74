/**
 * Rate limits on GitHub's GraphQL API, which the Action uses to hide a stale report as outdated,
 * and on REST past the retries: GraphQL answers a spent primary limit with 200 and a
 * `RATE_LIMITED` (or `RATE_LIMIT`) error, not a 403 or 429, and a secondary one with 403 or 200
 * and a message saying so (the fake's shapes: `graphqlRateLimitReply`). Each is
 * waited out when the wait fits the retry budget; else the comment stays shown, the warning says
 * GitHub rate limited the call, and the report, the job summary and the step's outcome (the
 * verdict) are untouched. A rate-limited `GET /user` is no answer about who the token is: a
 * person's token is not taken for an app's, which would write a second comment beside its own. The Action from src/ against the fake GitHub on 127.0.0.1, every wait
 * twenty times shorter (the one-minute budget lasts 3 s).
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

const MARKER = '<!-- evalgate-report config="evals.yaml" job="evals" -->';
const GRAPHQL = /^\/graphql$/;
const STALE = /^::warning::evalgate: an earlier report on this pull request[^\n]*/m;

const fixture = useSourceAction({ env: { EVALGATE_GITHUB_RETRY_SCALE: '0.05' } });

/** An earlier report of the Actions bot's, which alice's token (a PAT) may not edit: stale. */
function staleReport(): { minimized?: string } {
  return fixture.server.addComment(7, {
    body: `${MARKER}\n<!-- evalgate-run 41.1 -->\n## evals: evals.yaml\npass (an old verdict)`,
    login: 'github-actions[bot]',
    type: 'Bot',
  });
}

beforeEach(() => {
  const { server } = fixture;
  server.requests.length = 0;
  server.state.comments.clear();
  server.state.checkRuns.clear();
  server.setUser('alice');
});

describe('GraphQL rate limits while hiding a stale report', () => {
  it('a spent primary limit (200, RATE_LIMITED) whose reset fits the budget: waited out, then hidden', async () => {
    const old = staleReport();
    fixture.server.rateLimitNext('POST', GRAPHQL, 'primary', 2, 1);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'check-run': 'false' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(
      r.stdout,
      /GitHub's rate limit on POST \/graphql \(used up until \d\d:\d\d:\d\d UTC\): retrying in \d+ s/,
    );
    assert.equal(old.minimized, 'OUTDATED', r.stdout);
    assert.match(r.stdout, STALE);
    assert.match(
      /^::warning::evalgate: an earlier report[^\n]*/m.exec(r.stdout)?.[0] ?? '',
      /hidden it as outdated/,
    );
  });

  it('a spent primary limit for the hour: not waited for; the stale report is named, with why, and the rest goes out', async () => {
    const old = staleReport();
    // Both queries (which comments are hidden already, then hiding one) are refused.
    fixture.server.rateLimitNext('POST', GRAPHQL, 'primary', 3600, 2);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'check-run': 'false' });
    assert.equal(r.code, 1, 'the verdict decides the step');
    assert.equal(old.minimized, undefined);
    const warning = STALE.exec(r.stdout)?.[0] ?? '';
    assert.match(
      warning,
      /could not hide it \(GitHub's GraphQL API answered RATE_LIMITED: API rate limit exceeded/,
      r.stdout,
    );
    assert.match(r.stdout, /POST \/graphql \(used up until [^)]*\): not waiting \d+ s/);
    assert.equal(fixture.server.state.comments.get(7)?.length, 2, 'the new report is posted');
    assert.match(r.summary, /evals: evals\.yaml/, 'the job summary holds the report');
    assert.match(r.summary, /The current PR comment is/, 'and names the current comment');
  });

  it('a spent primary limit of type RATE_LIMIT (code graphql_rate_limit): waited out, then hidden', async () => {
    const old = staleReport();
    fixture.server.graphqlRateLimitNext({ kind: 'primary', type: 'RATE_LIMIT', resetInSeconds: 2 });
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'check-run': 'false' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(
      r.stdout,
      /GitHub's rate limit on POST \/graphql \(used up until \d\d:\d\d:\d\d UTC\): retrying in \d+ s/,
    );
    assert.equal(old.minimized, 'OUTDATED', r.stdout);
  });

  it('a spent primary limit whose x-ratelimit-remaining is not 0: waited until its reset', async () => {
    const old = staleReport();
    fixture.server.graphqlRateLimitNext({
      kind: 'primary',
      type: 'RATE_LIMITED',
      resetInSeconds: 2,
      remaining: '1',
    });
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'check-run': 'false' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(
      r.stdout,
      /POST \/graphql \(used up until \d\d:\d\d:\d\d UTC\): retrying in [1-4] s/,
    );
    assert.equal(old.minimized, 'OUTDATED', r.stdout);
  });

  it('a secondary limit answered with 200 and the message as a GraphQL error: waited out, then hidden', async () => {
    const old = staleReport();
    fixture.server.graphqlRateLimitNext({ kind: 'secondary', status: 200, retryAfterSeconds: 1 });
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'check-run': 'false' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /GitHub's secondary rate limit on POST \/graphql: retrying in 1 s/);
    assert.equal(old.minimized, 'OUTDATED', r.stdout);
  });

  it("a 200 secondary limit that outlasts the retries: the stale report is named, with GitHub's words", async () => {
    const old = staleReport();
    fixture.server.graphqlRateLimitNext(
      { kind: 'secondary', status: 200, retryAfterSeconds: 1 },
      6,
    );
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'check-run': 'false' });
    assert.equal(r.code, 1, 'the verdict decides the step');
    assert.equal(old.minimized, undefined);
    assert.match(r.stdout, /POST \/graphql: not retrying \(retried 2 times already\)/);
    assert.match(
      STALE.exec(r.stdout)?.[0] ?? '',
      /could not hide it \(GitHub's GraphQL API answered You have exceeded a secondary rate limit/,
      r.stdout,
    );
  });

  it("a secondary limit without retry-after (GitHub's minute, the whole budget): not waited for, so the check run keeps its retries", async () => {
    // A GITHUB_TOKEN run (check runs need an app's token), and a report an earlier personal
    // access token wrote, which it may not edit: stale.
    fixture.server.setUser(null);
    const old = fixture.server.addComment(7, {
      body: `${MARKER}\n<!-- evalgate-run 41.1 -->\n## evals: evals.yaml\npass (an old verdict)`,
      login: 'alice',
    });
    fixture.server.graphqlRateLimitNext({ kind: 'secondary', status: 403 }, 2);
    fixture.server.failNext('POST', /\/check-runs$/, 502, 1);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(
      r.stdout,
      /GitHub's secondary rate limit on POST \/graphql: not waiting 60 s \([^)]*keeping 15 s for the writes to come\)/,
    );
    assert.equal(old.minimized, undefined, 'left shown, and named');
    assert.match(
      r.stdout,
      /GitHub answered 502 to POST \/repos\/octo\/repo\/check-runs: retry 1 of 3/,
    );
    assert.equal(fixture.server.state.checkRuns.size, 1, 'the required check is there');
  });

  it('a secondary limit (403, retry-after): waited out, then hidden', async () => {
    const old = staleReport();
    fixture.server.rateLimitNext('POST', GRAPHQL, 'secondary', 1, 2);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'check-run': 'false' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /GitHub's secondary rate limit on POST \/graphql: retrying in 1 s/);
    assert.equal(old.minimized, 'OUTDATED', r.stdout);
  });
});

describe('a REST rate limit that outlasts the retries', () => {
  it("GET /user with a person's token, limited for the hour: no second comment beside its own", async () => {
    const own = fixture.server.addComment(7, {
      body: `${MARKER}\n<!-- evalgate-run 41.1 -->\n## evals: evals.yaml\nan earlier push`,
      login: 'alice',
    });
    fixture.server.rateLimitNext('GET', /^\/user$/, 'primary', 3600, 1);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'check-run': 'false' });
    assert.equal(r.code, 1, 'the verdict decides the step');
    assert.deepEqual(
      fixture.server.state.comments.get(7),
      [own],
      'not taken for a bot: no duplicate',
    );
    const warning = /^::warning::evalgate: could not find out which user[^\n]*/m.exec(r.stdout);
    assert.ok(warning, r.stdout);
    assert.match(warning[0], /rate limited by GitHub until \d\d:\d\d:\d\d UTC/);
    assert.match(r.summary, /evals: evals\.yaml/, 'the job summary holds the report');
  });

  it('the comment: retried twice, then a warning that says rate limited; the summary and check run stay', async () => {
    fixture.server.setUser(null);
    fixture.server.rateLimitNext('POST', /\/issues\/7\/comments$/, 'secondary', 1, 3);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(r.code, 1, 'the verdict decides the step, not the reporting');
    assert.equal(fixture.server.state.comments.get(7)?.length ?? 0, 0);
    assert.match(r.stdout, /not retrying \(retried 2 times already\)/);
    const warning = /^::warning::evalgate: could not create the PR comment[^\n]*/m.exec(r.stdout);
    assert.ok(warning, r.stdout);
    assert.match(warning[0], /rate limited by GitHub \(retry-after: 1 s\)/);
    assert.doesNotMatch(warning[0], /fork|permissions/);
    assert.equal(fixture.server.state.checkRuns.size, 1);
    assert.match(r.summary, /evals: evals\.yaml/);
  });
});
