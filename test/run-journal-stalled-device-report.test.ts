/**
 * A run whose journal another run took over writes its files beside the ones it was asked for,
 * so as not to write over the other run's: regular files only. `--junit /dev/null` (or
 * `/dev/stdout`, a FIFO) is no run's file: it is written as asked, not as a new file
 * `/dev/null.stalled-PID` (refused there, or made in /dev as root), and the command that
 * finishes the run names it as given. A real run stopped, taken over and interrupted.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { it } from 'node:test';
import { project, start, takenOver } from './helpers/journal-run.ts';

it('a stalled run writes --junit /dev/null as asked, and its finish command names it so', async () => {
  const dir = project(300);
  const { first, second } = await takenOver(dir, ['--junit', '/dev/null']);
  const beside = `/dev/null.stalled-${first.child.pid}`;
  try {
    assert.equal((await second.ended).code, 0);
    first.child.kill('SIGCONT');
    first.child.kill('SIGINT');
    const a = await first.ended;
    assert.equal(a.code, 130, a.stderr);
    assert.doesNotMatch(a.stderr, /\/dev\/null could not be written/);
    assert.equal(existsSync(beside), false, `${beside} is not made`);
    const command = /to finish it: (evals run .+)\n/.exec(a.stderr)?.[1];
    assert.equal(
      command,
      `evals run --junit /dev/null --resume r.stalled-${first.child.pid}.json`,
      a.stderr,
    );
    const resumed = await start(dir, command.split(' ').slice(2)).ended;
    assert.equal(resumed.code, 0, resumed.stderr);
  } finally {
    first.child.kill('SIGKILL');
    second.child.kill('SIGKILL');
    await Promise.all([first.gone, second.gone]);
    rmSync(beside, { force: true });
  }
});
