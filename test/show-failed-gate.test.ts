/**
 * `evals show --failed` on a run that failed although no case did: an interrupted run (cases
 * never ran) or a gate condition (a mean, minPassRate) that failed with every case passing.
 * Show must say why the run failed instead of "nothing failed".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeGateCondition } from '../src/report/gate-line.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';

const rows = Array.from({ length: 6 }, (_, n) => ({ n, output: `answer ${n}` }));

function project(gate: string[] = [], grid: string[] = []): string {
  return jsonlProject(rows, [
    ...grid,
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

  it('words a gate condition as the run summary does', async () => {
    const dir = project(['gate:', '  evaluators: { short: { mean: { lte: 0.001 } } }']);
    const run = await runInProcess(['run', '-o', 'r.json'], dir);
    const artifact = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ResultsArtifact;
    const failed = artifact.runs[0]?.gate.conditions.find((c) => !c.passed);
    assert.ok(failed);
    const line = `✗ ${describeGateCondition(failed)}`;
    assert.ok(run.stdout.includes(line), run.stdout);
    const shown = await runInProcess(['show', 'r.json', '--failed'], dir);
    assert.ok(shown.stdout.includes(line), shown.stdout);
  });
});

describe('evals show --failed on an artifact marked interrupted or partially merged', () => {
  it('asks for the missing shards and a new merge, never --resume, for a partial merge', async () => {
    const dir = project();
    const shard = await runInProcess(['run', '--shard', '1/2', '-o', 's1.json'], dir);
    assert.equal(shard.code, 0, shard.stderr);
    const merge = await runInProcess(['merge', 's1.json', '--allow-partial', '-o', 'm.json'], dir);
    assert.equal(merge.code, 1, merge.stderr);
    const shown = await runInProcess(['show', 'm.json', '--failed'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.doesNotMatch(shown.stdout, /--resume/);
    assert.match(shown.stdout, /partial merge/);
    assert.match(shown.stdout, /shard 1 of 2/);
    assert.match(shown.stdout, /evals run --shard 2\/2/);
    assert.match(shown.stdout, /evals merge/);
  });

  it('does not say a run failed when only the artifact is marked interrupted', async () => {
    const dir = project();
    assert.equal((await runInProcess(['run', '-o', 'full.json'], dir)).code, 0);
    writeInterrupted(dir, 'full.json', 'late.json', rows.length);
    const shown = await runInProcess(['show', 'late.json', '--failed'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.doesNotMatch(shown.stdout, /run failed/);
    assert.match(shown.stdout, /marked interrupted/);
    assert.match(shown.stdout, /every run selected passed/);
  });

  it('speaks only of the selected runs', async () => {
    const dir = project([], ['grid: { k: [a, b] }']);
    assert.equal((await runInProcess(['run', '-o', 'full.json'], dir)).code, 0);
    writeInterrupted(dir, 'full.json', 'p.json', 2, 0);
    const shown = await runInProcess(['show', 'p.json', '--failed', '--grid', 'k=b'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^no case did not pass in the runs selected$/m);
    assert.doesNotMatch(shown.stdout, /interrupted|--resume/);
    const whole = await runInProcess(['show', 'p.json', '--failed'], dir);
    assert.match(whole.stdout, /s · k=a/);
    assert.match(whole.stdout, /evals run --resume p\.json/);
  });
});
