/**
 * `evals show --failed` on a run that failed although no case did: an interrupted run (cases
 * never ran) or a gate condition (a mean, minPassRate) that failed with every case passing.
 * Show must say why the run failed instead of "nothing failed".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';

const rows = Array.from({ length: 6 }, (_, n) => ({ n, output: `answer ${n}` }));

function project(gate: string[] = []): string {
  return jsonlProject(rows, [
    'evaluators:',
    '  - { id: says, use: contains, with: { values: [answer] } }',
    '  - { id: short, use: length, with: { max: 1000 } }',
    ...gate,
  ]);
}

describe('evals show --failed on a failed run whose cases all passed', () => {
  it('says the run was interrupted and how many cases never ran', async () => {
    const dir = project();
    assert.equal((await runInProcess(['run', '-o', 'full.json'], dir)).code, 0);
    writeInterrupted(dir, 'full.json', 'p.json', 2);
    const shown = await runInProcess(['show', 'p.json', '--failed'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /0 match --failed/);
    assert.match(shown.stdout, /but the run failed/);
    assert.match(shown.stdout, /✗ complete: expected 6 cases, got 2 finished \(interrupted\)/);
    assert.match(shown.stdout, /interrupted: 4 of its 6 planned cases never ran/);
    assert.doesNotMatch(shown.stdout, /^no case did not pass in the runs selected$/m);
  });

  it('names the gate condition that failed when every case passed', async () => {
    const dir = project([
      'gate:',
      '  evaluators: { says: { mean: { gte: 1.0 } }, short: { mean: { lte: 0.001 } } }',
    ]);
    assert.equal((await runInProcess(['run', '-o', 'r.json'], dir)).code, 1);
    const shown = await runInProcess(['show', 'r.json', '--failed'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /but the run failed/);
    assert.match(shown.stdout, /✗ evaluators\.short\.mean: expected/);
    assert.doesNotMatch(shown.stdout, /evaluators\.says\.mean/);
  });

  it('still says plainly that nothing failed in a run that passed', async () => {
    const dir = project();
    assert.equal((await runInProcess(['run', '-o', 'ok.json'], dir)).code, 0);
    const shown = await runInProcess(['show', 'ok.json', '--failed'], dir);
    assert.match(shown.stdout, /no case did not pass in the runs selected/);
    assert.doesNotMatch(shown.stdout, /run failed/);
  });
});
