/**
 * A run killed after its `-o` holds its whole results, while it still writes another report (a
 * `--junit` FIFO nobody reads yet, for longer than its journal's heartbeat): the journal it
 * touched after writing `-o` must not pass for newer than those results, so no later command
 * replaces the complete artifact with a partial one recovered from it, or keeps that run aside
 * as a killed one.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { waitUntil } from './helpers/wait-until.ts';
import {
  artifactAt,
  casesFolders,
  journalOf,
  killedRun,
  project,
  start,
} from './helpers/journal-run.ts';
import { HEARTBEAT_MS } from '../src/artifact/journal.ts';

describe('evals run: a run killed once -o holds its results', () => {
  it('leaves no journal that passes for newer than its complete artifact', async () => {
    const dir = project(20);
    execFileSync('mkfifo', [join(dir, 'j.xml')]);
    const run = start(dir, ['-o', 'r.json', '--junit', 'j.xml']);
    const output = join(dir, 'r.json');
    try {
      assert.ok(await waitUntil(() => existsSync(output), 100), 'the run wrote -o');
      // Waiting for a reader of j.xml, past a heartbeat (or until the journal is gone).
      const touchedAfter = () =>
        !existsSync(journalOf(dir)) || statSync(journalOf(dir)).mtimeMs > statSync(output).mtimeMs;
      assert.ok(await waitUntil(touchedAfter, (HEARTBEAT_MS + 5_000) / 100));
    } finally {
      run.child.kill('SIGKILL');
      await run.gone;
    }
    const complete = readFileSync(output, 'utf8');
    assert.equal(artifactAt(output).interrupted, false);

    const resumed = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(resumed.code, 2, resumed.stderr);
    assert.match(resumed.stderr, /nothing to resume/);
    assert.doesNotMatch(resumed.stderr, /recovered/);
    assert.equal(readFileSync(output, 'utf8'), complete, 'the complete artifact is as it was');

    const again = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /killed/);
    assert.deepEqual(
      readdirSync(dir).filter((name) => /^r\.killed-/.test(name)),
      [],
      'no run is kept aside as killed',
    );
    assert.deepEqual(casesFolders(dir), [], 'the killed run’s case folder is swept');
  });

  it('a journal touched after a complete artifact was written does not replace it', async () => {
    // A journal whose file was touched after a complete -o was written, its case lines before:
    // what a heartbeat between -o's write and the journal's removal leaves if the run is killed
    // then (here the journal of a killed run, and a complete -o copied over after it).
    const dir = project();
    await killedRun(dir, 3);
    const whole = await runCli(['run', '-o', 'whole.json'], { cwd: dir });
    assert.equal(whole.code, 0, whole.stderr);
    copyFileSync(join(dir, 'whole.json'), join(dir, 'r.json'));
    const complete = readFileSync(join(dir, 'r.json'), 'utf8');
    const later = new Date(statSync(join(dir, 'r.json')).mtimeMs + 2_000);
    utimesSync(journalOf(dir), later, later);
    const resumed = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(resumed.code, 2, resumed.stderr);
    assert.match(resumed.stderr, /nothing to resume/);
    assert.equal(readFileSync(join(dir, 'r.json'), 'utf8'), complete);
  });
});
