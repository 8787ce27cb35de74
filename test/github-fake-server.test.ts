/** The fake GitHub (`helpers/github-server.ts`) answers as GitHub does where the Action depends on it. */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { upsertStickyComment } from '../src/github/comment.ts';
import { httpStatus, toReportingFailure } from '../src/github/errors.ts';
import { annotations, MARKER, target, useGitHubFixture } from './helpers/github-fixture.ts';

/** Each test starts from an empty server acting for a GITHUB_TOKEN. */
const github = useGitHubFixture();

/** What octokit sends through createOctokit, for requests made with fetch. */
const GITHUB_HEADERS: Record<string, string> = {
  authorization: 'token test-token',
  accept: 'application/vnd.github+json',
  'x-github-api-version': '2022-11-28',
};

/** A GET with exactly `headers` (fetch would add a User-Agent). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
    });
    request.on('error', reject);
    request.end();
  });
}

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
    await assert.rejects(
      github.octokit.rest.checks.create({ ...base, output }),
      (error: unknown) => {
        const failure = toReportingFailure(error, 'create the check run');
        assert.equal(failure.code, 'github.invalid');
        assert.match(failure.message, /No more than 50 items are allowed; 51 were supplied/);
        return true;
      },
    );
  });

  it('rejects a summary over 65535 characters (and over 65535 UTF-8 bytes)', async () => {
    const long = await status(
      github.octokit.rest.checks.create({
        ...base,
        output: { title: 't', summary: 'x'.repeat(65536) },
      }),
    );
    assert.equal(long, 422);
    const fits = await status(
      github.octokit.rest.checks.create({
        ...base,
        output: { title: 't', summary: 'x'.repeat(65535) },
      }),
    );
    assert.equal(fits, 200);
    await assert.rejects(
      github.octokit.rest.checks.create({
        ...base,
        output: { title: 't', summary: 'é'.repeat(40000) },
      }),
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
      const response = await fetch(`${github.server.url}/repos/acme/app/check-runs`, {
        method: 'POST',
        headers: { ...GITHUB_HEADERS, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 422, JSON.stringify(body));
    }
    const created = await github.octokit.rest.checks.create(base);
    const patch = await status(
      github.octokit.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', {
        owner: 'acme',
        repo: 'app',
        check_run_id: created.data.id,
        output: { summary: 'no title' },
      }),
    );
    assert.equal(patch, 422);
    assert.equal(
      await status(
        github.octokit.rest.checks.update({ owner: 'acme', repo: 'app', check_run_id: 1 }),
      ),
      404,
    );
  });

  it('requires an authorization header and answers unknown routes with 404 JSON', async () => {
    const response = await fetch(`${github.server.url}/user`);
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), {
      message: 'Requires authentication',
      documentation_url: 'https://docs.github.com/rest',
      status: '401',
    });
    const unknown = await fetch(`${github.server.url}/nope`, { headers: GITHUB_HEADERS });
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { message: string }).message, 'Not Found');
  });

  it('requires the headers GitHub asks for: User-Agent, the API version, its media type', async () => {
    const answer = async (headers: Record<string, string>) => {
      const response = await fetch(`${github.server.url}/nope`, { headers });
      return [response.status, ((await response.json()) as { message: string }).message];
    };
    const { 'x-github-api-version': _version, ...noVersion } = GITHUB_HEADERS;
    assert.deepEqual(await answer(noVersion), [
      400,
      'fake GitHub: the request has no X-GitHub-Api-Version header (expected 2022-11-28)',
    ]);
    assert.deepEqual(await answer({ ...GITHUB_HEADERS, 'x-github-api-version': '2020-01-01' }), [
      400,
      'API version 2020-01-01 is not supported.',
    ]);
    assert.deepEqual(await answer({ ...GITHUB_HEADERS, accept: 'application/json' }), [
      400,
      'fake GitHub: Accept is "application/json", expected application/vnd.github+json',
    ]);
    // Node's fetch always names itself; a raw request without User-Agent is refused.
    const { status } = await rawGet(github.server.url, '/nope', { authorization: 'token t' });
    assert.equal(status, 403);
  });

  it("rejects an annotation over GitHub's limits: a title over 255 characters, a message over 64 KB", async () => {
    const [annotation] = annotations(1);
    assert.ok(annotation);
    const tooLong = [
      { ...annotation, title: '\u00e9'.repeat(256) },
      { ...annotation, message: 'x'.repeat(64 * 1024 + 1) },
      { ...annotation, raw_details: '\u00e9'.repeat(32 * 1024 + 1) },
    ];
    for (const bad of tooLong) {
      const output = { title: 't', summary: 's', annotations: [bad] };
      assert.equal(await status(github.octokit.rest.checks.create({ ...base, output })), 422);
    }
    const fits = { ...annotation, title: '\u00e9'.repeat(255), message: 'x'.repeat(64 * 1024) };
    const output = { title: 't', summary: 's', annotations: [fits] };
    assert.equal(await status(github.octokit.rest.checks.create({ ...base, output })), 200);
  });

  it('sees the API version, media type and an evalgate User-Agent on every octokit request', async () => {
    await upsertStickyComment(github.octokit, target, MARKER, MARKER);
    assert.ok(github.server.requests.length >= 3);
    for (const request of github.server.requests) {
      assert.equal(request.headers['x-github-api-version'], '2022-11-28');
      assert.equal(request.headers.accept, 'application/vnd.github+json');
      assert.match(request.headers['user-agent'] ?? '', /^evalgate\/test /);
    }
  });

  it('answers GET /user with the PAT user, or 403 for an installation token; GET /app 403', async () => {
    assert.equal(await status(github.octokit.rest.users.getAuthenticated()), 403);
    assert.equal(await status(github.octokit.rest.apps.getAuthenticated()), 403);
    github.server.setAppToken('evalgate-ci');
    assert.equal(await status(github.octokit.rest.users.getAuthenticated()), 403);
    assert.equal(await status(github.octokit.rest.apps.getAuthenticated()), 403);
    github.server.setUser('alice');
    const { data } = await github.octokit.rest.users.getAuthenticated();
    assert.equal(data.login, 'alice');
    assert.equal(data.type, 'User');
  });

  it("refuses a user's token (a PAT) writing a check run, which only GitHub Apps may, and lets it read", async () => {
    const output = { title: 't', summary: 's' };
    const created = await github.octokit.rest.checks.create({ ...base, output });
    github.server.setUser('alice');
    await assert.rejects(
      github.octokit.rest.checks.create({ ...base, output }),
      (error: unknown) => {
        assert.equal(httpStatus(error), 403);
        assert.match(String(error), /You must authenticate via a GitHub App\./);
        return true;
      },
    );
    const update = github.octokit.rest.checks.update({ ...base, check_run_id: created.data.id });
    assert.equal(await status(update), 403);
    const read = await github.octokit.rest.checks.get({ ...base, check_run_id: created.data.id });
    assert.equal(read.data.id, created.data.id);
  });

  it('serves one comment by id and rejects a comment body over 65536 characters', async () => {
    const seeded = github.server.addComment(9, { body: 'hello', login: 'bob' });
    const { data } = await github.octokit.rest.issues.getComment({
      owner: 'acme',
      repo: 'app',
      comment_id: seeded.id,
    });
    assert.equal(data.body, 'hello');
    assert.equal(data.user?.login, 'bob');
    const tooLong = await status(
      github.octokit.rest.issues.createComment({
        owner: 'acme',
        repo: 'app',
        issue_number: 9,
        body: 'x'.repeat(65537),
      }),
    );
    assert.equal(tooLong, 422);
  });
});
