/**
 * A killed run's journal this evalgate cannot recover, though nothing is wrong with it: one a
 * newer evalgate wrote (of a newer format, or with fields this one does not know). A plain run
 * on its `-o` keeps it aside, not under a name of its own that one would have to rename back by
 * hand, but as the journal of `NAME.killed-PID.json`, a file that does not exist: `evals run
 * --resume NAME.killed-PID.json` with the evalgate that wrote it recovers the killed run's cases
 * there and finishes it, as it would have beside `-o`, and with this one says who wrote it.
 */
import { existsSync, renameSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { readNewerJournal, type NewerJournal } from '../artifact/journal-newer.ts';
import type { JournalHeader } from '../artifact/journal.ts';
import { casesDirOf } from '../artifact/journal.ts';
import { pidExists, writerAlive } from '../artifact/journal-read.ts';
import type { CommandContext } from './context.ts';
import { journalPathOf, running, type ResumeCommand } from './journal-names.ts';
import { usageError } from '../shared/errors.ts';
import { pathWord } from '../shared/shell-word.ts';
import { printable } from '../shared/text-table.ts';
import { toolVersion } from '../shared/version.ts';
import { JOURNAL_FORMAT } from '../artifact/journal.ts';

/**
 * Renames the journal at `path` (written by process `writer.pid` on `writer.host`, when known)
 * and its case folder to
 * those of `NAME.killed-PID.json` beside `output` (from `cwd`), the first such name that neither
 * a file nor a journal has; returns that name, as `output` is given. `journalOf` names a file's
 * journal. The folder stays where it is while its process may still write it.
 */
export function keepAsKilled(
  path: string,
  writer: { pid?: number | undefined; host?: string | undefined },
  output: string,
  cwd: string,
  journalOf: (file: string) => string,
): string {
  const { pid, host = '' } = writer;
  const stem = `${output.replace(/\.json$/, '')}.killed${pid === undefined ? '' : `-${pid}`}`;
  let name = `${stem}.json`;
  for (
    let n = 2;
    existsSync(resolve(cwd, name)) || existsSync(journalOf(resolve(cwd, name)));
    n++
  ) {
    name = `${stem}-${n}.json`;
  }
  const kept = journalOf(resolve(cwd, name));
  renameSync(path, kept);
  if (pid === undefined) return name;
  try {
    const folder = casesDirOf(path, pid);
    if (existsSync(folder) && !pidExists({ host, pid })) {
      renameSync(folder, casesDirOf(kept, pid));
    }
  } catch {
    // A folder of that name already there: left where it is, not lost.
  }
  return name;
}

/** Who wrote a journal of a newer format, and what this evalgate reads, for its messages. */
export function newerFormatText(path: string, newer: NewerJournal): string {
  const by =
    newer.writtenBy === undefined ? 'a newer evalgate' : `evalgate ${printable(newer.writtenBy)}`;
  return `the recovery journal ${path} was written by ${by} in journal format ${newer.format}, newer than this evalgate (${toolVersion}) reads (formats 1 to ${JOURNAL_FORMAT})`;
}

/**
 * The refusal of `--resume FILE` whose journal (at `path`) is of a newer format: who wrote it,
 * and the two ways on, as for a journal with fields this evalgate does not know.
 */
export function newerFormatRefusal(file: string, path: string, newer: NewerJournal): Error {
  const folder = newer.pid === undefined ? undefined : casesDirOf(path, newer.pid);
  const remove = [path, ...(folder !== undefined && existsSync(folder) ? [folder] : [])]
    .map(pathWord)
    .join(' ');
  const by =
    newer.writtenBy === undefined ? 'that evalgate' : `evalgate ${printable(newer.writtenBy)}`;
  return usageError(
    'resume.journal-newer',
    `${newerFormatText(path, newer)}: it holds the cases of a killed run that this evalgate cannot recover; finish the run with ${by} or newer (\`evals run --resume ${pathWord(file)}\`), or start afresh, losing its cases: remove it (\`rm -r ${remove}\`) and run evals run without --resume`,
    file,
  );
}

/** What keeping a journal aside needs of the run's journal options (see journal.ts). */
export interface AsideOptions {
  /** `-o` as given, and from where. */
  output: string;
  ctx: CommandContext;
  resumeCommand?: ResumeCommand;
}

/**
 * The journal at `path` of a format newer than this evalgate reads, found by a plain run: kept
 * aside where `--resume` finds it (see {@link keepAsKilled}), and said; refused when its process
 * may still write it.
 */
export function keepNewerAside(
  path: string,
  options: AsideOptions,
  warn: (message: string) => void,
): void {
  const newer = readNewerJournal(path);
  if (newer === undefined) return;
  const { pid, host } = newer;
  if (pid !== undefined && host !== undefined && writerAlive({ pid, host }, path)) {
    throw running(options.output, path, { pid, host });
  }
  const shown = keepAsKilled(path, newer, options.output, options.ctx.cwd, journalPathOf);
  const by =
    newer.writtenBy === undefined ? '' : ` with evalgate ${printable(newer.writtenBy)} or newer`;
  warn(
    `${newerFormatText(path, newer)}: it is kept as the recovery journal of ${shown} (${journalPathOf(resolve(options.ctx.cwd, shown))}), and this run starts afresh; \`${finishCommand(options, shown, {})}\`${by} finishes it`,
  );
}

/** The command that finishes the killed run kept as `shown` (see `JournalOptions.resumeCommand`). */
export function finishCommand(
  options: AsideOptions,
  shown: string,
  header: Pick<JournalHeader, 'baseline'>,
): string {
  return (
    options.resumeCommand?.(shown, header.baseline, () => undefined) ??
    `evals run --resume ${pathWord(shown)}`
  );
}

/**
 * `--resume FILE` whose journal is of a format newer than this evalgate reads: refused, unless
 * FILE was written after it (FILE is then what is resumed, as for any journal), or its process
 * may still write it.
 */
export function refuseNewer(file: string, ctx: CommandContext): void {
  const target = resolve(ctx.cwd, file);
  const path = journalPathOf(target);
  const newer = readNewerJournal(path);
  if (newer === undefined) return;
  const { pid, host } = newer;
  if (pid !== undefined && host !== undefined && writerAlive({ pid, host }, path)) {
    throw running(file, path, { pid, host });
  }
  if (existsSync(target) && statSync(target).mtimeMs >= statSync(path).mtimeMs) return;
  throw newerFormatRefusal(file, path, newer);
}
