/**
 * The check run (`src/github/check-run.ts`), the client's retries and throttling
 * (`src/github/octokit.ts`) and failure mapping (`src/github/errors.ts`), against the fake GitHub.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANNOTATIONS_PER_REQUEST, publishCheckRun } from '../src/github/check-run.ts';
import type { CheckRunReport } from '../src/github/check-run.ts';
import { upsertStickyComment } from '../src/github/comment.ts';
import { toReportingFailure } from '../src/github/errors.ts';
import { testOctokit } from './helpers/github-client.ts';
import { annotations, MARKER, target, useGitHubFixture } from './helpers/github-fixture.ts';

/** Each test starts from an empty server acting for a GITHUB_TOKEN. */
const github = useGitHubFixture();

function report(count: number, overrides: Partial<CheckRunReport> = {}): CheckRunReport {
  return {
    name: 'evalgate',
    headSha: 'a'.repeat(40),
    conclusion: 'failure',
    title: '3 of 120 failed',
    summary: '## evalgate\n\nfailed',
    text: 'details',
    annotations: annotations(count),
    ...overrides,
  };
}

describe('publishCheckRun', () => {
  it('sends 120 annotations as 1 POST and 2 PATCHes of at most 50', async () => {
    const result = await publishCheckRun(
      github.octokit,
      target,
      report(120, { detailsUrl: 'https://ci.example/1' }),
    );
    assert.ok(result.ok);
    assert.equal(result.annotations, 120);

    const posts = github.calls('POST', /\/repos\/acme\/app\/check-runs$/);
    const patches = github.calls('PATCH', new RegExp(`/repos/acme/app/check-runs/${result.id}$`));
    assert.equal(posts.length, 1);
    assert.equal(patches.length, 2);
    for (const request of [...posts, ...patches]) {
      const output = (
        request.body as { output: { title: string; summary: string; annotations: unknown[] } }
      ).output;
      assert.ok(output.annotations.length <= ANNOTATIONS_PER_REQUEST);
      assert.equal(output.title, '3 of 120 failed');
      assert.equal(output.summary, '## evalgate\n\nfailed');
    }

    const run = github.server.state.checkRuns.get(result.id);
    assert.ok(run);
    assert.equal(result.url, run.html_url);
    assert.deepEqual(
      run.batches.map((batch) => batch.length),
      [50, 50, 20],
    );
    assert.deepEqual(run.annotations, annotations(120));
    assert.equal(run.status, 'completed');
    assert.equal(run.conclusion, 'failure');
    assert.equal(run.head_sha, 'a'.repeat(40));
    assert.equal(run.details_url, 'https://ci.example/1');
    assert.deepEqual(run.output, {
      title: '3 of 120 failed',
      summary: '## evalgate\n\nfailed',
      text: 'details',
    });
  });

  it('makes one request when everything fits, and sends no annotations key when there are none', async () => {
    const fifty = await publishCheckRun(github.octokit, target, report(50));
    assert.ok(fifty.ok);
    assert.equal(github.server.requests.length, 1);
    github.server.requests.length = 0;

    const none = await publishCheckRun(
      github.octokit,
      target,
      report(0, { conclusion: 'success', text: undefined }),
    );
    assert.ok(none.ok);
    assert.equal(none.annotations, 0);
    assert.equal(github.server.requests.length, 1);
    assert.deepEqual((github.server.requests[0]?.body as { output: unknown }).output, {
      title: '3 of 120 failed',
      summary: '## evalgate\n\nfailed',
    });
  });

  it('reports a 422 on the first PATCH with the 50 annotations already published', async () => {
    github.server.failNext('PATCH', /\/check-runs\/\d+$/, 422, 1, {
      message: 'Validation Failed',
      documentation_url: 'x',
    });
    const result = await publishCheckRun(github.octokit, target, report(60));
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.invalid');
    assert.equal(result.failure.status, 422);
    assert.equal(
      result.failure.message,
      'could not add annotations 51-60 of 60 to the check run "evalgate": 422 Validation Failed',
    );
    assert.ok(result.partial);
    assert.equal(result.partial.annotations, 50);
    assert.equal(github.server.state.checkRuns.get(result.partial.id)?.annotations.length, 50);
  });

  it('reports a 422 on the second PATCH with partial counts of 100', async () => {
    let patches = 0;
    const counting = testOctokit(github.server.url);
    counting.hook.before('request', (options) => {
      if (options.method === 'PATCH' && ++patches === 2) {
        github.server.failNext('PATCH', /\/check-runs\/\d+$/, 422);
      }
    });
    const result = await publishCheckRun(counting, target, report(120));
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.invalid');
    assert.ok(result.partial);
    assert.equal(result.partial.annotations, 100);
    assert.equal(github.server.state.checkRuns.get(result.partial.id)?.annotations.length, 100);
    assert.match(result.failure.message, /annotations 101-120 of 120/);
  });

  it('reports a refused create as github.forbidden naming checks: write, with no partial', async () => {
    github.server.failNext('POST', /\/check-runs$/, 403);
    const result = await publishCheckRun(github.octokit, target, report(3));
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.forbidden');
    assert.equal(result.partial, undefined);
    assert.match(
      result.failure.message,
      /^could not create the check run "evalgate": 403 .*`permissions: checks: write`/,
    );
  });

  it('retries a 503 on create once it has seen the create made no check run, and makes one', async () => {
    github.server.failNext('POST', /\/check-runs$/, 503);
    const result = await publishCheckRun(github.octokit, target, report(3));
    assert.ok(result.ok);
    assert.deepEqual(
      github.server.requests.map((r) => `${r.method} ${r.path}`),
      [
        'POST /repos/acme/app/check-runs',
        `GET /repos/acme/app/commits/${'a'.repeat(40)}/check-runs`,
        'POST /repos/acme/app/check-runs',
      ],
    );
    assert.equal(github.server.state.checkRuns.size, 1);
  });

  it('says a personal access token cannot create check runs when the create gets 403', async () => {
    github.server.failNext('POST', /\/check-runs$/, 403, 1, {
      message: 'You must authenticate via a GitHub App.',
    });
    const result = await publishCheckRun(github.octokit, target, report(3));
    assert.ok(!result.ok);
    assert.match(result.failure.message, /403 You must authenticate via a GitHub App\./);
    assert.match(result.failure.message, /a personal access token gets 403/);
  });
});

describe('toReportingFailure', () => {
  function httpError(status: number, data: unknown, headers: Record<string, string> = {}): Error {
    return Object.assign(new Error('HttpError'), { status, response: { data, headers } });
  }

  it('treats an exhausted rate limit as github.unavailable, not a permission problem', () => {
    const primary = toReportingFailure(
      httpError(403, { message: 'API rate limit exceeded' }, { 'x-ratelimit-remaining': '0' }),
      'create the PR comment',
    );
    assert.equal(primary.code, 'github.unavailable');
    assert.match(primary.message, /rate limited/);
    assert.equal(toReportingFailure(httpError(429, {}), 'x').code, 'github.unavailable');
    assert.equal(
      toReportingFailure(httpError(403, {}, { 'retry-after': '60' }), 'x').code,
      'github.unavailable',
    );
  });

  it("lists GitHub's validation errors and keeps the message on one line", () => {
    const failure = toReportingFailure(
      httpError(422, {
        message: 'Validation Failed',
        errors: [
          { resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long' },
          { field: 'x', code: 'missing' },
          'plain',
        ],
      }),
      'create the PR comment',
    );
    assert.equal(
      failure.message,
      'could not create the PR comment: 422 Validation Failed: body is too long; x missing; plain',
    );
    const multiline = toReportingFailure(
      httpError(422, { message: 'Invalid request.\n\nOnly 65535 characters are allowed' }),
      'x',
    );
    assert.equal(
      multiline.message,
      'could not x: 422 Invalid request. Only 65535 characters are allowed',
    );
  });

  it('drops an HTML error page and maps other statuses and non-HTTP errors to github.failed', () => {
    assert.equal(
      toReportingFailure(httpError(502, '<html>bad gateway</html>'), 'x').message,
      'could not x: 502 (GitHub had a problem; the next run tries again)',
    );
    assert.deepEqual(toReportingFailure(httpError(409, { message: 'Conflict' }), 'x'), {
      code: 'github.failed',
      status: 409,
      message: 'could not x: 409 Conflict',
    });
    assert.deepEqual(toReportingFailure(new TypeError('boom'), 'x'), {
      code: 'github.failed',
      message: 'could not x: boom',
    });
    assert.deepEqual(toReportingFailure('weird', 'x'), {
      code: 'github.failed',
      message: 'could not x: weird',
    });
  });

  it('names a read permission without blaming forks when a read is refused', () => {
    const failure = toReportingFailure(
      httpError(403, { message: 'Forbidden' }),
      'list the PR comments',
      'pull-requests: read',
    );
    assert.match(
      failure.message,
      /\(the token lacks `permissions: pull-requests: read`; see docs\/action\.md/,
    );
  });
});

describe('createOctokit: retries and rate limits within one budget', () => {
  it('gives up on a 502 once the next wait would pass the budget, and says so', async () => {
    const log: string[] = [];
    const tight = testOctokit(github.server.url, { budgetSeconds: 10, log });
    github.server.failNext('POST', /\/issues\/7\/comments$/, 502, 3);
    const result = await upsertStickyComment(tight, target, MARKER, MARKER);
    assert.equal(!result.ok && result.failure.code, 'github.unavailable');
    // Retries after 1 s and 4 s fit the 10 s budget; one after 9 s more would not.
    assert.equal(github.calls('POST', /\/issues\/7\/comments$/).length, 3);
    assert.equal(
      log.at(-1),
      'GitHub answered 502 to POST /repos/acme/app/issues/7/comments: not retrying (the retries would wait past the 10 s budget; 5 s already waited)',
    );
  });

  it('a 4xx answering the retry of a 502 is not retried in turn', async () => {
    const log: string[] = [];
    const client = testOctokit(github.server.url, { log });
    // GET a pull request: a 502, then a 404 (no such pull request) that no retry can change.
    github.server.failNext('GET', /\/pulls\/41$/, 502, 1);
    github.server.failNext('GET', /\/pulls\/41$/, 404, 5);
    await assert.rejects(
      client.rest.pulls.get({ owner: 'acme', repo: 'app', pull_number: 41 }),
      (error: { status?: number }) => error.status === 404,
    );
    assert.equal(github.calls('GET', /\/pulls\/41$/).length, 2, log.join('\n'));
  });

  it('waits out a secondary rate limit for its retry-after, at most twice a request', async () => {
    const log: string[] = [];
    const client = testOctokit(github.server.url, { log });
    github.server.rateLimitNext('POST', /\/issues\/7\/comments$/, 'secondary', 3, 2);
    const ok = await upsertStickyComment(client, target, MARKER, MARKER);
    assert.equal(ok.ok && ok.action, 'created');
    assert.equal(github.calls('POST', /\/issues\/7\/comments$/).length, 3);
    assert.match(
      log[0] ?? '',
      /secondary rate limit on POST \/repos\/acme\/app\/issues\/7\/comments: retrying in 3 s$/,
    );

    github.server.requests.length = 0;
    github.server.rateLimitNext('POST', /\/check-runs$/, 'secondary', 1, 3);
    const refused = await publishCheckRun(client, target, report(1));
    assert.equal(!refused.ok && refused.failure.code, 'github.unavailable');
    assert.equal(github.calls('POST', /\/check-runs$/).length, 3);
  });

  it('waits for the reset of an exhausted primary rate limit', async () => {
    github.server.rateLimitNext('GET', /\/issues\/7\/comments$/, 'primary', 1);
    const result = await upsertStickyComment(github.octokit, target, MARKER, MARKER);
    assert.equal(result.ok && result.action, 'created');
    // The listing refused once, then retried after the reset; then the one after creating,
    // which looks for a duplicate a racing run may have made.
    assert.equal(github.calls('GET', /\/issues\/7\/comments$/).length, 3);
  });

  it("does not carry one request's retries over to the next (a 403 after a retried 503)", async () => {
    github.server.failNext('POST', /\/check-runs$/, 503);
    assert.ok((await publishCheckRun(github.octokit, target, report(1))).ok);
    github.server.requests.length = 0;
    github.server.failNext('POST', /\/check-runs$/, 403);
    const refused = await publishCheckRun(github.octokit, target, report(1));
    assert.equal(!refused.ok && refused.failure.code, 'github.forbidden');
    assert.equal(github.calls('POST', /\/check-runs$/).length, 1);
  });
});
