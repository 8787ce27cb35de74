/**
 * The files a run writes at its end (`-o`, `--junit`), checked before it starts, so a path that
 * can never be written is a usage error (exit 2) instead of a run that spends its whole time and
 * then cannot keep what it found.
 */
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { usageError, type UsageError } from '../shared/errors.ts';

/** One output file: the flag that names it, and the path as given. */
export interface OutputPath {
  flag: string;
  path: string;
}

/**
 * Refuses an output that is a folder, one under a file, one in a folder that cannot be written
 * to, and two outputs that are one file. A missing parent folder is fine (it is created).
 */
export function checkOutputPaths(outputs: readonly OutputPath[], cwd: string): void {
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
    if (problem !== undefined) throw refuse(flag, path, problem);
  }
}

function refuse(flag: string, path: string, problem: string): UsageError {
  return usageError(
    'cli.output',
    `${flag} ${path}: ${problem}, so the results could not be written; nothing was run`,
  );
}

/** Why `path` cannot be written as a file, or undefined when it can. */
function outputProblem(path: string): string | undefined {
  const own = statOf(path);
  if (own?.isDirectory()) return 'is a folder, not a file (name a file in it)';
  // The nearest folder that exists: the file, or the folders to create, go in it.
  let at = dirname(path);
  for (let depth = 0; depth < 4096; depth++) {
    const stats = statOf(at);
    if (stats !== undefined) {
      if (!stats.isDirectory()) return `${at} is a file, not a folder`;
      try {
        accessSync(at, constants.W_OK);
      } catch (error) {
        return `cannot write in ${at} (${(error as NodeJS.ErrnoException).code ?? 'denied'})`;
      }
      return undefined;
    }
    const parent = dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
  return undefined;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
