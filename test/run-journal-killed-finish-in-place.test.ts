/**
 * A plain run that finds a killed run's journal on its `-o` keeps that run's cases aside
 * (`r.killed-PID.json`) and prints the command that finishes them. That command resumes the kept
 * file in place: with `-o r.json` (or the printing run's `--junit j.xml`) it would write the
 * finished run over the printing run's own results. A real run killed with SIGKILL; the printed
 * command run as printed.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { artifactAt, journalOf, killedRun, project, ROWS } from './helpers/journal-run.ts';

it('the command that finishes a killed run kept aside writes neither -o nor --junit of the run that printed it', async () => {
  const dir = project();
  await killedRun(dir, 2);
  const plain = await runCli(['run', '-o', 'r.json', '--junit', 'j.xml'], { cwd: dir });
  assert.equal(plain.code, 0, plain.stderr);
  const kept = /kept in (r\.killed-\d+\.json)/.exec(plain.stderr)?.[1];
  const command = /`(evals run [^`]+)` finishes it in place/.exec(plain.stderr)?.[1];
  assert.ok(kept !== undefined && command !== undefined, plain.stderr);
  assert.equal(command, `evals run --resume ${kept}`);
  const results = readFileSync(join(dir, 'r.json'), 'utf8');
  const junit = readFileSync(join(dir, 'j.xml'), 'utf8');

  const finished = await runCli(command.split(' ').slice(1), { cwd: dir });
  assert.equal(finished.code, 0, finished.stderr);
  assert.equal(readFileSync(join(dir, 'r.json'), 'utf8'), results, 'r.json is the plain run’s');
  assert.equal(readFileSync(join(dir, 'j.xml'), 'utf8'), junit, 'j.xml is the plain run’s');
  const done = artifactAt(join(dir, kept));
  assert.equal(done.interrupted, false);
  assert.equal(done.runs[0]!.cases.length, ROWS);
  assert.equal(artifactAt(join(dir, 'r.json')).runs[0]!.cases.length, ROWS);
  // Nothing left for a later run to take for a killed one.
  assert.deepEqual(
    readdirSync(dir).filter((name) => name.includes('journal')),
    [],
    `${journalOf(dir)} and its folders are gone`,
  );
});
