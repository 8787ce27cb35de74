/**
 * An evaluator scored without a threshold (a hallucination rate) and gated by an upper bound on
 * its mean (`gate.evaluators.h.mean: { lte: 0.1 }`) was read higher-is-better: under
 * `regressions: block` a significant rise (0.02 → 0.09) passed as `improved`, and a significant
 * fall (0.09 → 0.02) blocked the pull request as a regression. When no evaluation has a bound,
 * the gate's mean rule now gives the direction; thresholds on the evaluations still decide when
 * they have one. The real CLI, run twice with `--baseline`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

const ROWS = ['q', ...Array.from({ length: 20 }, (_, i) => `q${i + 1}`), ''].join('\n');

/** A suite scoring every row with the SCORE of the environment, `evaluator` lines added. */
function project(evaluator: string[] = []): string {
  const dir = scratch();
  writeFiles(dir, {
    'rows.csv': ROWS,
    'rate.mjs': 'export function h() { return { score: Number(process.env.SCORE) }; }\n',
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.csv }',
      '    function: ./rate.mjs#h',
      '    evaluators:',
      '      - id: h',
      '        use: ./rate.mjs#h',
      ...evaluator.map((line) => `        ${line}`),
      '    gate:',
      '      evaluators: { h: { mean: { lte: 0.1 } } }',
      '      regressions: block',
      '',
    ].join('\n'),
  });
  return dir;
}

/** Runs BASE with `base`, then HEAD with `head` against it; HEAD's run and its summary. */
async function compared(dir: string, base: number, head: number) {
  const first = await runCli(['run', '-o', 'base.json'], {
    cwd: dir,
    env: { SCORE: String(base) },
  });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const second = await runCli(['run', '--baseline', 'base.json', '-o', 'head.json'], {
    cwd: dir,
    env: { SCORE: String(head) },
  });
  const artifact = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as {
    runs: { summary: { evaluators: Record<string, { lowerIsBetter?: boolean }> } }[];
  };
  return { run: second, summary: artifact.runs[0]?.summary.evaluators.h };
}

describe('the direction of an evaluator gated only on its mean', () => {
  it('mean: { lte } makes it lower-is-better: a significant rise blocks', async () => {
    const { run, summary } = await compared(project(), 0.02, 0.09);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /✗ regressions: .*got h 0\.020 → 0\.090 \(\+0\.070, lower is better/);
    assert.equal(summary?.lowerIsBetter, true);
  });

  it('and a significant fall is an improvement that passes', async () => {
    const { run } = await compared(project(), 0.09, 0.02);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /h +0\.090 → 0\.020 .*improved/);
    assert.doesNotMatch(run.stdout, /direction changed/);
  });

  it("a threshold on the evaluations decides over the gate's mean rule", async () => {
    const { run, summary } = await compared(project(['threshold: { gte: 0 }']), 0.09, 0.02);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /✗ regressions: .*got h 0\.090 → 0\.020/);
    assert.equal(summary?.lowerIsBetter, undefined);
  });
});
