/**
 * The files a command writes at its end (`run`'s `-o` and `--junit`, `merge`'s and `report`'s
 * `-o`, `testset convert`'s output, `init`'s folder), checked before it starts, so a path that
 * can never be written is a usage error (exit 2) instead of a command that does its whole work
 * and then cannot keep it.
 */
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { usageError, type UsageError } from '../shared/errors.ts';

/** One output file: the flag that names it, and the path as given. */
export interface OutputPath {
  flag: string;
  path: string;
}

/** What `run` has not done when one of its outputs is refused. */
const NOTHING_RUN = 'so the results could not be written; nothing was run';

/**
 * Refuses an output that is a folder, one under a file, one in a folder that cannot be written
 * to, and two outputs that are one file. A missing parent folder is fine (it is created).
 * `consequence` ends the message: what the refusal spared (by default, a run).
 */
export function checkOutputPaths(
  outputs: readonly OutputPath[],
  cwd: string,
  consequence = NOTHING_RUN,
): void {
  const seen = new Map<string, string>();
  for (const { flag, path } of outputs) {
    const absolute = resolve(cwd, path);
    const other = seen.get(absolute);
    if (other !== undefined) {
      throw usageError(
        'cli.output',
        `${flag} ${path}: the same file as ${other}; give each its own path`,
      );
    }
    seen.set(absolute, `${flag} ${path}`);
    const problem = outputProblem(absolute);
    if (problem !== undefined) throw refuse(flag, path, problem, consequence);
  }
}

/**
 * Refuses a folder that files are to be written into (`flag` names it) when it is a file, lies
 * under a file, or cannot be written to. A missing folder is fine (it is created).
 */
export function checkOutputFolder(
  flag: string,
  path: string,
  cwd: string,
  consequence: string,
): void {
  const absolute = resolve(cwd, path);
  const own = statOf(absolute);
  const problem =
    own === undefined
      ? parentProblem(absolute)
      : own.isDirectory()
        ? writeProblem(absolute)
        : 'is a file, not a folder';
  if (problem !== undefined) throw refuse(flag, path, problem, consequence);
}

function refuse(flag: string, path: string, problem: string, consequence: string): UsageError {
  return usageError('cli.output', `${flag} ${path}: ${problem}, ${consequence}`);
}

/** Why `path` cannot be written as a file, or undefined when it can. */
function outputProblem(path: string): string | undefined {
  const own = statOf(path);
  if (own?.isDirectory()) return 'is a folder, not a file (name a file in it)';
  return parentProblem(path);
}

/**
 * Why nothing can be created at `path` (which does not exist yet, or is a file to replace):
 * the nearest folder that exists above it is a file or cannot be written to.
 */
function parentProblem(path: string): string | undefined {
  let at = dirname(path);
  for (let depth = 0; depth < 4096; depth++) {
    const stats = statOf(at);
    if (stats !== undefined) {
      if (!stats.isDirectory()) return `${at} is a file, not a folder`;
      return writeProblem(at);
    }
    const parent = dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
  return undefined;
}

/** Why files cannot be created in the folder `at`, or undefined when they can. */
function writeProblem(at: string): string | undefined {
  try {
    accessSync(at, constants.W_OK);
    return undefined;
  } catch (error) {
    return `cannot write in ${at} (${(error as NodeJS.ErrnoException).code ?? 'denied'})`;
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
