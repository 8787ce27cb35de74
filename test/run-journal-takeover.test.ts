/**
 * A run stopped (SIGSTOP, as Ctrl-Z stops it) for longer than a live writer leaves its journal
 * untouched, whose journal a second run on the same `-o` takes over: nothing is lost and neither
 * run silently replaces the other's results. The second run keeps the first one's case files
 * (that process still exists); the first, once it goes on, writes its whole results beside
 * `-o` under a name of its own, says so, and exits 3, whichever of the two ends first.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { waitUntil } from './helpers/wait-until.ts';
import {
  artifactAt,
  caseLines,
  casesFolders,
  journalOf,
  project,
  ROWS,
  takenOver,
} from './helpers/journal-run.ts';

const firstsFolder = (dir: string, pid: number | undefined) =>
  join(dir, `.r.json.journal.${pid}.d`);

describe('evals run: a stopped run whose journal another run took over', () => {
  it('writes its results (and JUnit) beside them when it goes on after the other run finished', async () => {
    const dir = project(300);
    const { first, second } = await takenOver(dir, ['--junit', 'j.xml']);
    try {
      const b = await second.ended;
      assert.equal(b.code, 0, b.stderr);
      assert.match(b.stderr, new RegExp(`pid ${first.child.pid}\\) still exists`));
      assert.ok(
        existsSync(firstsFolder(dir, first.child.pid)),
        'the case files of a run that may still go on are left in place',
      );
      const seconds = readFileSync(join(dir, 'r.json'), 'utf8');
      const secondsJUnit = readFileSync(join(dir, 'j.xml'), 'utf8');
      first.child.kill('SIGCONT');
      const a = await first.ended;
      assert.equal(a.code, 3, a.stderr);
      const stalled = `r.stalled-${first.child.pid}.json`;
      assert.match(a.stderr, new RegExp(`r\\.json could not be written .*kept at ${stalled}`));
      assert.equal(readFileSync(join(dir, 'r.json'), 'utf8'), seconds, '-o is the second run’s');
      assert.equal(readFileSync(join(dir, 'j.xml'), 'utf8'), secondsJUnit, 'and so is --junit');
      assert.match(a.stderr, new RegExp(`kept at j\\.stalled-${first.child.pid}\\.xml`));
      assert.match(
        readFileSync(join(dir, `j.stalled-${first.child.pid}.xml`), 'utf8'),
        new RegExp(`tests="${ROWS}"`),
      );
      const kept = artifactAt(join(dir, stalled));
      assert.equal(kept.interrupted, false);
      assert.equal(kept.runs[0]!.cases.length, ROWS, 'every case of the first run is there');
      assert.equal(artifactAt(join(dir, 'r.json')).runs[0]!.cases.length, ROWS);
      assert.ok(readdirSync(dir).some((name) => /^r\.killed-\d+\.json$/.test(name)));
      assert.deepEqual(casesFolders(dir), [], 'each run removed its own case folder');
      assert.equal(existsSync(journalOf(dir)), false);
    } finally {
      first.child.kill('SIGKILL');
      second.child.kill('SIGKILL');
      await Promise.all([first.gone, second.gone]);
    }
  });

  it('leaves -o to the other run when it ends first', async () => {
    const dir = project(300);
    const { first, second } = await takenOver(dir);
    try {
      assert.ok(await waitUntil(() => caseLines(dir) >= 1, 100), 'the second run journaled');
      second.child.kill('SIGSTOP');
      first.child.kill('SIGCONT');
      const a = await first.ended;
      assert.equal(a.code, 3, a.stderr);
      assert.equal(existsSync(join(dir, 'r.json')), false, 'the first run did not write -o');
      const kept = artifactAt(join(dir, `r.stalled-${first.child.pid}.json`));
      assert.equal(kept.runs[0]!.cases.length, ROWS);
      assert.ok(existsSync(journalOf(dir)), 'the second run’s journal is left in place');
      second.child.kill('SIGCONT');
      const b = await second.ended;
      assert.equal(b.code, 0, b.stderr);
      assert.equal(artifactAt(join(dir, 'r.json')).runs[0]!.cases.length, ROWS);
    } finally {
      first.child.kill('SIGKILL');
      second.child.kill('SIGKILL');
      await Promise.all([first.gone, second.gone]);
    }
  });
});
