/**
 * What a command says when a file it finished could not be written (exit 3): `evals run`'s
 * results and reports, `evals merge`'s combined artifact. The work is done by then, so the file
 * goes to a fallback in the system's temporary folder rather than being lost.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { WriteFailure } from '../report/file-reports.ts';
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
 * One line: what could not be written, why, and where the complete file is kept, if anywhere.
 * `done` says what finished before the write (`the run finished`).
 */
export function describeWriteFailure({ path, error, kept }: WriteFailure, done: string): string {
  const cause = error instanceof WriteKeptError ? error.cause : error;
  const why = (cause as Error | undefined)?.message ?? String(cause);
  const keptAt =
    kept === null
      ? 'nothing was kept'
      : `the complete file is kept at ${kept}; move it where it belongs`;
  return `${done} but ${path} could not be written (${why}); ${keptAt}`;
}
