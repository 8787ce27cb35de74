/**
 * A second Ctrl-C after the last case of a stalled run (its journal taken over by another run
 * on the same `-o`, journal-takeover.ts): the whole results are written beside `-o`, never over
 * the other run's, and the exit code is `3`, as for every run whose `-o` does not hold its
 * results (docs/cli.md), not the verdict's; `130` when `--junit` is still to be written, with
 * the kept files named. Real runs, stopped and signalled for real.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  artifactAt,
  heldProject,
  project,
  ROWS,
  quitTwice,
  takenOver,
} from './helpers/journal-run.ts';

/**
 * Run A (held after its last case) is stopped and its journal taken over by run B, which
 * finishes; A then goes on and gets two SIGINTs. Resolves with A's end and B's `-o`.
 */
async function stalledQuitAfterLastCase(dir: string, args: string[]) {
  const held = heldProject(dir, 20);
  const { first, second } = await takenOver(dir, args, { firstArgs: held.config, cases: ROWS });
  try {
    const b = await second.ended;
    assert.equal(b.code, 0, b.stderr);
    const seconds = readFileSync(join(dir, 'r.json'), 'utf8');
    const a = await quitTwice(first, held);
    assert.match(a.stderr, /stopping: every case has finished/);
    assert.equal(readFileSync(join(dir, 'r.json'), 'utf8'), seconds, '-o is the other run’s');
    const stalled = `r.stalled-${first.child.pid}.json`;
    const kept = artifactAt(join(dir, stalled));
    assert.equal(kept.interrupted, false, a.stderr);
    assert.equal(kept.runs[0]!.cases.length, ROWS);
    return { a, stalled, pid: first.child.pid };
  } finally {
    first.child.kill('SIGKILL');
    second.child.kill('SIGKILL');
    await Promise.all([first.gone, second.gone]);
  }
}

describe('evals run: a second Ctrl-C after the last case of a stalled run', () => {
  it('writes the whole results beside -o and exits 3, saying why', async () => {
    const dir = project(20);
    const { a, stalled } = await stalledQuitAfterLastCase(dir, []);
    assert.equal(a.code, 3, a.stderr);
    assert.match(
      a.stderr,
      new RegExp(
        `quit at the second signal; the run finished but r\\.json could not be written \\(its recovery journal was taken over .*\\); the complete file is kept at ${stalled.replace('.', '\\.')}, beside the other run's results`,
      ),
    );
  });

  it('with --junit still to write: exits 130, naming the kept files and how to make the report', async () => {
    const dir = project(20);
    const { a, stalled, pid } = await stalledQuitAfterLastCase(dir, ['--junit', 'j.xml']);
    assert.equal(a.code, 130, a.stderr);
    assert.match(a.stderr, /r\.json could not be written \(its recovery journal was taken over/);
    assert.ok(
      a.stderr.includes(
        `not written: j.stalled-${pid}.xml (--junit); make the JUnit report from them with: evals report ${stalled} --junit j.stalled-${pid}.xml\n`,
      ),
      a.stderr,
    );
    assert.equal(existsSync(join(dir, `j.stalled-${pid}.xml`)), false);
  });
});
