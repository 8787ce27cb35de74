import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { downloadBaseline } from '../src/github/baseline-download.ts';
import { findBaselineArtifact } from '../src/github/baseline.ts';
import type { Octokit } from '../src/github/octokit.ts';
import { readZipEntries, ZipError } from '../src/github/artifact-zip.ts';
import { testOctokit } from './helpers/github-client.ts';
import { startGitHubServer } from './helpers/github-server.ts';
import type { GitHubServer } from './helpers/github-server.ts';
import { writeZip } from './helpers/zip-writer.ts';

/**
 * Asserts `read` rejects with a ZipError (code zip.invalid) whose message matches `pattern`;
 * returns the message.
 */
async function assertRefused(read: () => Promise<unknown>, pattern: RegExp): Promise<string> {
  let message = '';
  await assert.rejects(read, (error: unknown) => {
    assert.ok(error instanceof ZipError, `expected a ZipError, got ${String(error)}`);
    assert.equal(error.code, 'zip.invalid');
    assert.match(error.message, pattern);
    message = error.message;
    return true;
  });
  return message;
}

const RESULTS = JSON.stringify(
  {
    schemaVersion: 1,
    verdict: 'pass',
    runs: [
      {
        suite: 'qa',
        cases: [0, 1, 2, 3, 4].map((index) => ({ id: `case-${index}`, score: 1 })),
      },
    ],
  },
  null,
  2,
);

/**
 * Written by Python's zipfile (an independent writer), deflated: `evals-results.json` holding
 * {@link RESULTS} and `pr.txt`.
 */
const PYTHON_ZIP = Buffer.from(
  'UEsDBBQAAAAIAGsFdV317BrXgAAAAMsBAAASAAAAZXZhbHMtcmVzdWx0cy5qc29uq+ZSUFAqTs5IzU0MSy0qzszPU7JSMNQBiZalFqVkJpcA+UoFicXFSmDBotK8YqBINJCtoFANJkEGlGaWpIIUFiaClYEFkxOLUxFqkdWDpTNTQBpAinQN4JogpiXnF4FMM4QL1uoQNMOQCmYYUcEMYyqYYULQDCgrlgvGi+WqBQBQSwMEFAAAAAgAawV1XRgJImIIAAAAKwAAAAYAAABwci50eHQzV0gmEnABAFBLAQIUAxQAAAAIAGsFdV317BrXgAAAAMsBAAASAAAAAAAAAAAAAACAAQAAAABldmFscy1yZXN1bHRzLmpzb25QSwECFAMUAAAACABrBXVdGAkiYggAAAArAAAABgAAAAAAAAAAAAAAgAGwAAAAcHIudHh0UEsFBgAAAAACAAIAdAAAANwAAAAAAA==',
  'base64',
);

describe('readZipEntries', () => {
  it('reads an archive written by another implementation', async () => {
    const entries = await readZipEntries(PYTHON_ZIP);
    assert.deepEqual(
      entries.map((entry) => entry.name),
      ['evals-results.json', 'pr.txt'],
    );
    assert.equal(entries[0]?.data.toString('utf8'), RESULTS);
    assert.equal(entries[1]?.data.toString('utf8'), `7 ${'c'.repeat(40)}\n`);
  });

  it('reads stored and deflated entries, data descriptors, nested paths and a comment; skips directories', async () => {
    const big = 'abc'.repeat(10_000);
    const zip = writeZip(
      [
        { name: 'a.txt', data: 'stored text', method: 'stored' },
        { name: 'out/', data: '', method: 'stored' },
        { name: 'out/b.json', data: big, descriptor: true },
        { name: 'empty.txt', data: '' },
        { name: 'é.txt', data: 'unicode name' },
      ],
      { comment: 'made by a test' },
    );
    const entries = await readZipEntries(zip);
    assert.deepEqual(
      entries.map((entry) => [entry.name, entry.data.length]),
      [
        ['a.txt', 11],
        ['out/b.json', 30_000],
        ['empty.txt', 0],
        ['é.txt', 12],
      ],
    );
    assert.equal(entries[1]?.data.toString(), big);
  });

  it('refuses a corrupt CRC, a corrupted deflate stream and a lying size', async () => {
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 'r.json', data: '{}', crc: 0x12345678 }])),
      /entry "r\.json" is corrupt: CRC-32 0x[0-9a-f]{8} does not match the declared 0x12345678/,
    );
    const flipped = writeZip([{ name: 'r.json', data: RESULTS, method: 'stored' }]);
    flipped.writeUInt8(flipped.readUInt8(40) ^ 0xff, 40);
    await assertRefused(() => readZipEntries(flipped), /CRC-32/);
    const garbage = writeZip([{ name: 'r.json', data: RESULTS }]);
    garbage.fill(0xff, 30 + 6, 30 + 16);
    await assertRefused(() => readZipEntries(garbage), /entry "r\.json" is corrupt: /);
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 'r.json', data: RESULTS, size: 10 }])),
      /entry "r\.json" is corrupt: too many bytes in the stream\. expected 10\. got at least \d+/,
    );
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 'r.json', data: 'abc', size: 30 }])),
      /entry "r\.json" is corrupt: not enough bytes in the stream\. expected 30\. got only 3$/,
    );
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 'r.json', data: 'abc', size: 30, method: 'stored' }])),
      /compressed\/uncompressed size mismatch for stored file: 3 != 30/,
    );
  });

  it('refuses truncated archives and things that are not archives', async () => {
    const zip = writeZip([
      { name: 'a.json', data: RESULTS },
      { name: 'b.json', data: RESULTS },
    ]);
    const noEnd =
      /^invalid or unsupported ZIP archive: End of central directory record signature not found\. Either not a zip file, or file is truncated\.$/;
    for (const cut of [1, 10, 30, zip.length - 40]) {
      await assertRefused(() => readZipEntries(zip.subarray(0, zip.length - cut)), noEnd);
    }
    // The directory intact but the data gone: the offsets point past the end.
    const headless = zip.subarray(60);
    await assertRefused(
      () => readZipEntries(headless),
      /^invalid or unsupported ZIP archive: invalid central directory file header signature: 0x[0-9a-f]+$/,
    );
    await assertRefused(() => readZipEntries(Buffer.alloc(0)), noEnd);
    await assertRefused(() => readZipEntries(Buffer.from(RESULTS)), noEnd);
    // Bytes after the end record, or its signature inside the comment, make the end ambiguous
    // (two readers could find two different archives): refused, where the old reader
    // accepted the second.
    const ambiguous =
      /Invalid comment length\. Expected: \d+\. Found: \d+\. Are there extra bytes at the end of the file\? Or is the end of central dir signature/;
    await assertRefused(() => readZipEntries(Buffer.concat([zip, Buffer.from('xx')])), ambiguous);
    const signed = writeZip([{ name: 'a.json', data: RESULTS }], {
      comment: 'made by a test; PK\x05\x06 inside the comment',
    });
    await assertRefused(() => readZipEntries(signed), ambiguous);
  });

  it('refuses names that climb out of the archive or are absolute', async () => {
    for (const name of [
      '../evil.json',
      'a/../../evil.json',
      'a\\..\\..\\evil.json',
      '..',
      '/etc/passwd',
      '\\windows\\evil',
      'C:\\evil.json',
      'c:evil.json',
    ]) {
      await assertRefused(
        () => readZipEntries(writeZip([{ name, data: 'x' }])),
        /^invalid or unsupported ZIP archive: (invalid relative path|absolute path): /,
      );
    }
    // Dots inside a name are fine, and a backslash is read as the separator it is on Windows.
    const fine = await readZipEntries(
      writeZip([
        { name: 'a..b/..c.json', data: 'x' },
        { name: 'sub\\r.json', data: 'y' },
      ]),
    );
    assert.deepEqual(
      fine.map((entry) => entry.name),
      ['a..b/..c.json', 'sub/r.json'],
    );
  });

  it('reads a ZIP64 archive', async () => {
    const zip = writeZip(
      [
        { name: 'dir/', data: '', method: 'stored' },
        { name: 'dir/evals-results.json', data: RESULTS },
        { name: 'pr.txt', data: '7', method: 'stored', descriptor: true },
      ],
      { zip64: true },
    );
    const entries = await readZipEntries(zip);
    assert.deepEqual(
      entries.map((entry) => [entry.name, entry.data.toString()]),
      [
        ['dir/evals-results.json', RESULTS],
        ['pr.txt', '7'],
      ],
    );
  });

  it('refuses encryption, other methods, forged ZIP64 markers, split archives and duplicate names', async () => {
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 's.json', data: 'x', flags: 0x0001 }])),
      /^entry "s\.json" is encrypted; encrypted archives are not supported$/,
    );
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 's.json', data: 'x', flags: 0x0041 }])),
      /strong encryption is not supported/,
    );
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 's.json', data: 'x', methodCode: 12 }])),
      /^entry "s\.json" uses compression method 12; only stored \(0\) and deflate \(8\) are supported$/,
    );
    // A ZIP64 marker without its ZIP64 field is taken at its word: 4 GiB, over the limit.
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 's.json', data: 'x', size: 0xffffffff }])),
      /^the archive inflates to more than 536870912 bytes \(at entry "s\.json"\); refusing it$/,
    );
    // The 65,535 entries a ZIP64 marker in the end record claims, without the ZIP64 records.
    const zip64 = writeZip([{ name: 's.json', data: 'x' }]);
    zip64.writeUInt16LE(0xffff, zip64.length - 22 + 10);
    await assertRefused(
      () => readZipEntries(zip64),
      /^invalid or unsupported ZIP archive: unexpected EOF$/,
    );
    const split = writeZip([{ name: 's.json', data: 'x' }]);
    split.writeUInt16LE(1, split.length - 22 + 4);
    await assertRefused(
      () => readZipEntries(split),
      /^invalid or unsupported ZIP archive: multi-disk zip files are not supported: found disk number: 1$/,
    );
    await assertRefused(
      () =>
        readZipEntries(
          writeZip([
            { name: 'd.json', data: 'x' },
            { name: 'd.json', data: 'y' },
          ]),
        ),
      /^entry "d\.json" appears twice in the archive$/,
    );
  });

  it('refuses zip bombs: an absurd ratio, or more than the total limit', async () => {
    const zeros = Buffer.alloc(4 * 1024 * 1024);
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 'bomb.json', data: zeros }])),
      /over 1000:1.*zip bomb/,
    );
    const twice = writeZip([
      { name: 'a.json', data: RESULTS },
      { name: 'b.json', data: RESULTS },
    ]);
    assert.equal((await readZipEntries(twice, { maxTotalBytes: 2 * RESULTS.length })).length, 2);
    await assertRefused(
      () => readZipEntries(twice, { maxTotalBytes: 2 * RESULTS.length - 1 }),
      /inflates to more than \d+ bytes \(at entry "b\.json"\)/,
    );
  });

  it('stops inflating an entry that claims a small size as soon as it inflates past it', async () => {
    // 64 MiB of zeros deflate to 64 KiB; claiming 1 MiB keeps the entry under the ratio check
    // and the total limit, so only counting the inflated bytes catches it.
    const claimed = 1024 * 1024;
    const bomb = writeZip([
      { name: 'bomb.json', data: Buffer.alloc(64 * 1024 * 1024), size: claimed },
    ]);
    const message = await assertRefused(
      () => readZipEntries(bomb),
      /^entry "bomb\.json" is corrupt: too many bytes in the stream\. expected 1048576\. got at least \d+$/,
    );
    const inflated = Number(/got at least (\d+)$/.exec(message)?.[1]);
    assert.ok(
      inflated < 2 * claimed,
      `stopped after ${inflated} bytes, not near the claimed ${claimed}`,
    );
  });

  it('refuses entries that share bytes, and a central record disagreeing with its local header', async () => {
    // b's complete local record hidden inside a's data: the "overlapping files" zip bomb.
    const inner = writeZip([{ name: 'b.json', data: 'bbbb', method: 'stored' }]);
    const innerLocal = inner.subarray(0, 30 + 'b.json'.length + 4);
    const overlapping = writeZip([
      { name: 'a.json', data: innerLocal, method: 'stored' },
      { name: 'b.json', data: 'bbbb', method: 'stored', centralOnlyAt: 30 + 'a.json'.length },
    ]);
    await assertRefused(
      () => readZipEntries(overlapping),
      /entries "a\.json" and "b\.json" overlap/,
    );

    const renamed = writeZip([{ name: 'a.json', data: 'x', method: 'stored' }]);
    renamed.write('z', 30);
    await assertRefused(
      () => readZipEntries(renamed),
      /local header disagrees with the central directory/,
    );
  });
});

const target = { owner: 'acme', repo: 'app' };
const day = (n: number): string => new Date(Date.UTC(2024, 4, 1) + n * 86_400_000).toISOString();

let server: GitHubServer;
let octokit: Octokit;

before(async () => {
  server = await startGitHubServer();
  octokit = testOctokit(server.url);
});

after(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  server.state.artifacts.clear();
  server.state.storageDownloads.length = 0;
});

function listCalls() {
  return server.requests.filter((request) => /\/actions\/artifacts$/.test(request.path));
}

describe('findBaselineArtifact', () => {
  it('picks the newest non-expired artifact of the branch, reading a second page', async () => {
    const zip = writeZip([{ name: 'evals-results.json', data: RESULTS }]);
    // Page 1 (the 100 newest): pull request branches, an expired main, a fork's "main".
    for (let index = 0; index < 97; index++) {
      server.addArtifact({
        name: 'evals-results',
        branch: `pr-${index}`,
        createdAt: day(300 - index),
        zip,
      });
    }
    server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      createdAt: day(299),
      expired: true,
      zip,
    });
    server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      createdAt: day(298),
      fromFork: true,
      zip,
    });
    server.addArtifact({ name: 'other-name', branch: 'main', createdAt: day(400), zip });
    server.addArtifact({ name: 'evals-results', branch: 'develop', createdAt: day(150), zip });
    // Page 2: the newest usable one, then older ones of main.
    const newest = server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      createdAt: day(100),
      runId: 777,
      headSha: 'e'.repeat(40),
      zip,
    });
    server.addArtifact({ name: 'evals-results', branch: 'main', createdAt: day(50), zip });
    server.addArtifact({ name: 'evals-results', branch: 'main', createdAt: day(10), zip });

    const result = await findBaselineArtifact(octokit, target, {
      name: 'evals-results',
      branch: 'main',
      configPath: 'evals.yaml',
    });
    assert.deepEqual(result, {
      ok: true,
      found: { id: newest.id, createdAt: day(100), runId: 777, headSha: 'e'.repeat(40) },
      searched: { artifacts: 103, pages: 2, total: 103, exhausted: true },
    });
    const calls = listCalls();
    assert.deepEqual(
      calls.map((call) => [call.query['name'], call.query['per_page'], call.query['page'] ?? '1']),
      [
        ['evals-results', '100', '1'],
        ['evals-results', '100', '2'],
      ],
    );
    assert.ok(calls.every((call) => call.headers.authorization === 'token test-token'));
  });

  it('stops after the page holding a match once older artifacts follow', async () => {
    const zip = writeZip([{ name: 'evals-results.json', data: RESULTS }]);
    for (let index = 0; index < 250; index++) {
      server.addArtifact({
        name: 'evals-results',
        branch: index === 150 ? 'main' : `pr-${index}`,
        createdAt: day(1000 - index),
        zip,
      });
    }
    const result = await findBaselineArtifact(octokit, target, {
      name: 'evals-results',
      branch: 'main',
    });
    assert.equal(result.ok && result.found?.createdAt, day(850));
    assert.equal(listCalls().length, 2, 'page 3 holds only older artifacts');
  });

  it('answers found: null when no artifact qualifies, within maxPages', async () => {
    const zip = writeZip([{ name: 'evals-results.json', data: RESULTS }]);
    server.addArtifact({ name: 'evals-results', branch: 'feature', zip });
    server.addArtifact({ name: 'evals-results', branch: 'main', expired: true, zip });
    server.addArtifact({ name: 'evals-results', branch: 'main', fromFork: true, zip });
    server.addArtifact({ name: 'evals-results-2', branch: 'main', zip });
    assert.deepEqual(
      await findBaselineArtifact(octokit, target, { name: 'evals-results', branch: 'main' }),
      {
        ok: true,
        found: null,
        searched: { artifacts: 3, pages: 1, total: 3, exhausted: true },
      },
    );

    server.requests.length = 0;
    for (let index = 0; index < 250; index++) {
      server.addArtifact({ name: 'many', branch: `pr-${index}`, zip });
    }
    const capped = await findBaselineArtifact(octokit, target, {
      name: 'many',
      branch: 'main',
      maxPages: 2,
    });
    assert.deepEqual(capped, {
      ok: true,
      found: null,
      searched: { artifacts: 200, pages: 2, total: 250, exhausted: false },
    });
    assert.equal(listCalls().length, 2);
  });

  it('finds the base branch artifact behind 1,050 newer pull request uploads', async () => {
    const zip = writeZip([{ name: 'evals-results.json', data: RESULTS }]);
    for (let index = 0; index < 1050; index++) {
      server.addArtifact({
        name: 'evals-results',
        branch: `pr-${index % 40}`,
        createdAt: day(2000 - index),
        zip,
      });
    }
    const base = server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      createdAt: day(900),
      zip,
    });
    server.addArtifact({ name: 'other', branch: 'main', createdAt: day(3000), zip });
    const result = await findBaselineArtifact(octokit, target, {
      name: 'evals-results',
      branch: 'main',
    });
    assert.equal(result.ok && result.found?.id, base.id);
    const calls = listCalls();
    assert.equal(calls.length, 11, 'pages of 100 until the one holding it');
    assert.ok(calls.every((call) => call.query['name'] === 'evals-results'));
    assert.deepEqual(result.ok && result.searched, {
      artifacts: 1051,
      pages: 11,
      total: 1051,
      exhausted: true,
    });
  });

  it('reports a 403 as github.forbidden naming `actions: read`', async () => {
    server.failNext('GET', /\/actions\/artifacts$/, 403);
    const result = await findBaselineArtifact(octokit, target, {
      name: 'evals-results',
      branch: 'main',
      configPath: 'evals.yaml',
    });
    assert.ok(!result.ok);
    assert.equal(result.failure.code, 'github.forbidden');
    assert.equal(result.failure.status, 403);
    assert.match(
      result.failure.message,
      /^could not list the artifacts named "evals-results" \(the baseline for evals\.yaml\): 403 .*`permissions: actions: read`/,
    );
  });
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
