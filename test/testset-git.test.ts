import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileHistory, readBytesAtRef, repoRoot } from '../src/testsets/git.ts';
import { resolveCommit } from '../src/testsets/git-refs.ts';
import { type GitError, type GitErrorCode, type GitResult } from '../src/testsets/git-run.ts';
import { tempFolder } from './helpers/cli.ts';

const identity = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

function git(cwd: string, args: string[], date?: string): string {
  const dates = date === undefined ? {} : { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    // Hermetic: a machine's commit.gpgSign or hooks must not break the fixtures.
    env: {
      ...process.env,
      ...identity,
      ...dates,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: devNull,
    },
  }).trim();
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

function commit(root: string, message: string, date: string): void {
  git(root, ['add', '-A']);
  git(root, ['commit', '-qm', message], date);
}

function newRepo(): string {
  const dir = tempFolder('evalgate-git-');
  git(dir, ['init', '-q', '-b', 'main']);
  return dir;
}

function expectError<T>(result: GitResult<T>, code: GitErrorCode): GitError {
  assert.equal(result.ok, false, `expected ${code}, got ${JSON.stringify(result)}`);
  if (result.ok) throw new Error('unreachable');
  assert.equal(result.error.code, code, result.error.message);
  return result.error;
}

function expectOk<T>(result: GitResult<T>): T {
  if (!result.ok) assert.fail(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

const V1 = '\ufeffcountry,capital\nFrance,Paris\n';
const V2 = `${V1}Spain,Madrid\n`;
const V3 = `${V2}Italy,Rome\n`;
const DIRTY = 'country,capital\nnot,committed\n';

/**
 * One repository for the read tests: three commits to evals/testsets/capitals.csv (the first
 * tagged v1), a file added in the second, a folder added in the second and removed in the third,
 * a committed symlink, and an uncommitted edit in the working tree.
 */
/** `readBytesAtRef` with the bytes as text, as the tests compare them. */
async function readFileAtRef(file: string, ref: string) {
  const read = await readBytesAtRef(file, ref);
  if (!read.ok) return read;
  const { bytes, ...rest } = read.value;
  return { ok: true as const, value: { text: bytes.toString('utf8'), ...rest } };
}

describe('readBytesAtRef', () => {
  let root = '';
  let file = '';
  let shas: string[] = [];

  before(() => {
    root = newRepo();
    write(root, { 'evals/testsets/capitals.csv': V1, 'evals/evals.yaml': 'version: 1\n' });
    commit(root, 'first', '2024-01-01T12:00:00Z');
    git(root, ['tag', 'v1']);
    write(root, {
      'evals/testsets/capitals.csv': V2,
      'evals/testsets/later.jsonl': '{"a":1}\n',
      'old/removed.csv': 'a\n1\n',
    });
    commit(root, 'second', '2024-02-01T12:00:00Z');
    write(root, { 'evals/testsets/capitals.csv': V3 });
    rmSync(join(root, 'old'), { recursive: true });
    symlinkSync('testsets/capitals.csv', join(root, 'evals/link.csv'));
    commit(root, 'third', '2024-03-01T12:00:00Z');
    write(root, { 'evals/testsets/capitals.csv': DIRTY });
    file = join(root, 'evals/testsets/capitals.csv');
    shas = ['HEAD', 'HEAD~1', 'HEAD~2'].map((ref) => git(root, ['rev-parse', ref]));
  });

  it('reads HEAD~2 from the object store, leaving the working tree and index alone', async () => {
    const status = git(root, ['status', '--porcelain']);
    const read = expectOk(await readFileAtRef(file, 'HEAD~2'));
    assert.deepEqual(read, {
      text: V1, // BOM kept for the CSV reader
      commit: shas[2],
      repo: realpathSync(root),
      relPath: 'evals/testsets/capitals.csv',
    });
    assert.equal(readFileSync(file, 'utf8'), DIRTY);
    assert.equal(git(root, ['status', '--porcelain']), status);
  });

  it('resolves tags, branches and short shas', async () => {
    assert.equal(expectOk(await readFileAtRef(file, 'v1')).commit, shas[2]);
    assert.equal(expectOk(await readFileAtRef(file, 'main')).text, V3);
    const short = shas[1]?.slice(0, 7) ?? '';
    const read = expectOk(await readFileAtRef(file, short));
    assert.equal(read.commit, shas[1]);
    assert.equal(read.text, V2);
    assert.equal(expectOk(await resolveCommit(root, 'v1')), shas[2]);
  });

  it('works from a config subfolder, through a symlinked folder', async () => {
    const evals = join(root, 'evals');
    assert.equal(expectOk(await repoRoot(evals)), realpathSync(root));
    assert.equal(expectOk(await resolveCommit(evals, 'HEAD~1')), shas[1]);
    // Like macOS, where /tmp is a symlink to /private/tmp and git prints the real path.
    const alias = join(tempFolder('evalgate-alias-'), 'repo');
    symlinkSync(root, alias);
    const read = expectOk(await readFileAtRef(join(alias, 'evals/testsets/capitals.csv'), 'v1'));
    assert.equal(read.relPath, 'evals/testsets/capitals.csv');
    assert.equal(read.repo, realpathSync(root));
    assert.equal(read.text, V1);
  });

  it('reads a file whose folder is gone from the working tree', async () => {
    const read = expectOk(await readFileAtRef(join(root, 'old/removed.csv'), 'HEAD~1'));
    assert.equal(read.text, 'a\n1\n');
  });

  it('follows a symlink committed at the ref', async () => {
    const read = expectOk(await readFileAtRef(join(root, 'evals/link.csv'), 'HEAD'));
    assert.equal(read.text, V3);
    assert.equal(read.relPath, 'evals/testsets/capitals.csv');
  });

  it('names an unknown ref and says how to find the right name', async () => {
    const error = expectError(await readFileAtRef(file, 'mian'), 'git.unknown-ref');
    assert.match(error.message, /"mian"/);
    assert.match(error.message, /git branch -a \/ git tag; remote branches are origin\/<name>/);
    expectError(await resolveCommit(root, '--output=x'), 'git.unknown-ref');
    expectError(await resolveCommit(root, 'HEAD~9'), 'git.unknown-ref');
  });

  it('falls back to origin/<name> when only the remote-tracking branch exists (a CI checkout)', async () => {
    git(root, ['update-ref', 'refs/remotes/origin/release', 'HEAD~1']);
    assert.equal(expectOk(await resolveCommit(root, 'release')), shas[1]);
    assert.equal(expectOk(await resolveCommit(root, 'origin/release')), shas[1]);
  });

  it("points at another remote's branch of that name", async () => {
    git(root, ['update-ref', 'refs/remotes/upstream/hotfix', 'HEAD~1']);
    const error = expectError(await resolveCommit(root, 'hotfix'), 'git.unknown-ref');
    assert.match(error.message, /write ref: upstream\/hotfix/);
  });

  it('reports a path added after the ref, with the commit and git log --follow', async () => {
    const error = expectError(
      await readFileAtRef(join(root, 'evals/testsets/later.jsonl'), 'v1'),
      'git.path-absent',
    );
    assert.match(error.message, /evals\/testsets\/later\.jsonl does not exist at ref "v1"/);
    assert.match(error.message, new RegExp(`commit ${shas[2]?.slice(0, 12)}`));
    assert.match(error.message, /the folder evals\/testsets exists there, with capitals\.csv/);
    assert.match(error.message, /git log --follow -- evals\/testsets\/later\.jsonl/);
  });

  it('hints at a case mismatch, a missing folder and a folder given as the path', async () => {
    const cased = expectError(
      await readFileAtRef(join(root, 'Evals/testsets/Capitals.csv'), 'HEAD'),
      'git.path-absent',
    );
    assert.match(cased.message, /exists there as evals\/testsets\/capitals\.csv/);
    const folder = expectError(
      await readFileAtRef(join(root, 'nope/x.csv'), 'HEAD'),
      'git.path-absent',
    );
    assert.match(folder.message, /the folder nope does not exist there either/);
    const tree = expectError(
      await readFileAtRef(join(root, 'evals/testsets'), 'HEAD'),
      'git.path-absent',
    );
    assert.match(tree.message, /is a folder at ref "HEAD"/);
  });
});

describe('outside a usable repository', () => {
  it('reports a folder that is not in a repository', async () => {
    const dir = tempFolder('evalgate-nogit-');
    const error = expectError(await readFileAtRef(join(dir, 'a.csv'), 'main'), 'git.not-repo');
    assert.equal(
      error.message,
      `${dir} is not inside a git repository, so ref: main cannot be read (run from a clone, or drop the ref)`,
    );
    expectError(await repoRoot(dir), 'git.not-repo');
    expectError(await resolveCommit(dir, 'main'), 'git.not-repo');
    // Reading a history involves no ref to drop.
    assert.equal(
      expectError(await fileHistory(join(dir, 'a.csv')), 'git.not-repo').message,
      `${dir} is not inside a git repository, so its git history cannot be read (run from a clone)`,
    );
  });

  it("passes on any other git failure with git's first line and the command to rerun", async () => {
    const root = newRepo();
    const error = expectError(await readFileAtRef(join(root, '.git/x.csv'), 'HEAD'), 'git.failed');
    assert.match(error.message, /git failed reading the repository: fatal: /);
    assert.match(
      error.message,
      /run git rev-parse --show-toplevel in .*\.git to see the full error/,
    );
  });

  it('reports git missing from PATH', async () => {
    const saved = process.env.PATH;
    process.env.PATH = tempFolder('evalgate-nopath-');
    try {
      const error = expectError(await repoRoot(tmpdir()), 'git.unavailable');
      assert.match(error.message, /install git/);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('says a shallow clone lacks an older ref, and how CI fetches it', async () => {
    const origin = newRepo();
    write(origin, { 'data.csv': 'a\n1\n' });
    commit(origin, 'one', '2024-01-01T12:00:00Z');
    git(origin, ['tag', 'v1']);
    write(origin, { 'data.csv': 'a\n2\n' });
    commit(origin, 'two', '2024-02-01T12:00:00Z');
    const clone = join(tempFolder('evalgate-shallow-'), 'clone');
    git(tmpdir(), ['clone', '-q', '--depth', '1', `file://${origin}`, clone]);

    const relative = expectError(
      await readFileAtRef(join(clone, 'data.csv'), 'HEAD~1'),
      'git.shallow',
    );
    assert.match(relative.message, /shallow clone and lacks ref "HEAD~1"/);
    assert.match(relative.message, /actions\/checkout `fetch-depth: 0`/);
    assert.match(relative.message, /git fetch --unshallow/);
    const tag = expectError(await resolveCommit(clone, 'v1'), 'git.shallow');
    assert.match(tag.message, /git fetch origin v1/);
    assert.equal(expectOk(await readFileAtRef(join(clone, 'data.csv'), 'HEAD')).text, 'a\n2\n');
  });
});

describe('fileHistory', () => {
  it('lists the commits that changed a file, newest first, across a rename', async () => {
    const root = newRepo();
    write(root, { 'ts/a.csv': 'x\n1\n', 'other.txt': 'o\n' });
    commit(root, 'add a', '2024-01-01T12:00:00Z');
    write(root, { 'ts/a.csv': 'x\n2\n' });
    commit(root, 'edit a', '2024-02-01T12:00:00Z');
    write(root, { 'other.txt': 'p\n' });
    commit(root, 'unrelated', '2024-02-15T12:00:00Z');
    git(root, ['mv', 'ts/a.csv', 'ts/b.csv']);
    commit(root, 'rename a to b', '2024-03-01T12:00:00Z');

    const history = expectOk(await fileHistory(join(root, 'ts/b.csv')));
    assert.deepEqual(
      history.map(({ date, subject }) => ({ date, subject })),
      [
        { date: '2024-03-01T12:00:00+00:00', subject: 'rename a to b' },
        { date: '2024-02-01T12:00:00+00:00', subject: 'edit a' },
        { date: '2024-01-01T12:00:00+00:00', subject: 'add a' },
      ],
    );
    assert.deepEqual(
      history.map((c) => c.commit),
      ['HEAD', 'HEAD~2', 'HEAD~3'].map((ref) => git(root, ['rev-parse', ref])),
    );
    assert.deepEqual(expectOk(await fileHistory(join(root, 'never.csv'))), []);
  });
});
