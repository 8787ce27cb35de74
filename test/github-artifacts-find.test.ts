/**
 * findBaselineArtifact against the fake GitHub: the newest usable artifact of a branch across
 * pages, when to stop paging, no match, and a token without `actions: read`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findBaselineArtifact } from '../src/github/baseline.ts';
import type { Octokit } from '../src/github/octokit.ts';
import { RESULTS, target, useArtifactServer } from './helpers/github-artifact-fixtures.ts';
import type { GitHubServer } from './helpers/github-server.ts';
import { writeZip } from './helpers/zip-writer.ts';

const day = (n: number): string => new Date(Date.UTC(2024, 4, 1) + n * 86_400_000).toISOString();

let server: GitHubServer;
let octokit: Octokit;

useArtifactServer((started, client) => {
  server = started;
  octokit = client;
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
      searched: { artifacts: 103, pages: 2, total: 103, exhausted: true, skipped: {} },
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
        searched: { artifacts: 3, pages: 1, total: 3, exhausted: true, skipped: {} },
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
      searched: { artifacts: 200, pages: 2, total: 250, exhausted: false, skipped: {} },
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
      skipped: {},
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
      /^could not list the artifacts named "evals-results" and the runs that uploaded them \(the baseline for evals\.yaml\): 403 .*`permissions: actions: read`/,
    );
  });
});
