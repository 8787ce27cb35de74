import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { exitError, fail, git, notRepoOr, type ExitedRun } from '../src/testsets/git-run.ts';

function exited(stderr: string, exitCode = 128): ExitedRun {
  return { kind: 'exited', exitCode, stdout: Buffer.alloc(0), stderr, args: ['ls-tree', 'HEAD'] };
}

describe('git failures', () => {
  it('fail wraps a code and a message', () => {
    assert.deepEqual(fail('git.failed', 'no'), {
      ok: false,
      error: { code: 'git.failed', message: 'no' },
    });
  });

  it('quotes git’s first line of an unexpected exit, and the command to rerun', () => {
    const error = exitError(exited('\nfatal: bad object HEAD\nmore\n'), '/repo', 'cases.csv');
    assert.deepEqual(error, {
      code: 'git.failed',
      message:
        'git failed reading cases.csv: fatal: bad object HEAD (run git ls-tree HEAD in /repo to see the full error)',
    });
    assert.match(exitError(exited(''), '/repo', 'x').message, /: exit code 128 /);
  });

  it('tells a folder outside any repository from other failures', () => {
    const notRepo = notRepoOr(
      exited('fatal: not a git repository (or any of the parent directories): .git'),
      '/real/dir',
      'a testset ref: cannot be read',
      'the repository',
      '/shown/dir',
    );
    assert.equal(notRepo.code, 'git.not-repo');
    assert.equal(
      notRepo.message,
      '/shown/dir is not inside a git repository, so a testset ref: cannot be read (run from a clone, or drop the ref)',
    );
    const other = notRepoOr(exited('fatal: unsafe repository'), '/dir', 'x', 'ref: main');
    assert.equal(other.code, 'git.failed');
  });

  it('reports a missing working folder as such, not as a missing git', async () => {
    const run = await git(join(tmpdir(), 'evalgate-no-such-folder-4f1c'), ['--version']);
    assert.equal(run.kind, 'broken');
    assert.ok(run.kind === 'broken');
    assert.equal(run.error.code, 'git.failed');
    assert.match(run.error.message, /does not exist/);
  });
});
