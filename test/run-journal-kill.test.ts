/**
 * A run killed with no chance to write its partial artifact (SIGKILL, `process.abort()`) keeps
 * its finished cases in the recovery journal beside `-o` (the case lines in its folder, and
 * nothing in the temporary folder), and `evals run --resume` finishes it:
 * on the built CLI, as real child processes killed for real.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import {
  artifactAt,
  caseLines,
  casesFileOf,
  casesFolders,
  calls,
  essence,
  journalOf,
  killedRun,
  project,
  ROWS,
  start,
} from './helpers/journal-run.ts';

describe('evals run: a killed run is resumed from its recovery journal', () => {
  it('kill -9, then --resume: only the missing cases run, and the artifact is an uninterrupted run’s', async () => {
    const dir = project();
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    await killedRun(dir, 3, { TMPDIR: tmp });
    const recovered = caseLines(dir);
    const before = calls(dir);
    assert.ok(!existsSync(join(dir, 'r.json')), 'the killed run wrote no artifact');
    // Its cases are in the journal's folder, written once: none in the journal, none in tmp.
    const journal = readFileSync(journalOf(dir), 'utf8').split('\n');
    assert.deepEqual(
      journal.map((line) => line.slice(0, 2)),
      ['{"', 'F ', ''],
    );
    assert.deepEqual(
      readdirSync(tmp).filter((name) => name.startsWith('evalgate-')),
      [],
      'the killed run left nothing in the temporary folder',
    );
    const r = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(`recovered ${recovered} of ${ROWS} cases from a run killed at `),
    );
    assert.equal(calls(dir) - before, ROWS - recovered, 'only the missing cases ran');
    assert.ok(!existsSync(journalOf(dir)), 'the journal is gone once the results are written');
    assert.deepEqual(casesFolders(dir), [], 'and its folder');
    const resumed = artifactAt(join(dir, 'r.json'));
    const whole = await runCli(['run', '-o', 'whole.json'], { cwd: dir });
    assert.equal(whole.code, 0, whole.stderr);
    assert.deepEqual(essence(resumed), essence(artifactAt(join(dir, 'whole.json'))));
    assert.ok(!existsSync(join(dir, '.whole.json.journal')));
  });

  it('a last line torn by the kill is dropped, not an error', async () => {
    const dir = project();
    await killedRun(dir, 2);
    const recovered = caseLines(dir);
    appendFileSync(casesFileOf(dir), '        {"id":"half-writ');
    const before = calls(dir);
    const r = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`recovered ${recovered} of ${ROWS} cases`));
    assert.match(r.stderr, /cut short by the kill, is dropped/);
    assert.equal(calls(dir) - before, ROWS - recovered);
    assert.equal(artifactAt(join(dir, 'r.json')).runs[0]!.cases.length, ROWS);
  });

  it('process.abort() in user code leaves the journal --resume reads', async () => {
    const dir = project(50);
    const { gone } = start(dir, ['-o', 'r.json'], { ABORT_AT: '6' });
    await gone;
    assert.ok(!existsSync(join(dir, 'r.json')));
    const recovered = caseLines(dir);
    assert.ok(recovered >= 1, 'cases finished before the abort are journaled');
    const r = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`recovered ${recovered} of ${ROWS} cases`));
    assert.equal(artifactAt(join(dir, 'r.json')).runs[0]!.cases.length, ROWS);
  });
});
