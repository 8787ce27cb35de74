/**
 * Running `git`, and what its failures mean: the one place a git process starts (through
 * `execFile`, no shell), and the mapping of a git that could not run or exited badly to a
 * {@link GitError} that says what is wrong and how to fix it.
 */
import type { ExecFileException } from 'node:child_process';
import { stat } from 'node:fs/promises';

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

/** A git run that reached an exit code, with what it printed and the arguments it had. */
export interface ExitedRun {
  kind: 'exited';
  exitCode: number;
  stdout: Buffer;
  stderr: string;
  args: string[];
}

/** How a git run ended: with an exit code, or broken (not started, killed, too much output). */
export type GitRun = ExitedRun | { kind: 'broken'; error: GitError };

/** A local git call is instant; a minute only guards against a hung credential helper or NFS. */
const TIMEOUT_MS = 60_000;
/** Large testsets are read whole into memory; the default 1 MiB of execFile would cut them. */
const MAX_BUFFER = 256 * 1024 * 1024;

/** A failed {@link GitResult} of `code` and `message`. */
export function fail(code: GitErrorCode, message: string): { ok: false; error: GitError } {
  return { ok: false, error: { code, message } };
}

/**
 * Runs `git args` in `cwd`. A non-zero exit is an `exited` run for the caller to judge (`rev-parse
 * --verify` exits 1 for an unknown ref); only a git that did not run to an exit code is `broken`.
 */
export async function git(cwd: string, args: string[]): Promise<GitRun> {
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
export function exitError(run: ExitedRun, cwd: string, what: string): GitError {
  const line = run.stderr
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim();
  return {
    code: 'git.failed',
    message: `git failed reading ${what}: ${line ?? `exit code ${run.exitCode}`} (run git ${run.args.join(' ')} in ${cwd} to see the full error)`,
  };
}

/** What to do about a missing repository when a ref was asked for (in a config or as FILE@REF). */
export const NOT_REPO_REF_HINT = 'run from a clone, or drop the ref';

/**
 * git.not-repo when git said there is no repository at `cwd` (the message says `purpose` fails,
 * and `hint`), else git.failed.
 */
export function notRepoOr(
  run: ExitedRun,
  cwd: string,
  purpose: string,
  what: string,
  shownDir = cwd,
  hint = NOT_REPO_REF_HINT,
): GitError {
  // git's only signal for "no repository here" is its (LC_ALL=C, so English) message.
  if (!/not a git repository/i.test(run.stderr)) return exitError(run, cwd, what);
  return {
    code: 'git.not-repo',
    message: `${shownDir} is not inside a git repository, so ${purpose} (${hint})`,
  };
}
