/**
 * `evals validate` counts case executions as `run --dry-run` does: every case of every run
 * (grid point), once per trial.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

/** Two suites: `s` (3 cases × 2 grid points, `defaults.trials: 2`) and `t` (2 cases, trials 3). */
function project(): string {
  const dir = scratch();
  const lines = [
    'version: 1',
    'defaults: { trials: 2 }',
    'suites:',
    '  - id: s',
    '    testset: { cases: [ { q: a, output: x }, { q: b, output: y }, { q: c, output: z } ] }',
    '    grid: { g: [a, b] }',
    "    evaluators: [ { id: c, use: contains, with: { values: ['x'] } } ]",
    '  - id: t',
    '    trials: 3',
    '    testset: { cases: [ { q: a, output: x }, { q: b, output: y } ] }',
    "    evaluators: [ { id: c, use: contains, with: { values: ['x'] } } ]",
    '',
  ];
  writeFileSync(join(dir, 'evals.yaml'), lines.join('\n'));
  return dir;
}

describe('evals validate counts trials', () => {
  it('says the case executions the dry run plans: grid points × cases × trials', async () => {
    const dir = project();
    const validated = await runInProcess(['validate'], dir);
    assert.equal(validated.code, 0, validated.stderr);
    // s: 2 points × 3 cases × 2 trials = 12; t: 1 × 2 × 3 = 6.
    assert.match(validated.stdout, /is valid: 2 suites, 3 runs, 18 case executions\n$/);
    const planned = await runInProcess(['run', '--dry-run'], dir);
    assert.equal(planned.code, 0, planned.stderr);
    assert.match(planned.stdout, /Total: 2 suites, 3 runs, 18 case executions to run/);
  });
});
