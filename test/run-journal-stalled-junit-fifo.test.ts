/**
 * Two Ctrl-Cs while a stalled run (its journal taken over by another run on the same `-o`,
 * journal-takeover.ts) is writing its `--junit` report: it quits with `130`, its results kept
 * beside `-o`, and names the report that was not written with the command that makes it
 * (docs/cli.md). The timing is the test's own: `--junit` is a FIFO that the test opens and then
 * reads only a few bytes of, and the report is larger than a pipe holds, so the run is blocked
 * in that write when both signals come. Real runs, stopped and signalled for real; every wait
 * bounded, killing the children when it runs out.
 */
import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  constants,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { artifactAt, heldProject, project, takenOver } from './helpers/journal-run.ts';
import { waitUntil, within } from './helpers/wait-until.ts';

/** Rows of the stalled run: its JUnit report (some 140 bytes a case) is twice a pipe's 64 KB. */
const CASES = 1000;
const PIPE = 65_536;
const WAIT_MS = 20_000;

/** Resolves once `child` has written `text` to stderr (bounded by the caller). */
function said(child: ChildProcess, text: string): Promise<void> {
  let stderr = '';
  return new Promise((resolve) => {
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes(text)) resolve();
    });
  });
}

/** Opens the FIFO at `path` to write once a process reads it (bounded), writes `text`, closes. */
async function writeFifo(path: string, text: string): Promise<void> {
  let fd: number | undefined;
  // Once opened, never again: waitUntil asks once more after the last try.
  const opened = () => {
    if (fd !== undefined) return true;
    try {
      fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      return true;
    } catch {
      return false; // ENXIO: nothing reads it yet
    }
  };
  assert.ok(await waitUntil(opened, 100), `something reads ${path}`);
  writeFileSync(fd!, text);
  closeSync(fd!);
}

/** Reads from the FIFO `fd` (opened non-blocking) until some bytes come, bounded: how many. */
async function firstBytes(fd: number): Promise<number> {
  const buffer = Buffer.alloc(16);
  let read = 0;
  const some = () => {
    if (read > 0) return true;
    try {
      read = readSync(fd, buffer);
    } catch {
      // EAGAIN: a writer, nothing written yet
    }
    return read > 0;
  };
  assert.ok(await waitUntil(some, 150), 'the stalled run writes its JUnit report');
  assert.equal(buffer.subarray(0, 5).toString(), '<?xml');
  return read;
}

it('two Ctrl-Cs while a stalled run writes --junit: exit 130, the report named as not written', async () => {
  const dir = project(20);
  const held = heldProject(dir, 0);
  const rows = ['n', ...Array.from({ length: CASES }, (_, i) => String(i + 1)), ''];
  writeFileSync(join(dir, 'a', 'rows.csv'), rows.join('\n'));
  const fifo = join(dir, 'j.xml');
  execFileSync('mkfifo', [fifo]);
  // Run A writes --junit j.xml (the FIFO); run B, which takes its journal over, writes none.
  const { first, second } = await takenOver(dir, [], {
    firstArgs: [...held.config, '--junit', 'j.xml'],
    cases: CASES,
  });
  const kill = () => {
    first.child.kill('SIGKILL');
    second.child.kill('SIGKILL');
  };
  // Non-blocking: open at once with no writer, so the test never waits in a system call.
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const b = await within(second.ended, WAIT_MS, 'the second run to end', kill);
    assert.equal(b.code, 0, b.stderr);
    const seconds = readFileSync(join(dir, 'r.json'), 'utf8');
    first.child.kill('SIGCONT');
    await writeFifo(join(dir, 'a', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    // A has opened j.xml and written its first bytes; the rest does not fit in the pipe, which
    // the test does not read again until A has quit: A is blocked in that write from now on.
    const taken = await firstBytes(reader);
    const stopping = said(first.child, 'stopping: ');
    first.child.kill('SIGINT');
    await within(stopping, WAIT_MS, 'A to say it is stopping', kill);
    const quit = said(first.child, 'quit at the second signal');
    first.child.kill('SIGINT');
    await within(quit, WAIT_MS, 'A to quit at the second signal', kill);
    // Its write fails (EPIPE) once nothing reads the pipe: Node then ends the process.
    closeSync(reader);
    const a = await within(first.ended, WAIT_MS, 'the stalled run to end', kill);

    const pid = first.child.pid!;
    const stalled = `r.stalled-${pid}.json`;
    assert.equal(a.code, 130, a.stderr);
    assert.match(a.stderr, /stopping: every case has finished/);
    assert.match(
      a.stderr,
      new RegExp(
        `r\\.json could not be written \\(its recovery journal was taken over .*\\); the complete file is kept at r\\.stalled-${pid}\\.json`,
      ),
    );
    assert.ok(
      a.stderr.includes(
        `not written: j.xml (--junit); make the JUnit report from them with: evals report ${stalled} --junit j.xml\n`,
      ),
      a.stderr,
    );
    assert.equal(readFileSync(join(dir, 'r.json'), 'utf8'), seconds, '-o is the other run’s');
    const kept = artifactAt(join(dir, stalled));
    assert.equal(kept.interrupted, false);
    assert.equal(kept.runs[0]!.cases.length, CASES);
    // The printed command makes the report (into a file: j.xml is a FIFO nobody reads now),
    // whose size shows that A could not have written it past the few bytes the test read.
    const made = await runCli(['report', stalled, '--junit', 'full.xml'], { cwd: dir });
    assert.equal(made.code, 0, made.stderr);
    assert.ok(statSync(join(dir, 'full.xml')).size > taken + 2 * PIPE);
  } finally {
    kill();
    try {
      closeSync(reader);
    } catch {
      // Closed above.
    }
    await within(Promise.all([first.gone, second.gone]), WAIT_MS, 'the killed runs to go');
  }
});
