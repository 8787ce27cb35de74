/**
 * A results file that is a FIFO (a named pipe, or `<(…)` in a shell) given to a command that
 * reads one. Opening a FIFO for reading waits for a writer, and evals did it synchronously on
 * the main thread: `evals show fifo` hung for good and did not even end on SIGTERM (README: a
 * damaged results file ends in exit 0, 1 or 2, no hang). Each such file is refused as a config
 * or a testset that is no regular file is (docs/config.md, Limits on input): exit 2 at once.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, scratch } from './helpers/cli.ts';

const REFUSED =
  /^error: pipe\.json: is a FIFO \(named pipe\), not a results file; save the results to a file and name that\n$/m;

function fifoProject(): string {
  const dir = scratch();
  execFileSync('mkfifo', [join(dir, 'pipe.json')]);
  return dir;
}

describe('a results file that is a FIFO', () => {
  const commands: [string, string[]][] = [
    ['show', ['show', 'pipe.json']],
    ['report', ['report', 'pipe.json', '-o', 'r.html']],
    ['compare', ['compare', 'pipe.json', 'pipe.json']],
    ['merge', ['merge', 'pipe.json', '-o', 'm.json']],
  ];
  for (const [name, args] of commands) {
    it(`evals ${name} refuses it at once (exit 2) instead of waiting for a writer`, async () => {
      const dir = fifoProject();
      const r = await runCli(args, { cwd: dir, timeoutMs: 20_000 });
      assert.equal(r.signal, null, 'ended on its own, not killed by the time limit');
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, REFUSED);
    });
  }
});
