/**
 * With `trials: 3`, an evaluation that errored in one trial and scored in the others combines
 * to the mean of the trials that scored, with no error: the summary's `errors` stayed 0, so the
 * gate's mean rule took that mean as if every trial had scored (two trials of 1 and one that
 * errored passed `gte: 0.9`). The errored trials are now bounded as errored evaluations are
 * (run/mean-bounds.ts): had it scored 0 the case's mean would be 2/3. The real CLI.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { gateCondition } from './helpers/read-artifact.ts';

/**
 * A suite `s` of `rows` (recorded outputs) scored by `judge`, exported by `judgeModule`, and
 * gated by `mean` on it; over `trials` trials when given, `threshold` on the evaluator when given.
 */
function project(
  rows: Record<string, unknown>[],
  judgeModule: string,
  mean: string,
  options: { trials?: number; threshold?: string } = {},
): string {
  const dir = scratch();
  const threshold = options.threshold === undefined ? '' : `, threshold: ${options.threshold}`;
  writeFiles(dir, {
    'rows.jsonl': `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`,
    'judge.mjs': judgeModule,
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.jsonl }',
      ...(options.trials === undefined ? [] : [`    trials: ${options.trials}`]),
      '    evaluators:',
      `      - { id: judge, use: ./judge.mjs#judge${threshold} }`,
      `    gate: { evaluators: { judge: { mean: ${mean} } } }`,
      '',
    ].join('\n'),
  });
  return dir;
}

/** Ten cases scored 1 by `judge`, which errors in trial 2 of case q0 only, over 3 trials. */
function erroringTrial(mean: string): string {
  return project(
    Array.from({ length: 10 }, (_, i) => ({ q: `q${i}`, output: 'x' })),
    [
      'export const judge = {',
      '  evaluateTestCase: ({ testCase, trial }) => {',
      "    if (testCase.q === 'q0' && trial === 2) throw new Error('judge timed out');",
      '    return { score: 1 };',
      '  },',
      '};',
      '',
    ].join('\n'),
    mean,
    { trials: 3 },
  );
}

interface Artifact {
  runs: {
    summary: { evaluators: Record<string, Record<string, unknown>> };
    cases: { evaluations: { metadata: Record<string, unknown>; error: string | null }[] }[];
  }[];
}

function mean(dir: string): { actual: string; passed: boolean } | undefined {
  const condition = gateCondition(join(dir, 'out.json'), 'evaluators.judge.mean');
  return condition && { actual: condition.actual, passed: condition.passed };
}

describe('a mean rule over trials of which one errored', () => {
  it('is bounded as if that trial scored 0 or 1, not taken over the others alone', async () => {
    // 9 cases at 1 and q0 between 2/3 and 1: the mean lies in [0.9667, 1], so gte 0.99 is
    // not decided (it passed before, on a mean of 1).
    const dir = erroringTrial('{ gte: 0.99 }');
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as Artifact;
    const run = artifact.runs[0]!;
    assert.deepEqual(run.cases[0]?.evaluations[0]?.metadata, {
      trials: 3,
      scored: 2,
      passedTrials: 0,
      erroredTrials: 1,
    });
    assert.deepEqual(run.summary.evaluators.judge?.erroredTrials, {
      trials: 1,
      down: -0.333333333333333,
      up: 0,
    });
    assert.deepEqual(mean(dir), {
      actual:
        'not decided: 1 errored trial beside scored ones (mean 1 over the trials that scored; 0.9666 to 1 as they scored 0 or 1)',
      passed: false,
    });
  });

  it('passes when the rule holds wherever the errored trial scored', async () => {
    const dir = erroringTrial('{ gte: 0.95 }');
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(mean(dir), {
      actual:
        'passes even if the 1 errored trial scored 0: mean \u2265 0.9666 (1 over the trials that scored)',
      passed: true,
    });
    assert.match(r.stdout, /note: evaluators\.judge\.mean: .*errored trial/);
  });

  it('reads no errored trials from the metadata of a run without trials', async () => {
    // A custom evaluator's own metadata may use the aggregate's keys: without `trials:` they are
    // its data, and the mean of 1 over every evaluation passes (it was "not decided").
    const dir = project(
      [{ q: 'q0', output: 'x' }],
      'export const judge = () => ({ score: 1, metadata: { scored: 1, erroredTrials: 5 } });\n',
      '{ gte: 0.9 }',
    );
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(mean(dir), { actual: '1', passed: true });
  });

  it("reads no errored trials from a failed trial's own metadata", async () => {
    // A failed evaluation's aggregate carries one failed trial's metadata: the evaluator's own
    // `erroredTrials` there is its data, not trials that errored (none did); gte 0.5 holds.
    const dir = project(
      [{ q: 'q0', output: 'x' }],
      'export const judge = () => ({ score: 0.6, metadata: { erroredTrials: 5 } });\n',
      '{ gte: 0.5 }',
      { trials: 3, threshold: '{ gte: 0.9 }' },
    );
    await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.deepEqual(mean(dir), { actual: '0.6', passed: true });
  });
});
