/**
 * QA8 (the Action against a misbehaving GitHub): the storage download obeys the per-attempt
 * limit and the shared budget (M1), a check run whose create GitHub refuses for its annotations
 * still goes out (M2), rows of files outside the repository are not sent with a `../` path (M2),
 * and a locked conversation is told apart from a missing permission (L3).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { downloadBaseline } from '../src/github/baseline-download.ts';
import { publishCheckRun } from '../src/github/check-run.ts';
import { toReportingFailure } from '../src/github/errors.ts';
import { RetryBudget } from '../src/github/retry-budget.ts';
import { buildAnnotations, toWorkflowCommands } from '../src/report/annotations.ts';
import type { RunResult } from '../src/types/index.ts';
import { reported } from './helpers/cases.ts';
import { annotations, useGitHubFixture } from './helpers/github-fixture.ts';
import { validationFailed } from './helpers/github-server-errors.ts';
import { resultsZip } from './helpers/action-fixture.ts';
import { fixtureRuns } from './report-fixture.ts';
import { artifactOf } from './report-fixture-large.ts';

const gh = useGitHubFixture();
const repo = { owner: 'acme', repo: 'app' };

/** How the storage host below answers `/<mode>`. */
type StorageMode = 'hang' | 'drip' | 'slow';

const ZIP = resultsZip('{"ok":true}');

/**
 * A storage host on 127.0.0.1: `hang` never answers; `drip` sends headers and then 10 bytes
 * every 100 ms, forever; `slow` sends a valid archive in 12 pieces, 250 ms apart (3 s in all).
 */
let storage: Server;
let storageUrl = '';
before(async () => {
  storage = createServer((req, res) => {
    const mode = req.url?.split('?')[0]?.slice(1) as StorageMode;
    if (mode === 'hang') return;
    res.writeHead(200, { 'content-type': 'application/zip' });
    let sent = 0;
    const pieces = 12;
    const timer = setInterval(
      () => {
        if (mode === 'drip') {
          res.write(Buffer.alloc(10));
          return;
        }
        const size = Math.ceil(ZIP.length / pieces);
        res.write(ZIP.subarray(sent * size, (sent + 1) * size));
        sent++;
        if (sent === pieces) {
          clearInterval(timer);
          res.end();
        }
      },
      mode === 'drip' ? 100 : 250,
    );
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((done) => storage.listen(0, '127.0.0.1', done));
  storageUrl = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;
});
after(() => {
  storage.closeAllConnections();
  storage.close();
});

/** An artifact whose download GitHub redirects to `/<mode>` of the storage host above. */
function redirectedArtifact(mode: StorageMode): number {
  const artifact = gh.server.addArtifact({ name: 'evals-results', branch: 'main', zip: ZIP });
  gh.server.failNext('GET', new RegExp(`/artifacts/${artifact.id}/zip$`), 302, 1, Buffer.alloc(0), {
    location: `${storageUrl}/${mode}?sig=SIGNATURE123456789&se=1`,
  });
  return artifact.id;
}

describe('the baseline download from the storage host (M1)', () => {
  // A second of waiting lasts 50 ms: the 20 s attempt lasts 2 s (its floor), the budget 3 s.
  const budget = (): RetryBudget => new RetryBudget(60, 0.05);

  it('gives up on a host that never answers after the attempt limit, and charges the budget', async () => {
    const id = redirectedArtifact('hang');
    const shared = budget();
    const result = await downloadBaseline(gh.octokit, repo, id, { budget: shared });
    assert.equal(result.ok, false);
    assert.ok(!result.ok);
    assert.match(result.failure.message, /no answer from the artifact storage .*within 20 s/);
    assert.doesNotMatch(result.failure.message, /SIGNATURE/);
    // The timed-out attempt's 2 s (40 of its seconds) were spent: 21 more do not fit the 60.
    assert.equal(shared.take(21 * shared.secondMs), false);
  });

  it('lets a download that keeps arriving go past the attempt limit, and stops it when the budget is spent', async () => {
    const slow = await downloadBaseline(gh.octokit, repo, redirectedArtifact('slow'), {
      budget: budget(),
    });
    assert.deepEqual(slow, { ok: true, text: '{"ok":true}', entry: 'evals-results.json' });

    const drip = await downloadBaseline(gh.octokit, repo, redirectedArtifact('drip'), {
      budget: budget(),
    });
    assert.ok(!drip.ok);
    assert.match(drip.failure.message, /broke off \(still downloading after \d+ s: .*budget/);
  });
});

describe('a check run GitHub refuses for its annotations (M2)', () => {
  it('is created again without them, with its verdict and summary, and the rows are left to fall back', async () => {
    gh.server.failNext(
      'POST',
      /\/check-runs$/,
      422,
      1,
      validationFailed(
        'CheckRun',
        'invalid',
        'annotations[0].path',
        'annotations[0].path is invalid',
        'https://docs.github.com/rest/checks/runs',
      ).body,
    );
    const result = await publishCheckRun(gh.octokit, repo, {
      name: 'evals: evals.yaml',
      headSha: 'a'.repeat(40),
      conclusion: 'failure',
      title: 'fail: 1 of 1 runs failed',
      summary: 'the summary',
      annotations: annotations(3),
    });
    assert.ok(!result.ok);
    const runs = [...gh.server.state.checkRuns.values()];
    assert.equal(runs.length, 1);
    assert.deepEqual(result.partial, { id: runs[0]?.id, annotations: 0 });
    assert.equal(runs[0]?.conclusion, 'failure');
    assert.equal(runs[0]?.output.summary, 'the summary');
    assert.equal(runs[0]?.annotations.length, 0);
    assert.match(result.failure.message, /refused the annotations .*annotations\[0\]\.path/);
    assert.equal(gh.calls('POST', /\/check-runs$/).length, 2);
  });
});

describe('rows of a testset outside the repository (M2)', () => {
  it('are annotated on the config, with their place in the message, never with a ../ path', () => {
    const runs: RunResult[] = fixtureRuns().map((run) => ({
      ...run,
      cases: run.cases.map((c) =>
        c.source ? { ...c, source: { ...c.source, file: '../../shared data/extra.csv' } } : c,
      ),
    }));
    const built = buildAnnotations(reported(artifactOf(runs)), {
      sourceRoot: 'evals',
      configPath: 'evals/evals.yaml',
    });
    assert.ok(built.length > 1);
    for (const annotation of built) assert.equal(annotation.path, 'evals/evals.yaml');
    const placed = built.filter((a) => a.message.includes('../shared data/extra.csv:'));
    assert.ok(placed.length > 0);
    assert.match(
      placed[0]?.message ?? '',
      /^The row at \.\.\/shared data\/extra\.csv:\d+, outside/,
    );
    for (const command of toWorkflowCommands(built)) assert.doesNotMatch(command.file, /\.\./);
  });
});

describe('a locked conversation (L3)', () => {
  it('says the conversation is locked, not that the token lacks a permission', async () => {
    gh.server.failNext('POST', /\/issues\/7\/comments$/, 403, 1, {
      message: 'Unable to create comment because issue is locked.',
      documentation_url: 'https://docs.github.com/articles/locking-conversations/',
      status: '403',
    });
    let thrown: unknown;
    try {
      await gh.octokit.rest.issues.createComment({ ...repo, issue_number: 7, body: 'hi' });
    } catch (error) {
      thrown = error;
    }
    const failure = toReportingFailure(thrown, 'create the PR comment', 'pull-requests: write');
    assert.equal(failure.code, 'github.forbidden');
    assert.match(failure.message, /issue is locked\. \(the pull request's conversation is locked/);
    assert.doesNotMatch(failure.message, /fork|permissions:/);
  });
});
