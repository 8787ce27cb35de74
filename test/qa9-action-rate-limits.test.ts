/**
 * QA9 (L4): the Action waits out every rate limit GitHub answers with, told by its status and
 * headers rather than its wording: a 429 or 403 carrying `retry-after` in words other than
 * "secondary rate limit" is retried after that wait, and an exhausted primary limit is waited
 * out when its reset falls inside the retry budget, else not waited for and the warning says
 * until when. A limit that does not lift is retried twice, then warned about as a rate limit
 * (never as a permission), and the verdict decides the step. The built dist/index.js, end to
 * end against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ALL_PASS, ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

/** Every wait for GitHub twenty times shorter: the one-minute budget lasts 3 s. */
const SCALED = { EVALGATE_GITHUB_RETRY_SCALE: '0.05' };

const fixture = useActionFixture({ env: SCALED });
beforeEach(() => {
  const { server } = fixture;
  server.requests.length = 0;
  server.state.comments.clear();
  server.state.checkRuns.clear();
});

function posts(path: RegExp): number {
  return fixture.server.requests.filter((q) => q.method === 'POST' && path.test(q.path)).length;
}

const COMMENTS = /\/issues\/7\/comments$/;
const CHECK_RUNS = /\/check-runs$/;

describe('rate limits told by status and headers, not wording (L4)', () => {
  it('a 429 with retry-after whose message does not say "secondary rate": waited, then the comment is posted', async () => {
    fixture.server.failNext(
      'POST',
      COMMENTS,
      429,
      1,
      { message: 'API rate limit exceeded', documentation_url: 'https://docs.github.com/rest' },
      { 'retry-after': '1' },
    );
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(r.code, 1, 'the verdict decides the step');
    assert.equal(fixture.server.state.comments.get(7)?.length, 1, r.stdout);
    assert.equal(posts(COMMENTS), 2, 'the refused create, then the one that went through');
    assert.match(
      r.stdout,
      /GitHub's rate limit on POST \/repos\/octo\/repo\/issues\/7\/comments: retrying in 1 s/,
    );
    assert.doesNotMatch(r.stdout, /::warning::/);
  });

  it("a 403 with retry-after in GitHub's older words (abuse detection): waited, then the check run is created", async () => {
    fixture.server.failNext(
      'POST',
      CHECK_RUNS,
      403,
      1,
      {
        message:
          'You have triggered an abuse detection mechanism. Please wait a few minutes before you try again.',
        documentation_url: 'https://docs.github.com/rest',
      },
      { 'retry-after': '2' },
    );
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(r.code, 1);
    assert.equal(fixture.server.state.checkRuns.size, 1, r.stdout);
    assert.equal(posts(CHECK_RUNS), 2);
    assert.match(r.stdout, /rate limit on POST \/repos\/octo\/repo\/check-runs: retrying in 2 s/);
    assert.doesNotMatch(r.stdout, /::warning::/);
  });

  it('an exhausted primary limit: waited out when the reset falls inside the budget, else not waited and the warning says until when', async () => {
    const primary = (inSeconds: number, status: number): Record<string, string> => {
      const reset = Math.ceil(Date.now() / 1000) + inSeconds;
      fixture.server.failNext(
        'POST',
        CHECK_RUNS,
        status,
        1,
        { message: 'API rate limit exceeded for installation.', documentation_url: 'x' },
        {
          'x-ratelimit-limit': '1000',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(reset),
        },
      );
      return { reset: new Date(reset * 1000).toISOString().slice(11, 19) };
    };

    // A reset a few seconds away fits the budget (60 s): waited out, then created.
    primary(5, 429);
    const soon = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(fixture.server.state.checkRuns.size, 1, soon.stdout);
    assert.match(
      soon.stdout,
      /GitHub's rate limit on POST \/repos\/octo\/repo\/check-runs \(used up until \d\d:\d\d:\d\d UTC\): retrying in \d+ s/,
    );
    assert.doesNotMatch(soon.stdout, /::warning::/);

    // A reset an hour away does not: one try, and the warning says until when, not "permissions".
    fixture.server.state.checkRuns.clear();
    fixture.server.requests.length = 0;
    const { reset } = primary(3600, 403);
    const later = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(later.code, 1, 'the verdict decides the step');
    assert.equal(posts(CHECK_RUNS), 1, 'not waited for');
    assert.equal(fixture.server.state.checkRuns.size, 0);
    assert.match(
      later.stdout,
      /\(used up until \d\d:\d\d:\d\d UTC\): not waiting \d+ s \(the retries would wait past the 60 s budget/,
    );
    const warning =
      /::warning::evalgate: could not create the check run[^\n]*/.exec(later.stdout)?.[0] ?? '';
    assert.match(
      warning,
      new RegExp(`rate limited by GitHub until ${reset} UTC \\(x-ratelimit-reset\\)`),
      later.stdout,
    );
    assert.doesNotMatch(warning, /fork|permissions/);
    assert.ok(later.stdout.match(/^::error [^\n]*file=/gm), 'the row is annotated from the log');
  });
  it('a secondary limit that does not lift: two retries each, then a warning that says so, and the verdict stands', async () => {
    const secondary = {
      message: 'You have exceeded a secondary rate limit.',
      documentation_url: 'x',
    };
    // The comment: a 403 with retry-after and x-ratelimit-remaining: 0; the check run: a 429.
    fixture.server.failNext('POST', COMMENTS, 403, 10, secondary, {
      'retry-after': '1',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000)),
    });
    fixture.server.failNext('POST', CHECK_RUNS, 429, 10, secondary, { 'retry-after': '1' });
    const r = await fixture.run(workspace(suiteFiles(ALL_PASS)));
    assert.equal(r.code, 0, `the pass stands, whatever GitHub answered:\n${r.stdout}`);
    assert.equal(r.outputs['verdict'], 'pass');
    assert.equal(posts(COMMENTS), 3, 'the first try and two retries');
    assert.equal(posts(CHECK_RUNS), 3, 'the first try and two retries');
    assert.match(r.stdout, /check-runs: not retrying \(retried 2 times already\)/);
    assert.match(
      r.stdout,
      /^::warning::evalgate: could not create the PR comment: 403 [^\n]*\(rate limited by GitHub until \d\d:\d\d:\d\d UTC/m,
    );
    assert.match(
      r.stdout,
      /^::warning::evalgate: could not create the check run "evals: evals\.yaml": 429 [^\n]*\(rate limited by GitHub \(retry-after: 1 s\)/m,
    );
    assert.doesNotMatch(r.stdout, /checks: write|fork/, 'a rate limit is not a permission');
    assert.match(r.summary, /2 writes of this report to GitHub failed/, 'the summary says so');
  });
});
