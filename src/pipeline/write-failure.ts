/**
 * What a command says when a file it finished could not be written (exit 3): `evals run`'s
 * results and reports, `evals merge`'s combined artifact. The work is done by then, so the file
 * goes to a fallback in the system's temporary folder rather than being lost.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { WriteFailure } from '../report/file-reports.ts';
import type { Diversion } from './journal-takeover.ts';
import { WriteKeptError } from '../shared/write-file-atomic.ts';

/**
 * Where a report goes when its own path fails after the run: the system's temporary folder,
 * named after it, so the results of a long run are not lost to a full or read-only disk.
 */
export function fallbackPath(path: string): string {
  return join(
    tmpdir(),
    `evalgate-${process.pid}-${randomBytes(4).toString('hex')}-${basename(path)}`,
  );
}

/**
 * The options of a run's report file `path` (as given, relative to `cwd`): a failure to write it
 * is pushed onto `unwritten`, it falls back to `fallbackPath`, and `divert` says where it goes
 * once another run took the journal over.
 */
export function runReportFile(
  path: string,
  cwd: string,
  unwritten: WriteFailure[],
  divert: (file: string) => Diversion | undefined,
) {
  return {
    path: resolve(cwd, path),
    shown: path,
    failed: (failure: WriteFailure) => unwritten.push({ ...failure, path }),
    fallback: fallbackPath(path),
    divert: () => divert(path),
  };
}

/**
 * The exit code of a command whose work is done but whose file could not be written (docs/cli.md:
 * `evals run`'s `-o`, `evals merge`'s `-o` and `--junit`, `evals report`'s `-o` and `--junit`,
 * and the files `testset pin`, `testset convert` and `override` write).
 */
export const EXIT_UNWRITTEN = 3;

/**
 * One line: what could not be written, why, and where the complete file is kept, if anywhere.
 * `done` says what finished before the write (`the run finished`); `what` names what was kept
 * (`the partial results` of an interrupted run).
 */
export function describeWriteFailure(
  { path, error, kept }: WriteFailure,
  done: string,
  what = 'the complete file',
): string {
  // A partial artifact is not moved into place but resumed: the caller prints that command. A
  // file kept because another run holds `path` (pipeline/journal-takeover.ts) would replace
  // that run's results there.
  const taken = (error as { code?: unknown } | undefined)?.code === 'run.output-taken';
  const move = taken
    ? `, beside the other run's results: compare them before keeping either`
    : what === 'the complete file'
      ? '; move it where it belongs'
      : '';
  const keptAt =
    kept === null ? 'nothing was kept' : `${what} ${isAre(what)} kept at ${kept}${move}`;
  return `${done} but ${path} could not be written (${causeOf(error)}); ${keptAt}`;
}

function isAre(what: string): string {
  return what.endsWith('s') ? 'are' : 'is';
}

function causeOf(error: unknown): string {
  const cause = error instanceof WriteKeptError ? error.cause : error;
  return (cause as Error | undefined)?.message ?? String(cause);
}

/**
 * The line for a file a command rewrites (`testset pin`'s config, `override`'s store, `testset
 * convert`'s output) when writing it failed: which file, why, and that it is as it was (the
 * write goes through a temporary file, removed on failure) or where the new file was kept.
 * Undefined for an error no write gives (a bug, left to surface).
 */
export function unwrittenFile(
  shown: string,
  error: unknown,
  unchanged: string,
): string | undefined {
  if (error instanceof WriteKeptError) {
    return `${shown} could not be written (${causeOf(error)}); the new file is kept at ${error.kept}`;
  }
  if (typeof (error as NodeJS.ErrnoException | undefined)?.code !== 'string') return undefined;
  return `${shown} could not be written (${causeOf(error)}); ${unchanged}`;
}

/**
 * What an interrupted run says at its end: each file that could not be written, and the command
 * that finishes the run from wherever its partial results are: `output` (its `-o`), or the copy
 * kept instead. `resume(from)` gives that command.
 */
export function interruptedLines(
  output: string,
  unwritten: readonly WriteFailure[],
  resume?: (from?: string) => string,
): string[] {
  const lines = unwritten.map(
    (failure) =>
      `error: ${describeWriteFailure(failure, 'the run was interrupted', 'the partial results')}`,
  );
  const failed = unwritten.find((failure) => failure.path === output);
  const held = failed === undefined ? output : failed.kept;
  if (held === null) return [...lines, 'interrupted: the cases that finished were kept nowhere'];
  const finish =
    resume === undefined
      ? ''
      : `; to finish it: ${resume(failed === undefined ? undefined : held)}`;
  return [
    ...lines,
    `interrupted: ${held} holds the cases that finished (interrupted: true)${finish}`,
  ];
}
