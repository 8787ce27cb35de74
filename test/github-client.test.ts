import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { getOctokit } from '@actions/github';
import { ANNOTATIONS_PER_REQUEST, publishCheckRun } from '../src/github/check-run.ts';
import type { CheckRunReport } from '../src/github/check-run.ts';
import type { Annotation } from '../src/report/annotations.ts';
import { upsertStickyComment } from '../src/github/comment.ts';
import { httpStatus, toReportingFailure } from '../src/github/errors.ts';
import type { Octokit } from '../src/github/octokit.ts';
import { startGitHubServer } from './helpers/github-server.ts';
import type { GitHubServer } from './helpers/github-server.ts';
import { freePort } from './helpers/free-port.ts';

const target = { owner: 'acme', repo: 'app', issueNumber: 7 };
const MARKER = '<!-- evalgate:evals.yaml:eval -->';

let server: GitHubServer;
let octokit: Octokit;

before(async () => {
  server = await startGitHubServer();
  octokit = getOctokit('test-token', { baseUrl: server.url });
});

after(async () => {
  await server.close();
});

/** Each test starts from an empty server acting for a GITHUB_TOKEN. */
beforeEach(() => {
  server.requests.length = 0;
  server.state.comments.clear();
  server.state.checkRuns.clear();
  server.setUser(null);
});

function comments(issue = target.issueNumber) {
  return server.state.comments.get(issue) ?? [];
}

function calls(method: string, pattern: RegExp) {
  return server.requests.filter(
    (request) => request.method === method && pattern.test(request.path),
  );
}

describe('upsertStickyComment', () => {
  it('creates the comment once, then updates that same comment', async () => {
    const first = await upsertStickyComment(octokit, target, MARKER, `${MARKER}\nfirst`);
    assert.equal(first.ok && first.action, 'created');
    const second = await upsertStickyComment(octokit, target, MARKER, `${MARKER}\nsecond`);
    assert.equal(second.ok && second.action, 'updated');

    assert.equal(comments().length, 1);
    const [only] = comments();
    assert.equal(only?.body, `${MARKER}\nsecond`);
    assert.equal(only?.user.login, 'github-actions[bot]');
    assert.ok(first.ok && second.ok && first.url === second.url && first.url === only?.html_url);
    assert.equal(calls('POST', /\/comments$/).length, 1);
    assert.equal(calls('PATCH', /\/issues\/comments\/\d+$/).length, 1);
    assert.ok(
      server.requests.every((request) => request.headers.authorization === 'token test-token'),
    );
  });

  it('uses github-actions[bot] as the author when GET /user is refused (GITHUB_TOKEN)', async () => {
    const ours = server.addComment(7, {
      body: `${MARKER}\nold`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    const result = await upsertStickyComment(octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result, { ok: true, url: ours.html_url, action: 'updated' });
    assert.equal(calls('GET', /^\/user$/).length, 1);
  });

  it('uses github-actions[bot] when GET /user answers 404', async () => {
    server.setUser('alice');
    server.failNext('GET', /^\/user$/, 404);
    const ours = server.addComment(7, { body: MARKER, login: 'github-actions[bot]', type: 'Bot' });
    const result = await upsertStickyComment(octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result, { ok: true, url: ours.html_url, action: 'updated' });
  });

  it('matches the token user from GET /user (a PAT) and ignores the Actions bot then', async () => {
    server.setUser('alice');
    const bots = server.addComment(7, { body: MARKER, login: 'github-actions[bot]', type: 'Bot' });
    const alices = server.addComment(7, { body: `${MARKER}\nold`, login: 'alice' });
    const result = await upsertStickyComment(octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result, { ok: true, url: alices.html_url, action: 'updated' });
    assert.equal(bots.body, MARKER);
  });

  it('never edits a comment by someone else, even one that contains the marker', async () => {
    const quote = server.addComment(7, {
      body: `> ${MARKER}\n> why is this failing?`,
      login: 'bob',
    });
    const otherBot = server.addComment(7, { body: MARKER, login: 'renovate[bot]', type: 'Bot' });
    const result = await upsertStickyComment(octokit, target, MARKER, `${MARKER}\nreport`);
    assert.equal(result.ok && result.action, 'created');
    assert.equal(comments().length, 3);
    assert.equal(quote.body, `> ${MARKER}\n> why is this failing?`);
    assert.equal(otherBot.body, MARKER);
    assert.equal(quote.updated_at, quote.created_at);
  });

  it('updates the newest of several own marker comments', async () => {
    server.addComment(7, { body: `${MARKER}\nolder`, login: 'github-actions[bot]', type: 'Bot' });
    server.addComment(7, { body: 'unrelated', login: 'github-actions[bot]', type: 'Bot' });
    const newest = server.addComment(7, {
      body: `${MARKER}\nnewer`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    const result = await upsertStickyComment(octokit, target, MARKER, `${MARKER}\nnew`);
    assert.deepEqual(result, { ok: true, url: newest.html_url, action: 'updated' });
    assert.deepEqual(
      comments().map((comment) => comment.body),
      [`${MARKER}\nolder`, 'unrelated', `${MARKER}\nnew`],
    );
  });

  it('pages through more than 100 comments and finds the marker on page 3', async () => {
    for (let i = 0; i < 250; i++) {
      if (i === 230)
        server.addComment(7, { body: `${MARKER}\nold`, login: 'github-actions[bot]', type: 'Bot' });
      else
        server.addComment(7, {
          body: `comment ${i}`,
          login: i % 2 === 0 ? 'bob' : 'github-actions[bot]',
          type: i % 2 === 0 ? 'User' : 'Bot',
        });
    }
    const result = await upsertStickyComment(octokit, target, MARKER, `${MARKER}\nnew`);
    assert.equal(result.ok && result.action, 'updated');
    const pages = calls('GET', /\/issues\/7\/comments$/).map(
      (request) => request.query['page'] ?? '1',
    );
    assert.deepEqual(pages, ['1', '2', '3']);
    assert.ok(
      calls('GET', /\/issues\/7\/comments$/).every(
        (request) => request.query['per_page'] === '100',
      ),
    );
    assert.equal(comments()[230]?.body, `${MARKER}\nnew`);
    assert.equal(comments().length, 250);
  });

  it('prepends the marker when the body lacks it, so the next run finds the comment', async () => {
    await upsertStickyComment(octokit, target, MARKER, 'no marker here');
    assert.equal(comments()[0]?.body, `${MARKER}\nno marker here`);
    const again = await upsertStickyComment(octokit, target, MARKER, 'still none');
    assert.equal(again.ok && again.action, 'updated');
  });

  it('creates a new comment when the one found was deleted before the update (404)', async () => {
    server.addComment(7, { body: MARKER, login: 'github-actions[bot]', type: 'Bot' });
    server.failNext('PATCH', /\/issues\/comments\/\d+$/, 404);
    const result = await upsertStickyComment(octokit, target, MARKER, `${MARKER}\nnew`);
    assert.equal(result.ok && result.action, 'created');
  });

  it('reports a 403 on create as github.forbidden naming forks and the permission', async () => {
    server.failNext('POST', /\/issues\/7\/comments$/, 403);
    const result = await upsertStickyComment(octokit, target, MARKER, MARKER);
    assert.equal(result.ok, false);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.forbidden');
    assert.equal(result.failure.status, 403);
    assert.equal(
      result.failure.message,
      'could not create the PR comment: 403 Resource not accessible by integration ' +
        '(a pull request from a fork gets a read-only token, otherwise the workflow needs ' +
        "`permissions: pull-requests: write`; see README 'Use it in GitHub Actions')",
    );
    assert.equal(comments().length, 0);
  });

  it('reports a 403 on update without creating a second comment', async () => {
    server.addComment(7, { body: MARKER, login: 'github-actions[bot]', type: 'Bot' });
    server.failNext('PATCH', /\/issues\/comments\/\d+$/, 403);
    const result = await upsertStickyComment(octokit, target, MARKER, `${MARKER}\nnew`);
    assert.equal(!result.ok && result.failure.code, 'github.forbidden');
    assert.equal(calls('POST', /\/comments$/).length, 0);
  });

  it('maps a 404 while listing to github.not-found', async () => {
    server.failNext('GET', /\/issues\/7\/comments$/, 404);
    const result = await upsertStickyComment(octokit, target, MARKER, MARKER);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.not-found');
    assert.equal(result.failure.status, 404);
    assert.match(result.failure.message, /^could not list the PR comments: 404 Not Found \(/);
  });

  it('surfaces a single 500 as github.unavailable: @actions/github does not retry', async () => {
    server.failNext('POST', /\/issues\/7\/comments$/, 500);
    const result = await upsertStickyComment(octokit, target, MARKER, MARKER);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.unavailable');
    assert.equal(result.failure.status, 500);
    assert.equal(calls('POST', /\/issues\/7\/comments$/).length, 1);
    assert.equal(comments().length, 0);
  });

  it('stops when GET /user fails for another reason than 403/404 (bad credentials)', async () => {
    server.failNext('GET', /^\/user$/, 401);
    const result = await upsertStickyComment(octokit, target, MARKER, MARKER);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.forbidden');
    assert.match(
      result.failure.message,
      /GET \/user\): 401 Bad credentials \(the token was rejected/,
    );
    assert.equal(server.requests.length, 1);
  });

  it('maps no answer at all (nothing listening) to github.unavailable without a status', async () => {
    const unused = await freePort();
    const offline = getOctokit('test-token', { baseUrl: `http://127.0.0.1:${unused}` });
    const result = await upsertStickyComment(offline, target, MARKER, MARKER);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.unavailable');
    assert.equal(result.failure.status, undefined);
    assert.match(result.failure.message, /no answer from the GitHub API/);
  });

  it('refuses an empty marker, which would match every comment it wrote', async () => {
    await assert.rejects(
      upsertStickyComment(octokit, target, ' ', 'body'),
      /marker must not be empty/,
    );
  });
});

function annotations(count: number): Annotation[] {
  return Array.from({ length: count }, (_, i) => ({
    path: 'testsets/qa.csv',
    start_line: i + 2,
    end_line: i + 2,
    annotation_level: 'failure' as const,
    title: `row q-${i}`,
    message: `expected "Paris", got "Lyon" (${i})`,
  }));
}

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
      octokit,
      target,
      report(120, { detailsUrl: 'https://ci.example/1' }),
    );
    assert.ok(result.ok);
    assert.equal(result.annotations, 120);

    const posts = calls('POST', /\/repos\/acme\/app\/check-runs$/);
    const patches = calls('PATCH', new RegExp(`/repos/acme/app/check-runs/${result.id}$`));
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

    const run = server.state.checkRuns.get(result.id);
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
    const fifty = await publishCheckRun(octokit, target, report(50));
    assert.ok(fifty.ok);
    assert.equal(server.requests.length, 1);
    server.requests.length = 0;

    const none = await publishCheckRun(
      octokit,
      target,
      report(0, { conclusion: 'success', text: undefined }),
    );
    assert.ok(none.ok);
    assert.equal(none.annotations, 0);
    assert.equal(server.requests.length, 1);
    assert.deepEqual((server.requests[0]?.body as { output: unknown }).output, {
      title: '3 of 120 failed',
      summary: '## evalgate\n\nfailed',
    });
  });

  it('reports a 422 on the first PATCH with the 50 annotations already published', async () => {
    server.failNext('PATCH', /\/check-runs\/\d+$/, 422, 1, {
      message: 'Validation Failed',
      documentation_url: 'x',
    });
    const result = await publishCheckRun(octokit, target, report(60));
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.invalid');
    assert.equal(result.failure.status, 422);
    assert.equal(
      result.failure.message,
      'could not add annotations 51-60 of 60 to the check run "evalgate": 422 Validation Failed',
    );
    assert.ok(result.partial);
    assert.equal(result.partial.annotations, 50);
    assert.equal(server.state.checkRuns.get(result.partial.id)?.annotations.length, 50);
  });

  it('reports a 422 on the second PATCH with partial counts of 100', async () => {
    let patches = 0;
    const counting = getOctokit('test-token', { baseUrl: server.url });
    counting.hook.before('request', (options) => {
      if (options.method === 'PATCH' && ++patches === 2) {
        server.failNext('PATCH', /\/check-runs\/\d+$/, 422);
      }
    });
    const result = await publishCheckRun(counting, target, report(120));
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.invalid');
    assert.ok(result.partial);
    assert.equal(result.partial.annotations, 100);
    assert.equal(server.state.checkRuns.get(result.partial.id)?.annotations.length, 100);
    assert.match(result.failure.message, /annotations 101-120 of 120/);
  });

  it('reports a refused create as github.forbidden naming checks: write, with no partial', async () => {
    server.failNext('POST', /\/check-runs$/, 403);
    const result = await publishCheckRun(octokit, target, report(3));
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.forbidden');
    assert.equal(result.partial, undefined);
    assert.match(
      result.failure.message,
      /^could not create the check run "evalgate": 403 .*`permissions: checks: write`/,
    );
  });

  it('surfaces a single 500 on create once, without retrying', async () => {
    server.failNext('POST', /\/check-runs$/, 500);
    const result = await publishCheckRun(octokit, target, report(3));
    assert.equal(!result.ok && result.failure.code, 'github.unavailable');
    assert.equal(server.requests.length, 1);
  });
});

describe('the fake GitHub server validates like GitHub', () => {
  const base = { owner: 'acme', repo: 'app', name: 'evalgate', head_sha: 'b'.repeat(40) };

  async function status(request: Promise<unknown>): Promise<number | undefined> {
    try {
      await request;
      return 200;
    } catch (error) {
      return httpStatus(error);
    }
  }

  it('rejects more than 50 annotations in one request', async () => {
    const output = { title: 't', summary: 's', annotations: annotations(51) };
    await assert.rejects(octokit.rest.checks.create({ ...base, output }), (error: unknown) => {
      const failure = toReportingFailure(error, 'create the check run');
      assert.equal(failure.code, 'github.invalid');
      assert.match(failure.message, /No more than 50 items are allowed; 51 were supplied/);
      return true;
    });
  });

  it('rejects a summary over 65535 characters (and over 65535 UTF-8 bytes)', async () => {
    const long = await status(
      octokit.rest.checks.create({ ...base, output: { title: 't', summary: 'x'.repeat(65536) } }),
    );
    assert.equal(long, 422);
    const fits = await status(
      octokit.rest.checks.create({ ...base, output: { title: 't', summary: 'x'.repeat(65535) } }),
    );
    assert.equal(fits, 200);
    await assert.rejects(
      octokit.rest.checks.create({ ...base, output: { title: 't', summary: 'é'.repeat(40000) } }),
      (error: unknown) => {
        assert.match(
          toReportingFailure(error, 'x').message,
          /summary exceeds a maximum bytesize of 65535/,
        );
        return true;
      },
    );
  });

  it('requires name and head_sha on create, title and summary with output, conclusion when completed', async () => {
    const bad = [
      { name: 'x' },
      { ...base, output: { title: 't' } },
      { ...base, output: { summary: 's' } },
      { ...base, status: 'completed' },
    ];
    for (const body of bad) {
      const response = await fetch(`${server.url}/repos/acme/app/check-runs`, {
        method: 'POST',
        headers: { authorization: 'token test-token', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 422, JSON.stringify(body));
    }
    const created = await octokit.rest.checks.create(base);
    const patch = await status(
      octokit.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', {
        owner: 'acme',
        repo: 'app',
        check_run_id: created.data.id,
        output: { summary: 'no title' },
      }),
    );
    assert.equal(patch, 422);
    assert.equal(
      await status(octokit.rest.checks.update({ owner: 'acme', repo: 'app', check_run_id: 1 })),
      404,
    );
  });

  it('requires an authorization header and answers unknown routes with 404 JSON', async () => {
    const response = await fetch(`${server.url}/user`);
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), {
      message: 'Requires authentication',
      documentation_url: 'https://docs.github.com/rest',
      status: '401',
    });
    const unknown = await fetch(`${server.url}/nope`, { headers: { authorization: 'token t' } });
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { message: string }).message, 'Not Found');
  });

  it('answers GET /user with the PAT user, or 403 for a GITHUB_TOKEN', async () => {
    assert.equal(await status(octokit.rest.users.getAuthenticated()), 403);
    server.setUser('alice');
    const { data } = await octokit.rest.users.getAuthenticated();
    assert.equal(data.login, 'alice');
    assert.equal(data.type, 'User');
  });

  it('serves one comment by id and rejects a comment body over 65536 characters', async () => {
    const seeded = server.addComment(9, { body: 'hello', login: 'bob' });
    const { data } = await octokit.rest.issues.getComment({
      owner: 'acme',
      repo: 'app',
      comment_id: seeded.id,
    });
    assert.equal(data.body, 'hello');
    assert.equal(data.user?.login, 'bob');
    const tooLong = await status(
      octokit.rest.issues.createComment({
        owner: 'acme',
        repo: 'app',
        issue_number: 9,
        body: 'x'.repeat(65537),
      }),
    );
    assert.equal(tooLong, 422);
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
      /\(the token lacks `permissions: pull-requests: read`; see README/,
    );
  });
});
