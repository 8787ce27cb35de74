/**
 * The names around a run's recovery journal (see journal.ts): the journal of an output, a free
 * name for a file kept aside, whether an output takes a journal, and the refusal of an output
 * another live run writes.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { JournalHeader } from '../artifact/journal.ts';
import { STALE_MS } from '../artifact/journal-read.ts';
import { usageError } from '../shared/errors.ts';

/**
 * The command that resumes from `from` (the CLI's); with `baseline`, the one that run compared
 * with, named unless this run's arguments name one; with `beside`, `from` is resumed into
 * itself, each `--junit` and `--report` file named as `beside` gives it (left out where it gives
 * undefined).
 */
export type ResumeCommand = (
  from: string,
  baseline?: string,
  beside?: (file: string) => string | undefined,
) => string;

/** The journal of a run writing `output` (absolute): a hidden file beside it. */
export function journalPathOf(output: string): string {
  return join(dirname(output), `.${basename(output)}.journal`);
}

/**
 * The refusal of a run whose `output` another live run writes (its journal at `path`, whose
 * header is `header`).
 */
export function running(
  output: string,
  path: string,
  header: Pick<JournalHeader, 'pid' | 'host'> & { startedAt?: string },
): Error {
  const started = header.startedAt === undefined ? '' : `, started ${header.startedAt}`;
  return usageError(
    'run.journal-live',
    `${output} is being written by another evals run (pid ${header.pid} on ${header.host}${started}; its recovery journal is ${path}): wait for it to finish or stop it, or give this run another -o (a journal untouched for ${STALE_MS / 1000} s counts as left by a process that is gone; if that process is not evals, rename ${path} aside rather than delete it: it holds the finished cases of a killed run)`,
    output,
  );
}

/** `stem + end`, or `stem-2 + end`, `stem-3 + end`… : the first no file has (from `cwd`). */
export function freeName(stem: string, end: string, cwd = '/'): string {
  let name = `${stem}${end}`;
  for (let n = 2; existsSync(resolve(cwd, name)); n++) name = `${stem}-${n}${end}`;
  return name;
}

/**
 * Whether `target` (absolute) takes a journal: a regular file, or nothing yet. Not a device or
 * a FIFO: what is written there replaces no file.
 */
export function takesJournal(target: string): boolean {
  try {
    return statSync(target).isFile();
  } catch {
    return !target.startsWith('/dev/') && !target.startsWith('/proc/');
  }
}
