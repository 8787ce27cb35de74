/**
 * After a takeover, one run's cases are in two files: the partial the second run kept from the
 * first run's journal (`r.killed-PID.json`, the cases finished when it was stopped) and the file
 * the first run writes beside `-o` when it goes on (`r.stalled-PID.json`). No command joins two
 * partials of one run (`evals merge` takes shards, `--resume` one file), and the second holds
 * every case of the first: both runs say which one to finish, and that command finishes it
 * without touching the second run's `-o`. Real runs, stopped and signalled for real; every wait
 * bounded.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { artifactAt, project, ROWS, takenOver } from './helpers/journal-run.ts';
import { within } from './helpers/wait-until.ts';

const WAIT_MS = 20_000;

it('a stalled run that goes on names the partial kept from it as superseded by its own file', async () => {
  const dir = project(300);
  const { first, second } = await takenOver(dir);
  const kill = () => {
    first.child.kill('SIGKILL');
    second.child.kill('SIGKILL');
  };
  try {
    const b = await within(second.ended, WAIT_MS, 'the second run to end', kill);
    assert.equal(b.code, 0, b.stderr);
    const pid = first.child.pid!;
    const killed = `r.killed-${pid}.json`;
    const stalled = `r.stalled-${pid}.json`;
    assert.ok(
      b.stderr.includes(
        `if it goes on it writes its whole results beside r.json (${stalled}, or its partial results if it is interrupted), not over this run's; that file holds every case in ${killed} too: finish it rather than ${killed}`,
      ),
      b.stderr,
    );
    const seconds = readFileSync(join(dir, 'r.json'), 'utf8');
    // Interrupted with cases left (6 of 8 at 300 ms each, two at a time), or, on a slow machine,
    // whole: either way its file holds every case of the kept partial.
    first.child.kill('SIGCONT');
    first.child.kill('SIGINT');
    const a = await within(first.ended, WAIT_MS, 'the stalled run to end', kill);
    assert.match(
      a.stderr,
      new RegExp(
        `the cases this run had finished when it was taken over are also in ${killed.replace(/\./g, '\\.')}, which that run kept from its journal, and this run's file holds them all: finish or keep this run's file, not ${killed.replace(/\./g, '\\.')}, which can be removed`,
      ),
    );
    const kept = artifactAt(join(dir, killed)).runs[0]!.cases.map((c) => c.id);
    const own = new Set(artifactAt(join(dir, stalled)).runs[0]!.cases.map((c) => c.id));
    assert.ok(kept.length > 0);
    assert.deepEqual(
      kept.filter((id) => !own.has(id)),
      [],
      `${stalled} holds every case of ${killed}`,
    );
    // Its printed command (when interrupted) finishes that file in place, -o left alone.
    const command = /to finish it: (evals run .+)\n/.exec(a.stderr)?.[1];
    if (artifactAt(join(dir, stalled)).interrupted) {
      assert.equal(a.code, 130, a.stderr);
      assert.equal(command, `evals run --resume ${stalled}`, a.stderr);
      const done = await runCli(command.split(' ').slice(1), { cwd: dir });
      assert.equal(done.code, 0, done.stderr);
    } else assert.equal(a.code, 3, a.stderr);
    assert.equal(artifactAt(join(dir, stalled)).runs[0]!.cases.length, ROWS);
    assert.equal(readFileSync(join(dir, 'r.json'), 'utf8'), seconds, '-o is the other run’s');
  } finally {
    kill();
    await within(Promise.all([first.gone, second.gone]), WAIT_MS, 'the killed runs to go');
  }
});
