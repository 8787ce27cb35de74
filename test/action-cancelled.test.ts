/**
 * A cancelled job, as GitHub cancels one: the runner sends the step's node process SIGINT, then
 * SIGTERM 7.5 s later if it is still running, then kills it 2.5 s after that (docs.github.com,
 * "Workflow cancellation reference"). The run stops at the first signal and its partial results,
 * job summary, check run and comment still go out; a signal while the report is being posted
 * stops every wait for GitHub, and the step ends failed with a line saying it was cancelled,
 * never killed by the signal with nothing said. The built dist/index.js against the fake GitHub
 * on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

const fixture = useActionFixture();
beforeEach(() => {
  fixture.server.state.comments.clear();
  fixture.server.state.checkRuns.clear();
});

/** Three cases run one at a time; the second sends its own process SIGINT, as a cancel does. */
function cancelledAtSecondCase(): ReturnType<typeof workspace> {
  const rows = [
    { expected: 'a', answer: 'a' },
    { expected: 'b', answer: 'b' },
    { expected: 'c', answer: 'c' },
  ];
  const files = suiteFiles(rows, {
    'app/answer.mjs': `export default async ({ testCase }) => {
  if (testCase.answer === 'b') {
    process.kill(process.pid, 'SIGINT');
    // The signal is handled while this case waits: no case starts after it.
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return testCase.answer;
};
`,
  });
  files['evals.yaml'] = (files['evals.yaml'] ?? '').replace(
    'testset: { path: testsets/qa.csv }',
    'testset: { path: testsets/qa.csv }\n    concurrency: 1',
  );
  return workspace(files);
}

describe('the job cancelled while the evals run (SIGINT)', () => {
  it('keeps the partial results, writes the summary, posts the check run and comment, and fails the step', async () => {
    const ws = cancelledAtSecondCase();
    const r = await fixture.run(ws);
    assert.equal(r.signal, null, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const artifact = JSON.parse(readFileSync(join(ws.dir, 'evals-results.json'), 'utf8')) as {
      interrupted?: boolean;
      verdict: string;
    };
    assert.equal(artifact.interrupted, true);
    assert.match(r.summary, /interrupted/);
    const [run] = [...fixture.server.state.checkRuns.values()];
    assert.equal(run?.conclusion, 'failure', r.stdout);
    assert.equal(fixture.server.state.comments.get(7)?.length, 1, r.stdout);
    assert.match(r.stdout, /^::error::/m);
  });
});

describe('the job cancelled while a case still runs: SIGINT, then SIGTERM, as the runner sends them', () => {
  it('still writes the results, the summary, the check run and the comment, and fails the step', async () => {
    const files = suiteFiles(
      [
        { expected: 'a', answer: 'a' },
        { expected: 'b', answer: 'b' },
      ],
      {
        'app/answer.mjs': `export default async ({ testCase }) => {
  if (testCase.answer === 'a') {
    process.kill(process.pid, 'SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The runner's SIGTERM comes while this case is still running.
    process.kill(process.pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return testCase.answer;
};
`,
      },
    );
    files['evals.yaml'] = (files['evals.yaml'] ?? '').replace(
      'testset: { path: testsets/qa.csv }',
      'testset: { path: testsets/qa.csv }\n    concurrency: 1',
    );
    const ws = workspace(files);
    const r = await fixture.run(ws);
    assert.equal(r.signal, null, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const artifact = JSON.parse(readFileSync(join(ws.dir, 'evals-results.json'), 'utf8')) as {
      interrupted?: boolean;
      runs: { cases: unknown[] }[];
    };
    assert.equal(artifact.interrupted, true);
    // The case under way at the SIGINT is not waited for (its 1.3 s ignore the signal), and the
    // next never starts: as Ctrl-C stops `evals run`.
    assert.deepEqual(
      artifact.runs.map((run) => run.cases.length),
      [0],
    );
    assert.match(r.summary, /interrupted/);
    assert.equal([...fixture.server.state.checkRuns.values()][0]?.conclusion, 'failure');
    assert.equal(fixture.server.state.comments.get(7)?.length, 1, r.stdout);
    assert.match(r.stdout, /^::error::evals: the job was cancelled \(SIGINT\)/m);
  });
});

describe('the job cancelled while the report is posted (SIGTERM)', () => {
  it('stops waiting for GitHub, still writes the summary and check run, and says it was cancelled', async () => {
    // The comment is rate-limited for 30 s: the Action waits it out, until the signal comes.
    fixture.server.failNext(
      'POST',
      /\/issues\/7\/comments$/,
      429,
      5,
      { message: 'You have exceeded a secondary rate limit.', documentation_url: 'x' },
      { 'retry-after': '30' },
    );
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), {}, {}, 25_000, (child) => {
      let out = '';
      child.stdout?.on('data', (d: Buffer | string) => {
        out += d.toString();
        if (/retrying in 30 s/.test(out) && !child.killed) child.kill('SIGTERM');
      });
    });
    assert.equal(
      r.signal,
      null,
      `not killed by the signal (nor by the test's bound):\n${r.stdout}`,
    );
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /^::error::evals: the job was cancelled \(SIGTERM\)/m);
    assert.match(r.summary, /Rome/, 'the job summary is written');
    assert.equal(fixture.server.state.checkRuns.size, 1, r.stdout);
    assert.match(r.stdout, /::warning::evalgate: could not (create|post)[^\n]*comment/i);
  });
});
