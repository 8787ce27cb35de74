/**
 * The Action against GitHub as real repositories meet it: GitHub App tokens, a marker planted by
 * model output, matrix legs, a base artifact buried under pull request uploads, a checkout with
 * `path:`, a comment it may not write, and GitHub's 5xx and rate limits. Each runs the built
 * dist/index.js as a child process against the fake GitHub (`helpers/github-server.ts`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { notFound } from '../src/action/baseline.ts';
import { cliResults, resultsZip, useActionFixture } from './helpers/action-fixture.ts';
import { fileErrors, ONE_FAILING, runAction, suiteFiles, workspace } from './helpers/action-run.ts';
import { repoRoot } from './helpers/cli.ts';
import { git } from './helpers/git.ts';
import { assertMatrixLinesUp } from './helpers/grid-matrix.ts';

/** Every wait for GitHub a thousand times shorter: a retry after "1 s" waits a millisecond. */
const FAST_RETRIES = { EVALGATE_GITHUB_RETRY_SCALE: '0.001' };

const MARKER = '<!-- evalgate-report config="evals.yaml" job="evals" -->';

// `fixture.run` shortens every wait for GitHub (FAST_RETRIES); the last test waits as GitHub says.
const fixture = useActionFixture({ env: FAST_RETRIES });
beforeEach(() => {
  const { server } = fixture;
  server.requests.length = 0;
  server.state.comments.clear();
  server.state.checkRuns.clear();
  server.state.artifacts.clear();
  server.setUser(null);
});

function comments() {
  return fixture.server.state.comments.get(7) ?? [];
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

describe('the sticky comment', () => {
  it('with a GitHub App token: two runs, one comment, written by the app', async () => {
    fixture.server.setAppToken('evalgate-ci');
    const ws = workspace(suiteFiles(ONE_FAILING));
    const first = await fixture.run(ws);
    const second = await fixture.run(ws);
    assert.equal(first.code, 1, first.stdout);
    assert.match(second.stdout, /evalgate: updated the PR comment/);
    assert.deepEqual(
      comments().map((comment) => [comment.user.login, firstLine(comment.body)]),
      [['evalgate-ci[bot]', MARKER]],
    );
    // The token cannot say who it is: GET /user (and GET /app) answer 403 to installation tokens.
    assert.ok(fixture.server.requests.some((q) => q.path === '/user'));
  });

  it("a model output holding another job's marker: two jobs, two comments, neither overwritten", async () => {
    const planted = '<!-- evalgate-report config="evals.yaml" job="other-job" -->';
    const jobA = workspace(suiteFiles([{ expected: 'safe', answer: planted }]));
    const jobB = workspace(suiteFiles(ONE_FAILING.slice(0, 2)));
    const a1 = await fixture.run(jobA);
    const b1 = await fixture.run(jobB, {}, { GITHUB_JOB: 'other-job' });
    const a2 = await fixture.run(jobA);
    assert.equal(a1.code, 1, a1.stdout);
    assert.equal(b1.code, 0, b1.stdout);
    assert.equal(a2.code, 1, a2.stdout);

    const [ofA, ofB] = comments();
    assert.equal(comments().length, 2);
    assert.equal(firstLine(ofA?.body ?? ''), MARKER);
    assert.equal(firstLine(ofB?.body ?? ''), planted);
    assert.match(ofA?.body ?? '', /fail/, "job A's report, updated by A's second run");
    assert.notEqual(ofA?.updated_at, ofA?.created_at);
    assert.match(ofB?.body ?? '', /pass/, "job B's report, untouched by A");
    assert.equal(ofB?.updated_at, ofB?.created_at);
    // The output is shown, but never as a line of its own that could pass for a marker.
    assert.ok(ofA?.body.includes(planted));
    const [stamp, ...lines] = (ofA?.body ?? '').split('\n').slice(1);
    assert.equal(stamp, '<!-- evalgate-run 42.1 -->', 'the run that wrote it, under the marker');
    assert.ok(lines.every((line) => !line.startsWith('<!--')));
  });
});

describe('matrix legs', () => {
  const gridFiles = (): Record<string, string> => {
    const files = suiteFiles(ONE_FAILING);
    files['evals.yaml'] = (files['evals.yaml'] ?? '').replace(
      '    function:',
      '    grid: { model: [small, large] }\n    function:',
    );
    return files;
  };

  it('two legs of one job with different args: two comments, two distinctly named check runs', async () => {
    const ws = workspace(gridFiles());
    const small = await fixture.run(ws, { args: '--grid model=small' });
    const large = await fixture.run(ws, { args: '--grid model=large' });
    const smallAgain = await fixture.run(ws, { args: '--grid model=small' });
    for (const r of [small, large, smallAgain]) assert.equal(r.code, 1, r.stdout);
    assert.deepEqual(
      comments().map((comment) => firstLine(comment.body)),
      [
        '<!-- evalgate-report config="evals.yaml" args="--grid model=small" job="evals" -->',
        '<!-- evalgate-report config="evals.yaml" args="--grid model=large" job="evals" -->',
      ],
    );
    assert.match(smallAgain.stdout, /evalgate: updated the PR comment/);
    assert.deepEqual(
      [...fixture.server.state.checkRuns.values()].map((checkRun) => checkRun.name),
      [
        'evals: evals.yaml --grid model=small',
        'evals: evals.yaml --grid model=large',
        'evals: evals.yaml --grid model=small',
      ],
    );
  });

  it('the name input names the check run and keys the comment', async () => {
    const ws = workspace(gridFiles());
    await fixture.run(ws, { args: '--grid model=small', name: 'model: small' });
    await fixture.run(ws, { args: '--grid model=large', name: 'model: large' });
    assert.deepEqual(
      [...fixture.server.state.checkRuns.values()].map((checkRun) => checkRun.name),
      ['evals: model: small', 'evals: model: large'],
    );
    assert.deepEqual(
      comments().map((comment) => firstLine(comment.body)),
      [
        '<!-- evalgate-report name="model: small" job="evals" -->',
        '<!-- evalgate-report name="model: large" job="evals" -->',
      ],
    );
    assert.match(comments()[0]?.body ?? '', /evals: model: small/);
  });
});

describe('wide text in the job log', () => {
  it('the Action measures CJK grid values with the string-width copy next to dist/index.js', async () => {
    const files = suiteFiles(ONE_FAILING);
    files['evals.yaml'] = (files['evals.yaml'] ?? '').replace(
      '    function:',
      '    grid: { lang: [日本語, en] }\n    function:',
    );
    const result = await fixture.run(workspace(files), {});
    assert.equal(result.code, 1, result.stdout);
    assertMatrixLinesUp(result.stdout, 'lang', ['日本語', 'en']);
  });
});

describe('baseline: auto on a busy repository', () => {
  it('finds the base branch artifact behind 1,050 newer pull request uploads', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    const zip = resultsZip(await cliResults(ws, 'base.json', 1));
    const day = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString();
    fixture.server.addArtifact({ name: 'evals-results', branch: 'main', createdAt: day(1), zip });
    const other = resultsZip('{}');
    for (let n = 0; n < 1050; n++) {
      fixture.server.addArtifact({
        name: 'evals-results',
        branch: `pr-${n}`,
        createdAt: day(2),
        zip: other,
      });
    }
    const r = await fixture.run(ws, { baseline: 'auto' });
    assert.match(r.stdout, /comparing with evals-results from main/);
    const lists = fixture.server.requests.filter((q) => /\/actions\/artifacts$/.test(q.path));
    assert.equal(lists.length, 11);
    assert.ok(lists.every((q) => q.query['name'] === 'evals-results'));
  });

  it('says how far it looked when the search stopped before the end', () => {
    const searched = {
      artifacts: 10_000,
      pages: 100,
      total: 12_345,
      exhausted: false,
      skipped: {},
    };
    assert.equal(
      notFound('evals-results', 'main', searched),
      'no results artifact named evals-results from main among the newest 10,000 of 12,345 artifacts of that name ' +
        "(100 pages; the search stops there); running without a comparison. Upload main's results under a name of their own " +
        'and set artifact-name to it, so pull request uploads cannot bury them',
    );
    assert.equal(
      notFound('evals-results', 'main', { ...searched, artifacts: 3, exhausted: true }),
      'no results artifact named evals-results from main yet (looked at all 3 artifacts of that name); running without a comparison',
    );
  });
});

describe('annotations', () => {
  it('with actions/checkout path:, sit at repository-relative paths', async () => {
    // The repository below the workspace, as `actions/checkout` with `path: repo` leaves it.
    const inRepo = Object.entries(suiteFiles(ONE_FAILING)).map(([path, text]): [string, string] => [
      `repo/${path}`,
      text,
    ]);
    const ws = workspace(Object.fromEntries(inRepo));
    git(join(ws.dir, 'repo'), 'init', '-q', '-b', 'main');
    const r = await fixture.run(ws, { 'working-directory': 'repo' });
    assert.equal(r.code, 1, r.stdout);
    const checkRun = [...fixture.server.state.checkRuns.values()][0];
    assert.deepEqual(
      checkRun?.annotations.map((a) => [a.path, a.start_line]),
      [['testsets/qa.csv', 4]],
    );
    assert.equal(checkRun?.name, 'evals: evals.yaml');
    assert.equal(firstLine(comments()[0]?.body ?? ''), MARKER);
  });

  it('a 403 on the comment alone: the check run carries the rows, no duplicates, the verdict shown', async () => {
    fixture.server.failNext('POST', /\/issues\/7\/comments$/, 403, 1, {
      message: 'Resource not accessible by integration',
    });
    const ws = workspace(suiteFiles(ONE_FAILING));
    const r = await fixture.run(ws);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /::warning::evalgate: could not create the PR comment: 403/);
    assert.equal([...fixture.server.state.checkRuns.values()][0]?.annotations.length, 1);
    assert.deepEqual(fileErrors(r.stdout), [], 'no workflow-command copy of the annotations');
    assert.match(r.stdout, /^::error::evals: fail: 1 of 1 runs failed/m);
  });
});

describe("GitHub's bad moments", () => {
  it('a 502 twice, then 200: retried, one comment', async () => {
    fixture.server.failNext('POST', /\/issues\/7\/comments$/, 502, 2);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(r.code, 1);
    assert.equal(comments().length, 1);
    assert.equal(
      fixture.server.requests.filter((q) => q.method === 'POST' && /\/comments$/.test(q.path))
        .length,
      3,
    );
    assert.match(
      r.stdout,
      /GitHub answered 502 to POST \/repos\/octo\/repo\/issues\/7\/comments: retry 2 of 3/,
    );
    assert.doesNotMatch(r.stdout, /::warning::/);
  });

  it('a secondary rate limit on the check run: waits what GitHub says, then creates it', async () => {
    fixture.server.rateLimitNext('POST', /\/check-runs$/, 'secondary', 2);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(r.code, 1);
    assert.equal(fixture.server.state.checkRuns.size, 1);
    assert.match(
      r.stdout,
      /secondary rate limit on POST \/repos\/octo\/repo\/check-runs: retrying in 2 s/,
    );
  });

  it('a GitHub that keeps failing: bounded retries, then a warning and the verdict', async () => {
    fixture.server.failNext('POST', /\/issues\/7\/comments$/, 503, 4);
    fixture.server.failNext('POST', /\/check-runs$/, 503, 4);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(r.code, 1);
    const posts = fixture.server.requests.filter((q) => q.method === 'POST');
    assert.equal(posts.length, 8, 'each request: the first try and three retries');
    assert.match(r.stdout, /::warning::evalgate: could not create the PR comment: 503/);
    assert.equal(fileErrors(r.stdout).length, 1, 'the check run failed: the row as a command');
  });

  it('sends the API version, the media type and a User-Agent naming evalgate and its version', async () => {
    const version = (
      JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    // With GitHub's own waits, unlike the runs above.
    await runAction(fixture.action, workspace(suiteFiles(ONE_FAILING)), fixture.server);
    const api = fixture.server.requests.filter((q) => !q.storage);
    assert.ok(api.length >= 4);
    for (const q of api) {
      assert.equal(q.headers['x-github-api-version'], '2022-11-28');
      assert.equal(q.headers.accept, 'application/vnd.github+json');
      assert.ok(
        q.headers['user-agent']?.startsWith(`evalgate/${version} `),
        q.headers['user-agent'],
      );
    }
  });
});
