/**
 * downloadBaseline against the fake GitHub: the redirect to storage without the token, choosing
 * the results file in the archive, and the failures it reports (corrupt archives, 403, 404, 410,
 * storage errors, oversized archives).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { downloadBaseline } from '../src/github/baseline-download.ts';
import type { Octokit } from '../src/github/octokit.ts';
import { testOctokit } from './helpers/github-client.ts';
import {
  PYTHON_ZIP,
  RESULTS,
  target,
  useArtifactServer,
} from './helpers/github-artifact-fixtures.ts';
import type { GitHubServer } from './helpers/github-server.ts';
import { writeZip } from './helpers/zip-writer.ts';

let server: GitHubServer;
let octokit: Octokit;

useArtifactServer((started, client) => {
  server = started;
  octokit = client;
});

describe('downloadBaseline', () => {
  it('follows the redirect to storage without the token and returns the results text', async () => {
    const artifact = server.addArtifact({ name: 'evals-results', branch: 'main', zip: PYTHON_ZIP });
    const result = await downloadBaseline(octokit, target, artifact.id);
    assert.deepEqual(result, { ok: true, text: RESULTS, entry: 'evals-results.json' });

    const api = server.requests.find((request) => request.path.endsWith('/zip'));
    assert.equal(api?.path, `/repos/acme/app/actions/artifacts/${artifact.id}/zip`);
    assert.equal(api?.headers.authorization, 'token test-token');
    // The storage sits on the same origin here, where a fetch following the redirect itself
    // would forward the token; it must not arrive.
    assert.deepEqual(server.state.storageDownloads, [
      { artifactId: artifact.id, authorization: undefined },
    ]);
  });

  it('reads a deflated archive with data descriptors, as upload-artifact writes them', async () => {
    const zip = writeZip([
      { name: 'evals-results.json', data: RESULTS, descriptor: true },
      { name: 'pr.txt', data: '7\n', descriptor: true },
    ]);
    const artifact = server.addArtifact({ name: 'evals-results', branch: 'main', zip });
    assert.deepEqual(await downloadBaseline(octokit, target, artifact.id), {
      ok: true,
      text: RESULTS,
      entry: 'evals-results.json',
    });
  });

  it('picks evals-results.json among several .json files, the only .json otherwise, or the named file', async () => {
    const two = server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      zip: writeZip([
        { name: 'other.json', data: '{"other":true}' },
        { name: 'evals-results.json', data: RESULTS },
      ]),
    });
    assert.deepEqual(await downloadBaseline(octokit, target, two.id), {
      ok: true,
      text: RESULTS,
      entry: 'evals-results.json',
    });
    assert.deepEqual(await downloadBaseline(octokit, target, two.id, { fileName: 'other.json' }), {
      ok: true,
      text: '{"other":true}',
      entry: 'other.json',
    });

    const only = server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      zip: writeZip([
        { name: 'pr.txt', data: '7' },
        { name: 'sub/results.json', data: RESULTS },
      ]),
    });
    assert.deepEqual(await downloadBaseline(octokit, target, only.id), {
      ok: true,
      text: RESULTS,
      entry: 'sub/results.json',
    });
    const byBase = await downloadBaseline(octokit, target, only.id, { fileName: 'results.json' });
    assert.equal(byBase.ok && byBase.entry, 'sub/results.json');
  });

  it('fails naming the entries when no results file can be chosen', async () => {
    const none = server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      zip: writeZip([
        { name: 'pr.txt', data: '7' },
        { name: 'log.txt', data: 'x' },
      ]),
    });
    const missing = await downloadBaseline(octokit, target, none.id);
    assert.ok(!missing.ok);
    assert.equal(missing.failure.code, 'github.failed');
    assert.equal(
      missing.failure.message,
      `the baseline artifact ${none.id} holds no .json results file; it holds "pr.txt", "log.txt"`,
    );

    const ambiguous = server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      zip: writeZip([
        { name: 'a.json', data: '{}' },
        { name: 'b.json', data: '{}' },
      ]),
    });
    const several = await downloadBaseline(octokit, target, ambiguous.id);
    assert.ok(!several.ok);
    assert.match(several.failure.message, /several \.json files.*"a\.json", "b\.json"/);
    const named = await downloadBaseline(octokit, target, ambiguous.id, { fileName: 'c.json' });
    assert.ok(!named.ok);
    assert.match(named.failure.message, /holds no "c\.json"; it holds "a\.json", "b\.json"/);
  });

  it('fails on a corrupt archive, saying why', async () => {
    const corrupt = writeZip([{ name: 'evals-results.json', data: RESULTS, crc: 1 }]);
    const bad = server.addArtifact({ name: 'evals-results', branch: 'main', zip: corrupt });
    const result = await downloadBaseline(octokit, target, bad.id);
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.failed');
    assert.match(
      result.failure.message,
      new RegExp(
        `^could not read the baseline artifact ${bad.id}: entry "evals-results\\.json" is corrupt: CRC-32`,
      ),
    );

    const html = server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      zip: Buffer.from('<html>not a zip</html>'),
    });
    const notZip = await downloadBaseline(octokit, target, html.id);
    assert.ok(!notZip.ok);
    assert.match(
      notZip.failure.message,
      new RegExp(
        `^could not read the baseline artifact ${html.id}: invalid or unsupported ZIP archive: End of central directory record signature not found`,
      ),
    );
  });

  it('reports 403 (naming `actions: read`), 404 and an expired 410 as failures', async () => {
    const artifact = server.addArtifact({ name: 'evals-results', branch: 'main', zip: PYTHON_ZIP });
    server.failNext('GET', /\/actions\/artifacts\/\d+\/zip$/, 403);
    const forbidden = await downloadBaseline(octokit, target, artifact.id);
    assert.ok(!forbidden.ok);
    assert.equal(forbidden.failure.code, 'github.forbidden');
    assert.match(forbidden.failure.message, /`permissions: actions: read`/);

    const missing = await downloadBaseline(octokit, target, 1);
    assert.ok(!missing.ok);
    assert.deepEqual(missing.failure, {
      code: 'github.not-found',
      status: 404,
      message:
        'could not download the baseline artifact 1: 404 Not Found (the artifact was deleted, or the token cannot see this repository)',
    });

    const old = server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      expired: true,
      zip: PYTHON_ZIP,
    });
    const expired = await downloadBaseline(octokit, target, old.id);
    assert.ok(!expired.ok);
    assert.equal(expired.failure.code, 'github.not-found');
    assert.equal(expired.failure.status, 410);
    assert.match(expired.failure.message, /410 Artifact has expired \(the artifact has expired;/);
    assert.equal(server.state.storageDownloads.length, 0);
  });

  it('reports a storage failure without the signed query, and refuses an oversized archive', async () => {
    const artifact = server.addArtifact({ name: 'evals-results', branch: 'main', zip: PYTHON_ZIP });
    server.failNext('GET', /^\/_storage\//, 403);
    const refused = await downloadBaseline(octokit, target, artifact.id);
    assert.ok(!refused.ok);
    assert.equal(refused.failure.code, 'github.failed');
    assert.equal(refused.failure.status, 403);
    assert.match(
      refused.failure.message,
      new RegExp(
        `storage answered 403 for http://127\\.0\\.0\\.1:\\d+/_storage/${artifact.id} \\(`,
      ),
    );
    assert.doesNotMatch(refused.failure.message, /sig=/);

    server.failNext('GET', /^\/_storage\//, 503);
    const down = await downloadBaseline(octokit, target, artifact.id);
    assert.equal(!down.ok && down.failure.code, 'github.unavailable');

    const big = await downloadBaseline(octokit, target, artifact.id, { maxArchiveBytes: 100 });
    assert.ok(!big.ok);
    assert.match(big.failure.message, /larger than 100 bytes/);
  });

  it('still works when the fetch follows the redirect itself', async () => {
    // A fetch that ignores redirect: 'manual' hands octokit the archive with status 200.
    const following = testOctokit(server.url, {
      fetch: (url, init) => fetch(url, { ...init, redirect: 'follow' }),
    });
    const artifact = server.addArtifact({ name: 'evals-results', branch: 'main', zip: PYTHON_ZIP });
    assert.deepEqual(await downloadBaseline(following, target, artifact.id), {
      ok: true,
      text: RESULTS,
      entry: 'evals-results.json',
    });
  });
});
