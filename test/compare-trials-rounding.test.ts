/**
 * Averaging trials must not make a change out of floating-point rounding: the mean of three
 * trials of 0.05 is 0.05000000000000001, and 40 such cases read as a significant regression of
 * 1e-17 (`evals compare` exit 1, the gate failed) although no score changed.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Comparison, EvaluatorChange } from '../src/types/comparison.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/**
 * 40 cases; one evaluator (lower is better) scores every case 0.05, or 0.3 for the first `worse`
 * (the rows are the same whatever `worse` is, so every case pairs).
 */
function project(worse: number): string {
  const rows = Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, n: i }));
  return jsonlProject(
    rows,
    [
      'function: ./fn.mjs#fn',
      'evaluators: [ { id: noise, use: ./noise.mjs#noise, threshold: { lte: 0.2 } } ]',
    ],
    {
      'fn.mjs': 'export function fn({ testCase }) { return testCase.id; }\n',
      'noise.mjs': `export const noise = { evaluateTestCase: ({ testCase }) => ({ score: testCase.n < ${worse} ? 0.3 : 0.05 }) };\n`,
    },
  );
}

/** The `noise` row of `evals compare --json`'s only run. */
function noiseRow(json: string): EvaluatorChange {
  const comparison = JSON.parse(json) as Comparison;
  const row = comparison.runs[0]?.evaluators.find((change) => change.evaluator === 'noise');
  assert.ok(row !== undefined, json);
  return row;
}

describe('comparing with a run of several trials', () => {
  it('identical scores averaged over 3 trials are unchanged, and the gate passes', async () => {
    const dir = project(0);
    const base = await runInProcess(['run', '-o', 'base.json'], dir);
    assert.equal(base.code, 0, base.stderr);
    const head = await runInProcess(['run', '--trials', '3', '-o', 'head.json'], dir);
    assert.equal(head.code, 0, head.stderr);

    const compared = await runInProcess(
      ['compare', 'base.json', 'head.json', '--format', 'json'],
      dir,
    );
    assert.equal(compared.code, 0, compared.stdout + compared.stderr);
    const noise = noiseRow(compared.stdout);
    assert.equal(noise.delta, 0);
    assert.equal(noise.label, 'unchanged');

    const gated = await runInProcess(
      ['run', '--trials', '3', '--baseline', join(dir, 'base.json'), '-o', 'gated.json'],
      dir,
    );
    assert.equal(gated.code, 0, gated.stdout + gated.stderr);
  });

  it('a real change still shows through the averaging', async () => {
    const baseDir = project(0);
    const base = await runInProcess(['run', '-o', 'base.json'], baseDir);
    assert.equal(base.code, 0, base.stderr);
    const dir = project(12);
    const head = await runInProcess(['run', '--trials', '3', '-o', 'head.json'], dir);
    assert.equal(head.code, 1, 'twelve cases score above the threshold');
    const baseFile = join(baseDir, 'base.json');
    const compared = await runInProcess(
      ['compare', baseFile, 'head.json', '--format', 'json'],
      dir,
    );
    const noise = noiseRow(compared.stdout);
    assert.equal(noise.label, 'regressed');
    assert.ok(Math.abs((noise.delta ?? 0) - (12 * 0.25) / 40) < 1e-12, `delta ${noise.delta}`);
  });
});
