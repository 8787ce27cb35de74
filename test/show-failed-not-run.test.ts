/**
 * `evals show --failed` on an interrupted artifact that has failed cases to show: the cases that
 * never ran have no result either, so the failed ones are not all there is to look at. Show says
 * how many planned cases of the selected runs have no result and the command that runs them.
 * Real interrupts: a case aborts the CLI's signal, as Ctrl-C would.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { interruptedRun, regressionProject, runInProcess } from './helpers/in-process.ts';

const STOP = '__showFailedNotRunStop';

/** 10 rows: c0 and c1 answer wrong, the run is stopped at c6 (concurrency 1: in row order). */
function project(): string {
  return regressionProject(
    `export async function fn({ testCase }) {
  if (testCase.id === 'c6') globalThis.${STOP}?.();
  return testCase.id === 'c0' || testCase.id === 'c1' ? 'bad' : 'ok';
}
`,
    { rows: 10, concurrency: 1 },
  );
}

describe('evals show on an interrupted artifact with cases to show', () => {
  it('--failed says how many planned cases never ran and how to resume', async () => {
    const dir = project();
    await interruptedRun(STOP, ['run', '-o', 'p.json'], dir);
    const shown = await runInProcess(['show', 'p.json', '--failed'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /2 match --failed/);
    const missing =
      /^(\d+) of the 10 planned cases of the run selected never ran and have no result here, passed or not \(p\.json was interrupted\); to run them: evals run --resume p\.json$/m.exec(
        shown.stdout,
      );
    assert.ok(missing, shown.stdout);
    const [head = '', note = ''] = shown.stdout.split('\n\n');
    assert.match(head, /^p\.json: 1 run, \d+ cases; 2 match --failed$/);
    assert.equal(note, missing[0], 'the note comes before the cases');
    const finished = Number(/1 run, (\d+) cases/.exec(head)?.[1]);
    assert.equal(Number(missing[1]), 10 - finished);
  });

  it('names the missing shards of a partial merge, whose cases have no result either', async () => {
    const dir = project();
    const shard = await runInProcess(['run', '--shard', '1/2', '-o', 's1.json'], dir);
    assert.equal(shard.code, 0, shard.stderr);
    const merge = await runInProcess(['merge', 's1.json', '--allow-partial', '-o', 'm.json'], dir);
    assert.equal(merge.code, 1, merge.stderr);
    const shown = await runInProcess(['show', 'm.json'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(
      shown.stdout,
      /^the cases of shard 2 have no result here, passed or not: m\.json is a partial merge .*evals run --shard 2\/2 -o FILE/m,
    );
  });

  // minPassRate: 0 (the project's gate): the finished run passes with its two failed cases.
  it('says nothing of the kind for a run that finished', async () => {
    const dir = project();
    const run = await runInProcess(['run', '-o', 'r.json'], dir);
    assert.equal(run.code, 0, run.stderr);
    const shown = await runInProcess(['show', 'r.json', '--failed'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /2 match --failed/);
    assert.doesNotMatch(shown.stdout, /never ran/);
  });
});
