/**
 * Reads testset files as of a git revision (`ref:` in `evals.yaml`), and a file's history. git
 * runs only through `git-run.ts`: always through `execFile` (no shell), with the ref and the path
 * as separate arguments, and only with read-only plumbing (`rev-parse`, `ls-tree`, `cat-file`,
 * `log`), so the working tree and the index are never touched.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { resolveCommit } from './git-refs.ts';
import { exitError, fail, git, notRepoOr, type GitResult } from './git-run.ts';
import { pathAbsent, shortSha, SYMLINK_MODE, treeEntry } from './git-tree.ts';

/**
 * A file's bytes at a commit, with where they were read from: the testset readers decode them as
 * they decode a file, refusing what is not UTF-8 with the line and column of a bad byte.
 */
export interface BytesAtRef {
  bytes: Buffer;
  /** Full sha of the commit the ref named. */
  commit: string;
  /** Real path of the repository's top folder. */
  repo: string;
  /**
   * The file's path from the repository's top folder, with `/` separators; when a symlink was
   * committed at the path asked for, the path of the file it leads to.
   */
  relPath: string;
}

/** One commit in a file's history. */
export interface FileCommit {
  /** Full sha. */
  commit: string;
  /** Author date, strict ISO 8601 with the author's UTC offset (`2024-03-01T12:00:00+01:00`). */
  date: string;
  /** First line of the commit message. */
  subject: string;
  /**
   * The file's path at this commit, from the repository's top folder with `/` separators: the
   * path asked for, or, before a rename, the name it had then.
   */
  path: string;
}

/** A file's history: the commits that changed it, newest first, and where its repository is. */
export interface FileHistory {
  /** Real path of the repository's top folder (a commit's `path` is relative to it). */
  repo: string;
  /** The path asked for, from the repository's top folder with `/` separators. */
  relPath: string;
  commits: FileCommit[];
}

/** Symlinks at a ref are followed this many times before giving up (a loop, most likely). */
const MAX_SYMLINK_HOPS = 8;
/** The first line of a Git LFS pointer file, which git stores in place of the file. */
const LFS_POINTER = 'version https://git-lfs.github.com/spec/v1';

/** Top folder of the repository holding `dir` (its real path, as git prints it). */
export async function repoRoot(dir: string): Promise<GitResult<string>> {
  return findRoot(resolve(dir), 'a testset ref: cannot be read');
}

/**
 * A file's bytes as of `ref`, read from git's object store: the working tree and the index are
 * never touched, so uncommitted edits neither show up nor get lost. `absPath` is an absolute path
 * inside the repository; the file need not exist in the working tree. A symlink committed at the
 * path is followed inside the repository.
 */
export async function readBytesAtRef(absPath: string, ref: string): Promise<GitResult<BytesAtRef>> {
  const located = await locate(absPath, `ref: ${ref} cannot be read`);
  if (!located.ok) return located;
  const { repo, relPath } = located.value;
  const commit = await resolveCommit(repo, ref);
  if (!commit.ok) return commit;
  const sha = commit.value;

  let path = relPath;
  for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop++) {
    const entry = await treeEntry(repo, sha, path);
    if (!entry.ok) return entry;
    if (entry.value === null) {
      return { ok: false, error: await pathAbsent(repo, sha, ref, path, relPath) };
    }
    const { mode, type, object } = entry.value;
    if (type === 'tree') {
      return fail(
        'git.path-absent',
        `${path} is a folder at ref ${JSON.stringify(ref)} (commit ${shortSha(sha)}), not a file: point path: at a file inside it`,
      );
    }
    if (type !== 'blob') {
      return fail(
        'git.failed',
        `${path} is a submodule at ref ${JSON.stringify(ref)} (commit ${shortSha(sha)}): a testset must be a file of this repository`,
      );
    }
    const blob = await git(repo, ['cat-file', 'blob', object]);
    if (blob.kind === 'broken') return { ok: false, error: blob.error };
    if (blob.exitCode !== 0) return { ok: false, error: exitError(blob, repo, `${path}@${ref}`) };
    const bytes = blob.stdout;
    if (mode !== SYMLINK_MODE) {
      if (bytes.subarray(0, LFS_POINTER.length).toString('latin1') === LFS_POINTER) {
        return fail(
          'git.failed',
          `${path} at ref ${JSON.stringify(ref)} is a Git LFS pointer, not the testset: git stores LFS files outside its history, so keep testsets read with ref: out of LFS (see .gitattributes)`,
        );
      }
      return { ok: true, value: { bytes, commit: sha, repo, relPath: path } };
    }
    // A symlink's blob is the path it leads to.
    const text = bytes.toString('utf8');
    const target = posix.normalize(posix.join(posix.dirname(path), text));
    if (posix.isAbsolute(text) || target === '..' || target.startsWith('../')) {
      return fail(
        'git.failed',
        `${path} at ref ${JSON.stringify(ref)} is a symlink to ${JSON.stringify(text)}, outside the repository: point path: at the file itself`,
      );
    }
    path = target;
  }
  return fail(
    'git.failed',
    `${relPath} at ref ${JSON.stringify(ref)} is a chain of more than ${MAX_SYMLINK_HOPS} symlinks (a loop?): point path: at the file itself`,
  );
}

/**
 * Commits that changed the file, newest first, following renames. A file never committed has an
 * empty history; in a shallow clone the history stops at the shallow boundary.
 */
export async function fileHistory(absPath: string): Promise<GitResult<FileCommit[]>> {
  const history = await readFileHistory(absPath);
  return history.ok ? { ok: true, value: history.value.commits } : history;
}

/** Starts each commit's record in `git log` output, to tell it from the file names after it. */
const RECORD = '\u0001';

/**
 * {@link fileHistory} with the repository it is in: each commit comes with the file's path
 * there (`--name-only`), so a version from before a rename can be read under its old name.
 */
export async function readFileHistory(absPath: string): Promise<GitResult<FileHistory>> {
  const located = await locate(absPath, 'its git history cannot be read', 'run from a clone');
  if (!located.ok) return located;
  const { repo, relPath } = located.value;
  // A repository with no commit yet (just `git init`) has no history, which `git log` reports
  // as a failure: no commit has touched the file, and the log says so.
  const head = await git(repo, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  if (head.kind === 'broken') return { ok: false, error: head.error };
  if (head.exitCode !== 0) return { ok: true, value: { repo, relPath, commits: [] } };
  // -z ends the record and each file name with NUL; the sha and the strict ISO date hold no
  // space, so the subject (which %s keeps on one line) is everything after the second space.
  const run = await git(repo, [
    '-c',
    'log.showSignature=false',
    'log',
    '--follow',
    '-z',
    '--name-only',
    '--encoding=UTF-8',
    `--format=${RECORD}%H %aI %s`,
    '--',
    relPath,
  ]);
  if (run.kind === 'broken') return { ok: false, error: run.error };
  if (run.exitCode !== 0)
    return { ok: false, error: exitError(run, repo, `history of ${relPath}`) };
  const commits: FileCommit[] = [];
  for (const field of run.stdout.toString('utf8').split('\0')) {
    // A commit's record, then (after a newline) the name the file had in it.
    const text = field.startsWith('\n') ? field.slice(1) : field;
    const match = text.startsWith(RECORD) ? /^([0-9a-f]+) (\S+) ?(.*)$/s.exec(text.slice(1)) : null;
    if (match?.[1] && match[2]) {
      // A commit that names no file (none is known to) keeps the newer commit's name.
      const path = commits.at(-1)?.path ?? relPath;
      commits.push({ commit: match[1], date: match[2], subject: match[3] ?? '', path });
    } else if (text !== '' && commits.length > 0) {
      commits[commits.length - 1]!.path = text;
    }
  }
  return { ok: true, value: { repo, relPath, commits } };
}

// ---------------------------------------------------------------------------------------------
// Locating a path in its repository

/**
 * The repository holding `absPath` and the path inside it. Symlinks in the folders are resolved
 * first (macOS's /tmp is /private/tmp, and git prints real paths); the file's own name is kept,
 * since a symlink committed there is git's business. Folders missing from the working tree are
 * fine: the file may exist only at the ref.
 */
async function locate(
  absPath: string,
  purpose: string,
  hint?: string,
): Promise<GitResult<{ repo: string; relPath: string }>> {
  const full = resolve(absPath);
  const dir = dirname(full);
  const existing = await nearestExisting(dir);
  const root = await findRoot(dir, purpose, existing, hint);
  if (!root.ok) return root;
  const realFile = join(existing.real, relative(existing.path, dir), basename(full));
  const rel = relative(root.value, realFile);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return fail(
      'git.failed',
      `${full} is not a file inside the repository at ${root.value}: point path: at a file inside it`,
    );
  }
  return { ok: true, value: { repo: root.value, relPath: rel.split(sep).join('/') } };
}

/** The closest folder at or above `dir` that exists, as given and as its real path. */
async function nearestExisting(dir: string): Promise<{ path: string; real: string }> {
  for (let current = dir; ; current = dirname(current)) {
    const real = await realpath(current).catch(() => null);
    if (real !== null) return { path: current, real };
    if (dirname(current) === current) return { path: current, real: current };
  }
}

async function findRoot(
  dir: string,
  purpose: string,
  existing?: { path: string; real: string },
  hint?: string,
): Promise<GitResult<string>> {
  const from = existing ?? (await nearestExisting(dir));
  const run = await git(from.real, ['rev-parse', '--show-toplevel']);
  if (run.kind === 'broken') return { ok: false, error: run.error };
  const top = run.stdout.toString('utf8').trim();
  if (run.exitCode === 0 && top !== '') {
    // git already prints a real path; realpath again for platforms where it does not (Windows).
    return { ok: true, value: await realpath(top).catch(() => resolve(top)) };
  }
  return { ok: false, error: notRepoOr(run, from.real, purpose, 'the repository', dir, hint) };
}
