/**
 * `evals show --json` carries, as data (`notRun`), what the text note above the cases says of an
 * interrupted artifact or a partial merge: how many planned cases of the selected runs never ran
 * and how to run them; `null` for a complete artifact. Real CLI processes; the interrupt is a
 * real SIGINT the suite's function sends its own process.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { regressionProject } from './helpers/in-process.ts';
import type { NotRun } from '../src/report/show-gate.ts';

/**
 * 10 rows: c0 and c1 answer wrong; with STOP set, c6 sends SIGINT to the CLI and returns once
 * it was heard, so no case starts after it (concurrency 1: in row order).
 */
function project(): string {
  return regressionProject(
    `export async function fn({ testCase }) {
  if (process.env.STOP && testCase.id === 'c6') {
    const heard = new Promise((resolve) => process.once('SIGINT', resolve));
    process.kill(process.pid, 'SIGINT');
    await heard;
  }
  return testCase.id === 'c0' || testCase.id === 'c1' ? 'bad' : 'ok';
}
`,
    { rows: 10, concurrency: 1 },
  );
}

interface ShownJson {
  shown: number;
  matched: number;
  notRun: NotRun | null;
}

async function showJson(dir: string, ...args: string[]): Promise<ShownJson> {
  const shown = await runCli(['show', ...args, '--json'], { cwd: dir });
  assert.equal(shown.code, 0, shown.stderr);
  return JSON.parse(shown.stdout) as ShownJson;
}

describe('evals show --json: the planned cases that never ran', () => {
  it('counts them for an interrupted run, with the command that resumes it, as the note does', async () => {
    const dir = project();
    const run = await runCli(['run', '-o', 'p.json'], { cwd: dir, env: { STOP: '1' } });
    assert.equal(run.code, 130, run.stderr);
    const json = await showJson(dir, 'p.json', '--failed');
    assert.equal(json.matched, 2);
    const notRun = json.notRun;
    assert.ok(notRun, 'notRun is set for an interrupted artifact');
    assert.equal(notRun.planned, 10);
    // c0 and c1 (matched) finished; c6 and the cases after it did not.
    assert.ok(notRun.ran >= 2 && notRun.ran <= 6, `ran ${notRun.ran}`);
    assert.equal(notRun.missing, 10 - notRun.ran);
    assert.equal(notRun.resume, 'evals run --resume p.json');
    assert.equal(notRun.writtenByRunTestSuite, false);
    assert.equal(notRun.shards, null);
    // The text says the same.
    const text = await runCli(['show', 'p.json', '--failed'], { cwd: dir });
    assert.match(
      text.stdout,
      new RegExp(
        `^${notRun.missing} of the 10 planned cases of the run selected never ran .*to run them: evals run --resume p\\.json$`,
        'm',
      ),
    );
  });

  it('names the missing shards of a partial merge and the command for each', async () => {
    const dir = project();
    const shard = await runCli(['run', '--shard', '1/2', '-o', 's1.json'], { cwd: dir });
    assert.equal(shard.code, 0, shard.stderr);
    const merge = await runCli(['merge', 's1.json', '--allow-partial', '-o', 'm.json'], {
      cwd: dir,
    });
    assert.equal(merge.code, 1, merge.stderr);
    const { notRun } = await showJson(dir, 'm.json');
    assert.ok(notRun, 'notRun is set for a partial merge');
    assert.equal(notRun.missing, 0);
    assert.equal(notRun.ran, notRun.planned);
    assert.equal(notRun.resume, null);
    assert.deepEqual(notRun.shards, {
      count: 2,
      merged: [1],
      missing: [2],
      commands: ['evals run --shard 2/2 -o FILE'],
    });
  });

  it('is null for a run that finished', async () => {
    const dir = project();
    const run = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const json = await showJson(dir, 'r.json', '--failed');
    assert.equal(json.matched, 2);
    assert.equal(json.notRun, null);
  });
});
