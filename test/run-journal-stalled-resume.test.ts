/**
 * The command printed to finish a stalled run that was interrupted: a run whose journal another
 * run took over writes its partial beside `-o` (`r.stalled-PID.json`, journal-takeover.ts), and
 * the command that finishes it must resume that file into itself, its JUnit report beside the
 * other run's too: resumed into `-o`, it would write over the other run's results. Real runs,
 * stopped and interrupted with real signals; the printed command is then run as printed.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resumeCommand } from '../src/cli/run-args.ts';
import {
  artifactAt,
  heldProject,
  project,
  ROWS,
  start,
  quitTwice,
  takenOver,
} from './helpers/journal-run.ts';

/** The command after `to finish it: ` (or `finish the run, which writes them, with: `). */
function finishCommand(stderr: string): string {
  const command = /(?:to finish it|finish the run, which writes them, with): (evals run .+)\n/.exec(
    stderr,
  )?.[1];
  assert.ok(command !== undefined, stderr);
  return command;
}

/** Runs `command` as printed (its words need no quoting here), checks it finished the run. */
async function runPrinted(dir: string, command: string): Promise<void> {
  const words = command.split(' ');
  assert.deepEqual(words.slice(0, 2), ['evals', 'run']);
  const resumed = await start(dir, words.slice(2)).ended;
  assert.equal(resumed.code, 0, resumed.stderr);
}

/**
 * Checks what an interrupted stalled run `first` left and what its printed command does: the
 * other run's `r.json` and `j.xml` (`seconds`) are untouched, and the kept partial is finished
 * in place, with its JUnit report (when `junit`) beside the other run's.
 */
async function finishesBeside(
  dir: string,
  stderr: string,
  pid: number | undefined,
  seconds: { results: string; junit: string },
  { config = [], junit = true }: { config?: string[]; junit?: boolean } = {},
): Promise<void> {
  const stalled = `r.stalled-${pid}.json`;
  assert.equal(artifactAt(join(dir, stalled)).interrupted, true, stderr);
  const command = finishCommand(stderr);
  const reports = junit ? ['--junit', `j.stalled-${pid}.xml`] : [];
  assert.equal(command, ['evals', 'run', ...config, ...reports, '--resume', stalled].join(' '));
  await runPrinted(dir, command);
  assert.equal(readFileSync(join(dir, 'r.json'), 'utf8'), seconds.results, 'r.json untouched');
  const finished = artifactAt(join(dir, stalled));
  assert.equal(finished.interrupted, false);
  assert.equal(finished.runs[0]!.cases.length, ROWS);
  if (!junit) return;
  assert.equal(readFileSync(join(dir, 'j.xml'), 'utf8'), seconds.junit, 'j.xml untouched');
  assert.match(
    readFileSync(join(dir, `j.stalled-${pid}.xml`), 'utf8'),
    new RegExp(`tests="${ROWS}"`),
  );
}

/** What the second run wrote, once it finished. */
async function secondsFiles(dir: string, second: ReturnType<typeof start>) {
  const b = await second.ended;
  assert.equal(b.code, 0, b.stderr);
  return {
    results: readFileSync(join(dir, 'r.json'), 'utf8'),
    junit: existsSync(join(dir, 'j.xml')) ? readFileSync(join(dir, 'j.xml'), 'utf8') : '',
  };
}

describe('evals run: an interrupted stalled run prints a command that finishes it beside -o', () => {
  it('Ctrl-C: the command resumes the kept partial into itself, not into -o', async () => {
    const dir = project(300);
    const { first, second } = await takenOver(dir, ['--junit', 'j.xml']);
    try {
      const seconds = await secondsFiles(dir, second);
      first.child.kill('SIGCONT');
      first.child.kill('SIGINT');
      const a = await first.ended;
      assert.equal(a.code, 130, a.stderr);
      await finishesBeside(dir, a.stderr, first.child.pid, seconds);
    } finally {
      first.child.kill('SIGKILL');
      second.child.kill('SIGKILL');
      await Promise.all([first.gone, second.gone]);
    }
  });

  for (const junit of [true, false]) {
    it(`a second Ctrl-C while the partial is written: the same command (${junit ? 'with' : 'no'} --junit)`, async () => {
      const dir = project(300);
      // Once its cases have stopped, the first run waits with its partial not written yet.
      const held = heldProject(dir, 300);
      const reports = junit ? ['--junit', 'j.xml'] : [];
      const { first, second } = await takenOver(dir, reports, { firstArgs: held.config });
      try {
        const seconds = await secondsFiles(dir, second);
        const a = await quitTwice(first, held);
        assert.equal(a.code, 130, a.stderr);
        assert.match(a.stderr, /quit at the second signal/);
        held.unhold();
        await finishesBeside(dir, a.stderr, first.child.pid, seconds, {
          config: held.config,
          junit,
        });
      } finally {
        first.child.kill('SIGKILL');
        second.child.kill('SIGKILL');
        await Promise.all([first.gone, second.gone]);
      }
    });
  }
});

describe('resumeCommand beside the files another run holds', () => {
  const beside = (file: string) => file.replace(/(\.\w+)$/, '.stalled-7$1');
  it('resumes the kept partial into itself and names each report beside its own', () => {
    assert.equal(
      resumeCommand(
        ['-o', 'r.json', '--junit=j.xml', '--report', 'h.html', '--trials', '2'],
        'r.stalled-7.json',
        undefined,
        beside,
      ),
      'evals run --junit=j.stalled-7.xml --report h.stalled-7.html --trials 2 --resume r.stalled-7.json',
    );
  });
  it('without it, a kept copy is still resumed into -o', () => {
    assert.equal(
      resumeCommand(['-o', 'r.json', '--junit', 'j.xml'], '/tmp/kept.json'),
      'evals run --junit j.xml --resume /tmp/kept.json -o r.json',
    );
  });
});
