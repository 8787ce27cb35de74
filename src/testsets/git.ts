import type { ExecFileException } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';

/**
 * Reads testset files as of a git revision (`ref:` in `evals.yaml`). The one module that runs
 * `git`: always through `execFile` (no shell), with the ref and the path as separate arguments,
 * and only with read-only plumbing (`rev-parse`, `ls-tree`, `cat-file`, `log`), so the working
 * tree and the index are never touched.
 */

/** Stable kinds of git failure; branch on these, never on the message. */
export type GitErrorCode =
  | 'git.unavailable'
  | 'git.not-repo'
  | 'git.unknown-ref'
  | 'git.shallow'
  | 'git.path-absent'
  | 'git.failed';

/** A git problem: what is wrong and how to fix it, in one message for the user. */
export interface GitError {
  code: GitErrorCode;
  message: string;
}

/** A value, or the git problem that prevented it. */
export type GitResult<T> = { ok: true; value: T } | { ok: false; error: GitError };

/** A file's content at a commit, with where it was read from. */
export interface FileAtRef {
  /** The file's text, decoded as UTF-8 with any BOM kept (the CSV reader strips it). */
  text: string;
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
}

/** A local git call is instant; a minute only guards against a hung credential helper or NFS. */
const TIMEOUT_MS = 60_000;
/** Large testsets are read whole into memory; the default 1 MiB of execFile would cut them. */
const MAX_BUFFER = 256 * 1024 * 1024;
/** Symlinks at a ref are followed this many times before giving up (a loop, most likely). */
const MAX_SYMLINK_HOPS = 8;

/** Top folder of the repository holding `dir` (its real path, as git prints it). */
export async function repoRoot(dir: string): Promise<GitResult<string>> {
  return findRoot(resolve(dir), 'a testset ref: cannot be read');
}

/**
 * Full commit sha a ref (branch, tag, sha or prefix, `HEAD~2`, `origin/main`) names, looked up in
 * the repository holding the folder `repo`.
 */
export async function resolveCommit(repo: string, ref: string): Promise<GitResult<string>> {
  // A leading '-' would be read as an option; NUL and newlines cannot be passed or are no ref.
  if (ref === '' || ref.startsWith('-') || /[\0\n\r]/.test(ref)) {
    return fail('git.unknown-ref', `${unknownRefIntro(ref, repo)}: ${REF_NAME_HINT}`);
  }
  const run = await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (run.kind === 'broken') return { ok: false, error: run.error };
  const sha = run.stdout.toString('utf8').trim();
  if (run.exitCode === 0 && sha !== '') return { ok: true, value: sha };
  if (run.exitCode !== 1) {
    return { ok: false, error: notRepoOr(run, repo, `ref: ${ref} cannot be read`, `ref: ${ref}`) };
  }
  // A pull-request checkout in CI has origin/main but no local main: `ref: main` should still
  // mean the base branch there, as it does on a laptop. The artifact records the commit used.
  const remote = await git(repo, [
    'rev-parse',
    '--verify',
    '--quiet',
    `refs/remotes/origin/${ref}^{commit}`,
  ]);
  const remoteSha = remote.kind === 'broken' ? '' : remote.stdout.toString('utf8').trim();
  if (remote.kind !== 'broken' && remote.exitCode === 0 && remoteSha !== '') {
    return { ok: true, value: remoteSha };
  }
  return { ok: false, error: await unknownRef(repo, ref) };
}

/**
 * A file's text as of `ref`, read from git's object store: the working tree and the index are
 * never touched, so uncommitted edits neither show up nor get lost. `absPath` is an absolute path
 * inside the repository; the file need not exist in the working tree. A symlink committed at the
 * path is followed inside the repository.
 */
export async function readFileAtRef(absPath: string, ref: string): Promise<GitResult<FileAtRef>> {
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
        `${path} is a folder at ref ${JSON.stringify(ref)} (commit ${short(sha)}), not a file: point path: at a file inside it`,
      );
    }
    if (type !== 'blob') {
      return fail(
        'git.failed',
        `${path} is a submodule at ref ${JSON.stringify(ref)} (commit ${short(sha)}): a testset must be a file of this repository`,
      );
    }
    const blob = await git(repo, ['cat-file', 'blob', object]);
    if (blob.kind === 'broken') return { ok: false, error: blob.error };
    if (blob.exitCode !== 0) return { ok: false, error: exitError(blob, repo, `${path}@${ref}`) };
    // Buffer#toString keeps a leading BOM (U+FEFF), as readFile(…, 'utf8') does.
    const text = blob.stdout.toString('utf8');
    if (mode !== SYMLINK_MODE) {
      if (text.startsWith(LFS_POINTER)) {
        return fail(
          'git.failed',
          `${path} at ref ${JSON.stringify(ref)} is a Git LFS pointer, not the testset: git stores LFS files outside its history, so keep testsets read with ref: out of LFS (see .gitattributes)`,
        );
      }
      return { ok: true, value: { text, commit: sha, repo, relPath: path } };
    }
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
  const located = await locate(absPath, 'its git history cannot be read');
  if (!located.ok) return located;
  const { repo, relPath } = located.value;
  // -z ends each record with NUL; the sha and the strict ISO date hold no space, so the subject
  // (which %s keeps on one line) is everything after the second space.
  const run = await git(repo, [
    '-c',
    'log.showSignature=false',
    'log',
    '--follow',
    '-z',
    '--encoding=UTF-8',
    '--format=%H %aI %s',
    '--',
    relPath,
  ]);
  if (run.kind === 'broken') return { ok: false, error: run.error };
  if (run.exitCode !== 0)
    return { ok: false, error: exitError(run, repo, `history of ${relPath}`) };
  const commits: FileCommit[] = [];
  for (const record of run.stdout.toString('utf8').split('\0')) {
    const match = /^\s*([0-9a-f]+) (\S+) ?(.*)$/s.exec(record);
    if (match?.[1] && match[2]) {
      commits.push({ commit: match[1], date: match[2], subject: match[3] ?? '' });
    }
  }
  return { ok: true, value: commits };
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
): Promise<GitResult<{ repo: string; relPath: string }>> {
  const full = resolve(absPath);
  const dir = dirname(full);
  const existing = await nearestExisting(dir);
  const root = await findRoot(dir, purpose, existing);
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
): Promise<GitResult<string>> {
  const from = existing ?? (await nearestExisting(dir));
  const run = await git(from.real, ['rev-parse', '--show-toplevel']);
  if (run.kind === 'broken') return { ok: false, error: run.error };
  const top = run.stdout.toString('utf8').trim();
  if (run.exitCode === 0 && top !== '') {
    // git already prints a real path; realpath again for platforms where it does not (Windows).
    return { ok: true, value: await realpath(top).catch(() => resolve(top)) };
  }
  return { ok: false, error: notRepoOr(run, from.real, purpose, 'the repository', dir) };
}

/** git.not-repo when git said there is no repository at `cwd`, else git.failed. */
function notRepoOr(
  run: Extract<GitRun, { kind: 'exited' }>,
  cwd: string,
  purpose: string,
  what: string,
  shownDir = cwd,
): GitError {
  // git's only signal for "no repository here" is its (LC_ALL=C, so English) message.
  if (!/not a git repository/i.test(run.stderr)) return exitError(run, cwd, what);
  return {
    code: 'git.not-repo',
    message: `${shownDir} is not inside a git repository, so ${purpose} (remove ref:, or run from a clone)`,
  };
}

// ---------------------------------------------------------------------------------------------
// Refs

const REF_NAME_HINT =
  'check the name with git branch -a / git tag; remote branches are origin/<name>';

function unknownRefIntro(ref: string, repo: string): string {
  return `unknown git ref ${JSON.stringify(ref)} in ${repo}`;
}

/** Why `ref` did not resolve: a shallow clone missing history, or a name git does not know. */
async function unknownRef(repo: string, ref: string): Promise<GitError> {
  const shallow = await git(repo, ['rev-parse', '--is-shallow-repository']);
  if (shallow.kind === 'exited' && shallow.stdout.toString('utf8').trim() === 'true') {
    // HEAD~2 or a sha cut off by the boundary cannot be fetched by name; a branch or tag can.
    const fetch = /[~^@:]/.test(ref) ? 'git fetch --unshallow' : `git fetch origin ${ref}`;
    return {
      code: 'git.shallow',
      message:
        `${repo} is a shallow clone and lacks ref ${JSON.stringify(ref)} (or the commits it needs): ` +
        `fetch the history: in GitHub Actions give actions/checkout \`fetch-depth: 0\`, or run \`${fetch}\` ` +
        `before evals; if the name itself may be wrong, ${REF_NAME_HINT}`,
    };
  }
  const hints = [REF_NAME_HINT];
  const remotes = await remoteBranchesNamed(repo, ref);
  if (remotes.length > 0) {
    // Typical in CI: a PR checkout has origin/main but no local main branch.
    hints.unshift(
      `there is no local ${JSON.stringify(ref)}, but there is ${remotes.join(', ')}: write ref: ${remotes[0]}`,
    );
  } else if (/^[0-9a-f]{4,39}$/i.test(ref)) {
    hints.push('a short sha must be unique and at least 4 digits: try more digits');
  }
  return { code: 'git.unknown-ref', message: `${unknownRefIntro(ref, repo)}: ${hints.join('; ')}` };
}

/** Remote-tracking branches `<remote>/<ref>`, e.g. `origin/main` for `main`. */
async function remoteBranchesNamed(repo: string, ref: string): Promise<string[]> {
  // Only plain branch names: anything else could be a glob pattern to for-each-ref.
  if (!/^[\w.][\w./-]*$/.test(ref)) return [];
  const run = await git(repo, [
    'for-each-ref',
    '--format=%(refname:short)',
    `refs/remotes/*/${ref}`,
  ]);
  if (run.kind === 'broken' || run.exitCode !== 0) return [];
  return run.stdout.toString('utf8').split('\n').filter(Boolean);
}

// ---------------------------------------------------------------------------------------------
// Trees

const SYMLINK_MODE = '120000';
const LFS_POINTER = 'version https://git-lfs.github.com/spec/v1';

interface TreeEntry {
  mode: string;
  type: string;
  object: string;
  name: string;
}

/** The tree entry at `path` in commit `sha`, or null when nothing is there. */
async function treeEntry(
  repo: string,
  sha: string,
  path: string,
): Promise<GitResult<TreeEntry | null>> {
  const run = await git(repo, ['ls-tree', '-z', sha, '--', path]);
  if (run.kind === 'broken') return { ok: false, error: run.error };
  if (run.exitCode !== 0) return { ok: false, error: exitError(run, repo, path) };
  // ls-tree matches by prefix in places; only the exact name counts.
  return { ok: true, value: parseTree(run.stdout).find((e) => e.name === path) ?? null };
}

/** The entries of folder `dir` ('' for the top) in commit `sha`; null when it is no folder. */
async function listFolder(repo: string, sha: string, dir: string): Promise<TreeEntry[] | null> {
  const run = await git(repo, ['ls-tree', '-z', dir === '' ? sha : `${sha}:${dir}`]);
  if (run.kind === 'broken' || run.exitCode !== 0) return null;
  return parseTree(run.stdout);
}

function parseTree(stdout: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of stdout.toString('utf8').split('\0')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(record);
    if (match?.[1] && match[2] && match[3] && match[4] !== undefined) {
      entries.push({ mode: match[1], type: match[2], object: match[3], name: match[4] });
    }
  }
  return entries;
}

/**
 * The path-absent error, with a hint found by walking the path at the ref: the same file under
 * another case (git is case-sensitive even where the disk is not), the files of the folder when
 * the folder exists, or the first folder that does not.
 */
async function pathAbsent(
  repo: string,
  sha: string,
  ref: string,
  path: string,
  asked: string,
): Promise<GitError> {
  const parts = path.split('/');
  const name = parts.pop() ?? path;
  let hint = '';
  let folder = '';
  let found = true;
  for (const part of parts) {
    const entries = (await listFolder(repo, sha, folder)) ?? [];
    const trees = entries.filter((e) => e.type === 'tree');
    const match =
      trees.find((e) => e.name === part) ??
      trees.find((e) => e.name.toLowerCase() === part.toLowerCase());
    if (match === undefined) {
      hint = `the folder ${folder === '' ? part : `${folder}/${part}`} does not exist there either`;
      found = false;
      break;
    }
    folder = folder === '' ? match.name : `${folder}/${match.name}`;
  }
  if (found) {
    const entries = ((await listFolder(repo, sha, folder)) ?? []).filter((e) => e.type !== 'tree');
    const sameName = entries.find((e) => e.name.toLowerCase() === name.toLowerCase());
    const where = folder === '' ? '' : `${folder}/`;
    if (sameName !== undefined) {
      hint = `it exists there as ${where}${sameName.name} (git paths are case-sensitive, so fix the case in path:)`;
    } else if (where !== '') {
      const shown = entries.slice(0, 5).map((e) => e.name);
      const more = entries.length > shown.length ? ', …' : '';
      hint =
        entries.length === 0
          ? `the folder ${folder} exists there but holds no files`
          : `the folder ${folder} exists there, with ${shown.join(', ')}${more}`;
    }
  }
  const redirected = path === asked ? '' : ` (the symlink ${asked} points there)`;
  return {
    code: 'git.path-absent',
    message:
      `${path}${redirected} does not exist at ref ${JSON.stringify(ref)} (commit ${short(sha)})` +
      `${hint === '' ? '' : `: ${hint}`}; if it was added later, moved or renamed, ` +
      `run git log --follow -- ${asked} at the repository root (${repo}) to see where it went`,
  };
}

function short(sha: string): string {
  return sha.slice(0, 12);
}

// ---------------------------------------------------------------------------------------------
// Running git

type GitRun =
  | { kind: 'exited'; exitCode: number; stdout: Buffer; stderr: string; args: string[] }
  | { kind: 'broken'; error: GitError };

/**
 * The environment for git: variables that point git at another repository or index (set inside
 * git hooks, for instance) are dropped, because the repository is the one holding the file.
 * Messages are in English because not-repo is recognised by git's text; optional locks are off so
 * a read never takes `index.lock` from a concurrent `git` of the user's.
 */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
    'GIT_COMMON_DIR',
    'GIT_PREFIX',
  ]) {
    delete env[name];
  }
  return {
    ...env,
    LC_ALL: 'C',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_LITERAL_PATHSPECS: '1',
  };
}

async function git(cwd: string, args: string[]): Promise<GitRun> {
  // Loaded on first use: a run whose testsets have no git ref never needs it, and child_process
  // (with the net and dgram modules it pulls in) is ~0.5 MB of every run's memory otherwise.
  const { execFile } = await import('node:child_process');
  const { error, stdout, stderr } = await new Promise<{
    error: ExecFileException | null;
    stdout: Buffer;
    stderr: Buffer;
  }>((done) => {
    execFile(
      'git',
      args,
      {
        cwd,
        env: gitEnv(),
        encoding: 'buffer',
        maxBuffer: MAX_BUFFER,
        timeout: TIMEOUT_MS,
        windowsHide: true,
      },
      (error, stdout, stderr) => done({ error, stdout, stderr }),
    );
  });
  const errText = stderr.toString('utf8');
  if (error === null) return { kind: 'exited', exitCode: 0, stdout, stderr: errText, args };
  if (typeof error.code === 'number') {
    return { kind: 'exited', exitCode: error.code, stdout, stderr: errText, args };
  }
  return { kind: 'broken', error: await brokenError(error, cwd, args) };
}

/** git did not run to an exit code: not installed, killed at the timeout, or too much output. */
async function brokenError(
  error: ExecFileException,
  cwd: string,
  args: string[],
): Promise<GitError> {
  const command = `git ${args.join(' ')}`;
  if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
    return {
      code: 'git.failed',
      message: `${command} printed more than ${MAX_BUFFER / 1024 / 1024} MiB: split the testset into smaller files`,
    };
  }
  if (error.code === 'ENOENT' || error.code === 'EACCES') {
    // spawn reports a missing working folder as ENOENT too; only blame git when the folder exists.
    const cwdExists = await stat(cwd).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!cwdExists) {
      return {
        code: 'git.failed',
        message: `the folder ${cwd} does not exist: point path: at a file in a clone`,
      };
    }
    return {
      code: 'git.unavailable',
      message: `git could not be run (${error.code}): install git and put it on PATH, or remove ref: from the testsets`,
    };
  }
  if (error.killed || error.signal) {
    return {
      code: 'git.failed',
      message: `${command} in ${cwd} did not finish within ${TIMEOUT_MS / 1000}s (${error.signal ?? 'killed'}): run it by hand to see what it waits for`,
    };
  }
  return { code: 'git.failed', message: `${command} could not run in ${cwd}: ${error.message}` };
}

/** An unexpected non-zero exit: git's own first line says what went wrong. */
function exitError(run: Extract<GitRun, { kind: 'exited' }>, cwd: string, what: string): GitError {
  const line = run.stderr
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim();
  return {
    code: 'git.failed',
    message: `git failed reading ${what}: ${line ?? `exit code ${run.exitCode}`} (run git ${run.args.join(' ')} in ${cwd} to see the full error)`,
  };
}

function fail(code: GitErrorCode, message: string): { ok: false; error: GitError } {
  return { ok: false, error: { code, message } };
}
