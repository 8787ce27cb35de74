/** Real temporary git repositories for tests, with a fixed identity so no global config is needed. */
import { execFileSync } from 'node:child_process';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { tempFolder } from './temp.ts';

// A fixed identity, and no global or system config (signing, hooks) that could break fixtures.
const IDENTITY = {
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'evalgate test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'evalgate test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** Runs git in `cwd` and returns its trimmed stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...IDENTITY },
  }).trim();
}

/** A new repository on branch main, in a real (symlink-free) temp path. */
export function newRepo(): string {
  const dir = realpathSync(tempFolder('evalgate-repo-'));
  git(dir, 'init', '-q', '-b', 'main');
  return dir;
}

/** Stages everything and commits; returns the new commit's sha. */
export function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/**
 * A pull request's checkout as actions/checkout leaves it for its test merge commit: in `dir`
 * (files already written), a base branch `main` that moved on after `feature` branched off,
 * and HEAD detached at the merge of `feature` into `main`. The three commits, by name.
 */
export function mergeCheckout(dir: string): { head: string; base: string; merge: string } {
  git(dir, 'init', '-q', '-b', 'main');
  commitAll(dir, 'the base');
  git(dir, 'checkout', '-q', '-b', 'feature');
  writeFileSync(join(dir, 'feature.txt'), 'the change\n');
  const head = commitAll(dir, 'the pull request');
  git(dir, 'checkout', '-q', 'main');
  writeFileSync(join(dir, 'main.txt'), 'the base moved on\n');
  const base = commitAll(dir, 'the base moves on');
  git(dir, 'checkout', '-q', '--detach');
  git(dir, 'merge', '-q', '--no-ff', '-m', 'Merge feature into main', 'feature');
  return { head, base, merge: git(dir, 'rev-parse', 'HEAD') };
}
