import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readGitInfo } from '../src/pipeline/git-info.ts';
import { commitAll, git, newRepo } from './helpers/git.ts';
import { tempFolder } from './helpers/cli.ts';

function repo(): string {
  const dir = newRepo();
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  commitAll(dir, 'first');
  return dir;
}

describe('readGitInfo', () => {
  it('reads the branch and commit from a subfolder, as git rev-parse does', async () => {
    const dir = repo();
    mkdirSync(join(dir, 'evals'));
    assert.deepEqual(await readGitInfo(join(dir, 'evals'), {}), {
      sha: git(dir, 'rev-parse', 'HEAD'),
      ref: 'main',
    });
  });

  it('follows packed refs and detached heads', async () => {
    const dir = repo();
    git(dir, 'pack-refs', '--all');
    assert.equal((await readGitInfo(dir, {}))?.sha, git(dir, 'rev-parse', 'HEAD'));
    git(dir, 'checkout', '-q', '--detach');
    assert.deepEqual(await readGitInfo(dir, {}), { sha: git(dir, 'rev-parse', 'HEAD'), ref: null });
  });

  it('follows a worktree to the shared refs', async () => {
    const dir = repo();
    const tree = join(tempFolder('evalgate-wt-'), 'wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'feature', tree);
    assert.deepEqual(await readGitInfo(tree, {}), {
      sha: git(dir, 'rev-parse', 'HEAD'),
      ref: 'feature',
    });
  });

  it('prefers GitHub variables and gives null outside a repository', async () => {
    assert.deepEqual(
      await readGitInfo(tmpdir(), { GITHUB_SHA: 'abc', GITHUB_HEAD_REF: 'feature/x' }),
      { sha: 'abc', ref: 'feature/x' },
    );
    const outside = tempFolder('evalgate-nogit-');
    assert.equal(await readGitInfo(outside, {}), null);
  });

  it('names the checked-out commit when a GitHub job checked out another than GITHUB_SHA', async () => {
    // A workflow_dispatch (or issue_comment) job that checked out a pull request ran its code.
    const dir = repo();
    git(dir, 'checkout', '-q', '--detach');
    const head = git(dir, 'rev-parse', 'HEAD');
    const env = { GITHUB_SHA: '1'.repeat(40), GITHUB_REF: 'refs/heads/main' };
    assert.deepEqual(await readGitInfo(dir, env), { sha: head, ref: null });
    // The event's own commit checked out: GitHub's names stay.
    const same = { GITHUB_SHA: head, GITHUB_REF: 'refs/pull/7/merge', GITHUB_HEAD_REF: 'feature' };
    assert.deepEqual(await readGitInfo(dir, same), { sha: head, ref: 'feature' });
  });

  it("names the checked-out commit only in the workflow's own repository, not a config kept in another", async () => {
    const dir = repo();
    const head = git(dir, 'rev-parse', 'HEAD');
    const env = {
      GITHUB_SHA: '1'.repeat(40),
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REPOSITORY: 'Octo/App',
    };
    git(dir, 'remote', 'add', 'origin', 'https://github.com/octo/app');
    assert.equal((await readGitInfo(dir, env))?.sha, head, 'the workflow repository, checked out');
    git(dir, 'remote', 'set-url', 'origin', 'git@github.com:octo/shared-evals.git');
    assert.deepEqual(await readGitInfo(dir, env), { sha: '1'.repeat(40), ref: 'refs/heads/main' });
  });
});
