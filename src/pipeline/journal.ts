/**
 * The recovery journal at the edges of `evals run` (the format: artifact/journal.ts). A run
 * keeps one beside its `-o` while it works, so that a process killed with no chance to write its
 * partial artifact (kill -9, the out-of-memory killer, `process.abort()`) can still be resumed:
 *
 * - `evals run --resume FILE` whose FILE is missing or older than a journal left by a process
 *   that is gone writes the journal's partial artifact to FILE first, says what it recovered,
 *   and then resumes FILE as any partial artifact (with the same checks);
 * - a plain run that finds such a journal keeps its cases in `NAME.killed-PID.json` (a partial
 *   artifact) and says which command finishes it (in place, never over this run's files), so
 *   nothing is lost, then runs afresh;
 * - a journal whose process still runs (two runs writing one `-o`) is refused (exit 2).
 *
 * No journal is kept for an output that is not a regular file (/dev/null, a FIFO, /dev/stdout),
 * nor by the Action or `runTestSuite` (RunArgs.journal is set by the CLI only).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { ResultsArtifact } from '../types/index.ts';
import { casesDirOf, JournalWriter, removeJournal } from '../artifact/journal.ts';
import {
  journalWrittenAt,
  pidExists,
  readJournal,
  readJournalHeader,
  writerAlive,
  type ReadJournal,
} from '../artifact/journal-read.ts';
import type { JournalHeader } from '../artifact/journal.ts';
import { JournalUnknownFields } from '../artifact/journal-problems.ts';
import { finishCommand, keepAsKilled, keepNewerAside, refuseNewer } from './journal-aside.ts';
import {
  freeName,
  journalPathOf,
  running,
  takesJournal,
  type ResumeCommand,
} from './journal-names.ts';
import { pathWord } from '../shared/shell-word.ts';
import { printable } from '../shared/text-table.ts';
import { usageError } from '../shared/errors.ts';
import { formatCount, plural } from '../report/labels.ts';
import type { CommandContext } from './context.ts';
import type { ChosenBaseline } from './baseline.ts';
import type { BaselineIdentity } from '../artifact/merge-baseline.ts';

export { freeName, journalPathOf, takesJournal } from './journal-names.ts';

/** What opening a run's journal needs. */
export interface JournalOptions {
  /** `-o` as given, and from where. */
  output: string;
  ctx: CommandContext;
  /** The baseline the run compares with: recorded, so a recovered run is compared with it. */
  baseline?: ChosenBaseline;
  /** `--resume FILE`, when the run resumes one. */
  resumedFrom?: string;
  /**
   * The command that resumes from a file (the CLI's), for the warning about a killed run (see
   * `ResumeCommand`).
   */
  resumeCommand?: ResumeCommand;
  /** The partial artifact's frame as the run stands (see `JournalWriter`). */
  frame: () => ResultsArtifact | undefined;
}

/**
 * The journal of a run about to start, after dealing with one a killed run left (see the
 * module's comment); undefined when the output takes none or it cannot be created (said).
 * Throws a usage error when another process is writing the same output.
 */
export function openRunJournal(options: JournalOptions): JournalWriter | undefined {
  const { output, ctx } = options;
  const target = resolve(ctx.cwd, output);
  if (!takesJournal(target)) return undefined;
  const path = journalPathOf(target);
  const warn = (message: string): void => void ctx.stderr.write(`warning: ${message}\n`);
  const header = readJournalHeader(path);
  if (header !== undefined) {
    if (writerAlive(header, path)) throw running(output, path, header);
    keepAside(path, header, options, warn);
  } else {
    keepNewerAside(path, options, warn);
  }
  sweepFolders(path);
  try {
    mkdirSync(dirname(target), { recursive: true });
    return new JournalWriter(
      path,
      {
        startedAt: new Date().toISOString(),
        output: target,
        ...(options.baseline !== undefined && {
          baseline: options.baseline.path,
          baselineRun: baselineRun(options.baseline.artifact),
        }),
        ...(options.resumedFrom !== undefined &&
          resolve(ctx.cwd, options.resumedFrom) !== target && {
            resumedFrom: resolve(ctx.cwd, options.resumedFrom),
          }),
      },
      options.frame,
      warn,
    );
  } catch (error) {
    // Another run created it since it was read (two runs started at once): that one writes -o.
    const now =
      (error as NodeJS.ErrnoException).code === 'EEXIST' ? readJournalHeader(path) : undefined;
    if (now !== undefined && writerAlive(now, path)) throw running(output, path, now);
    const cause = error instanceof Error ? error.message : String(error);
    warn(
      `the recovery journal ${path} could not be created (${cause}); the run goes on, but a kill -9 would lose its finished cases`,
    );
    return undefined;
  }
}

/**
 * Before `--resume FILE -o OUTPUT` reads FILE: returns the file to resume, after recovering a
 * killed run's journal.
 *
 * - A journal beside OUTPUT (another file than FILE) left by a run that resumed FILE into it and
 *   was killed, newer than OUTPUT (or OUTPUT is missing), holds FILE's kept cases and those the
 *   killed run finished: it is written to OUTPUT, which is what is resumed now.
 * - Else a journal beside FILE, left by a process that is gone and newer than FILE (or FILE is
 *   missing), is written to FILE as the partial artifact the killed run never wrote.
 *
 * The journal is removed once written. Throws a usage error when its process still runs, or
 * when the journal beside FILE holds nothing and FILE is missing.
 */
export function recoverForResume(file: string, output: string, ctx: CommandContext): string {
  const into = resolve(ctx.cwd, output);
  const from = resolve(ctx.cwd, file);
  const left = into === from ? undefined : readJournalHeader(journalPathOf(into));
  if (left?.resumedFrom === from && recoverJournal(output, left, ctx) === 'recovered') {
    return output;
  }
  const header = readJournalHeader(journalPathOf(from));
  if (header === undefined) refuseNewer(file, ctx);
  const outcome = recoverJournal(file, header, ctx);
  if (outcome === 'empty' && !existsSync(from)) {
    throw usageError(
      'resume.nothing',
      `nothing to resume: the run writing ${file} was killed (pid ${header!.pid}) before any case finished; run evals run without --resume`,
      file,
    );
  }
  return file;
}

/** Which run `artifact` is, as a comparison records its base (compare.ts `artifactInfo`). */
function baselineRun(artifact: ResultsArtifact): BaselineIdentity {
  const { config, git, startedAt } = artifact;
  return { config, git: git === null ? null : { sha: git.sha, ref: git.ref }, startedAt };
}

/**
 * Writes the journal beside `file` (whose header is `header`) to `file` when it is newer than
 * `file` or `file` is missing, and removes it: 'recovered' when `file` then holds its cases,
 * 'empty' when it held none (removed), 'none' when there is none or `file` is newer. Throws a
 * usage error when its process still runs.
 */
function recoverJournal(
  file: string,
  header: JournalHeader | undefined,
  ctx: CommandContext,
): 'recovered' | 'empty' | 'none' {
  const target = resolve(ctx.cwd, file);
  const path = journalPathOf(target);
  if (header === undefined) return 'none';
  if (writerAlive(header, path)) throw running(file, path, header);
  // FILE written after the journal's last case: the run wrote it and was killed before removing
  // the journal, or another run did; FILE is what is resumed. (A partial recovered before a
  // resumed run began is older than that run's journal, which holds its kept cases too.) At the
  // same time counts as after: a run writes its last case lines before its artifact, and a
  // file system's clock may give both the same tick.
  if (existsSync(target) && statSync(target).mtimeMs >= journalWrittenAt(path, header))
    return 'none';
  const read = readOrRefuse(path, file, header);
  if (read.artifact === undefined) {
    letGo(path, header);
    return 'empty';
  }
  writeRecovered(target, read, header);
  letGo(path, header);
  ctx.stderr.write(
    `recovered ${formatCount(read.recovered)} of ${plural(read.planned, 'case')} from a run killed at ${read.lastWrite.toISOString()} (pid ${header.pid}), from its journal ${path}${tornNote(read)}; ${file} now holds them as a partial artifact (interrupted: true)\n${baselineNote(header)}`,
  );
  return 'recovered';
}

/** A dead run's journal found by a plain run: its cases kept as a partial artifact, and said. */
function keepAside(
  path: string,
  header: JournalHeader,
  options: JournalOptions,
  warn: (message: string) => void,
): void {
  const { output } = options;
  let read: ReadJournal;
  try {
    read = readJournal(path);
  } catch (error) {
    if (error instanceof JournalUnknownFields) {
      // Kept as the journal of a file `--resume` finds it by, with the evalgate that wrote it.
      const shown = keepAsKilled(path, header, output, options.ctx.cwd, journalPathOf);
      const finish = error.newer
        ? `; \`${finishCommand(options, shown, header)}\` with evalgate ${printable(error.writtenBy)} or newer finishes it`
        : '';
      warn(
        `${error.message}: it is kept as the recovery journal of ${shown} (${journalPathOf(resolve(options.ctx.cwd, shown))}), and this run starts afresh${finish}`,
      );
      return;
    }
    const kept = freeName(`${path}.${header.pid}`, '');
    renameSync(path, kept);
    // Its case files go with it, into the folder of the name it is kept as (left where they
    // are if that cannot be, or while its process may still write them: not lost either way).
    try {
      const folder = casesDirOf(path, header.pid);
      if (existsSync(folder) && !pidExists(header)) {
        renameSync(folder, casesDirOf(kept, header.pid));
      }
    } catch {
      // A folder of that name already there.
    }
    warn(
      `a killed run's recovery journal could not be read (${error instanceof Error ? error.message : String(error)}); it is kept as ${kept}`,
    );
    return;
  }
  if (read.artifact === undefined) {
    letGo(path, header);
    return; // killed before any case finished: nothing to keep
  }
  // Never over an earlier kept run's (a pid may come again, in another container).
  const shown = freeName(
    `${output.replace(/\.json$/, '')}.killed-${header.pid}`,
    '.json',
    options.ctx.cwd,
  );
  writeRecovered(resolve(options.ctx.cwd, shown), read, header);
  const alive = letGo(path, header);
  // The kept partial records the killed run's baseline (writeRecovered), and the command names it
  // too, so the finished run is compared (and `regressions: block` applied) as that run would
  // have been, whichever baseline the run printing it has. It finishes the kept file in place:
  // `-o` and this run's --junit and --report are this run's, which it must not write over (the
  // killed run's own report files are not known: a journal does not record them).
  const command =
    options.resumeCommand === undefined
      ? ''
      : `; \`${options.resumeCommand(shown, header.baseline, () => undefined)}\` finishes it in place${header.baseline === undefined ? '' : ` (the killed run compared with ${header.baseline})`}`;
  warn(
    `an earlier run writing ${output} ${alive ? 'went quiet' : 'was killed'} at ${read.lastWrite.toISOString()} (pid ${header.pid}) with ${formatCount(read.recovered)} of ${plural(read.planned, 'case')} finished: they are kept in ${shown} (interrupted: true)${command}; this run starts afresh${tornNote(read)}${alive ? stoppedNote(header, output, shown) : ''}`,
  );
}

/**
 * Removes the stale journal at `path` (whose header is `header`), and its folder unless a
 * process of its pid still exists (see `pidExists`): a run stopped or blocked until its
 * journal went stale writes its results from those files when it goes on. True when kept.
 */
function letGo(path: string, header: JournalHeader): boolean {
  if (!pidExists(header)) {
    removeJournal(path, header.pid);
    return false;
  }
  rmSync(path, { force: true });
  return true;
}

function stoppedNote(header: JournalHeader, output: string, kept: string): string {
  // As journal-takeover.ts names it (`-2`… when that name is taken then).
  const ext = extname(basename(output));
  const beside = `${output.slice(0, output.length - ext.length)}.stalled-${header.pid}${ext}`;
  return `; its process (pid ${header.pid}) still exists, stopped or blocked: its case files are left in place, and if it goes on it writes its whole results beside ${output} (${beside}, or its partial results if it is interrupted), not over this run's; that file holds every case in ${kept} too: finish it rather than ${kept}`;
}

/**
 * Removes the case folders beside the journal at `path` that no journal names and whose process
 * is gone: left by a run killed after another took its journal over, or after it removed its
 * journal once `-o` held its results (`JournalWriter.release`). The folder of a process that
 * exists on this host is left: that run may still be writing its results from it.
 */
function sweepFolders(path: string): void {
  const stem = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^(\d+)\.d$/.exec(name.slice(stem.length))?.[1]);
    if (!name.startsWith(stem) || !Number.isSafeInteger(pid) || pid === process.pid) continue;
    if (pidExists({ host: hostname(), pid })) continue;
    rmSync(join(dirname(path), name), { recursive: true, force: true });
  }
}

function readOrRefuse(path: string, file: string, header: JournalHeader): ReadJournal {
  try {
    return readJournal(path);
  } catch (error) {
    if (error instanceof JournalUnknownFields) throw newerJournal(error, file, header);
    throw usageError(
      'resume.journal',
      `the recovery journal ${path} could not be read: ${error instanceof Error ? error.message : String(error)}`,
      file,
    );
  }
}

/**
 * The refusal of a journal with fields this evalgate does not know (`error`), found by `--resume
 * FILE`: by whom it was written and which fields, and the two ways on: the evalgate that wrote
 * it (or a newer one) recovers it, or removing the journal (and its case folder) starts afresh.
 */
function newerJournal(error: JournalUnknownFields, file: string, header: JournalHeader): Error {
  const folder = casesDirOf(error.path, header.pid);
  const remove = [error.path, ...(existsSync(folder) ? [folder] : [])].map(pathWord).join(' ');
  const resume = `evals run --resume ${pathWord(file)}`;
  const upgrade = error.newer
    ? `finish the run with evalgate ${printable(error.writtenBy)} or newer (\`${resume}\`), or `
    : '';
  return usageError(
    'resume.journal-newer',
    `${error.message}, which the partial artifact this evalgate would write from it would lose; ${upgrade}start afresh, losing its cases: remove it (\`rm -r ${remove}\`) and run evals run without --resume`,
    file,
  );
}

/**
 * Writes the partial artifact `read` stands for to `path`, and removes its spool. It records the
 * baseline the journal's run compared with (`header`): it holds no comparison to record it in,
 * and the journal that named it is removed once it is written, so `--resume` reads it there.
 */
function writeRecovered(path: string, read: ReadJournal, header: JournalHeader): void {
  const { baseline, baselineRun: run } = header;
  try {
    if (read.artifact === undefined) return;
    const artifact: ResultsArtifact =
      baseline === undefined || run === undefined
        ? read.artifact
        : {
            ...read.artifact,
            baseline: {
              path: baseline,
              config: run.config,
              git: run.git === null ? null : { sha: run.git.sha, ref: run.git.ref },
              startedAt: run.startedAt,
            },
          };
    read.spool?.writeArtifactSync(path, artifact);
  } finally {
    read.spool?.discard();
  }
}

function tornNote(read: ReadJournal): string {
  return read.torn ? ' (its last line, cut short by the kill, is dropped)' : '';
}

/**
 * A journal naming the baseline its run compared with, but not which run it held (none this
 * evalgate writes): the recovered partial cannot record it, so the command must name it. (One
 * that says which is recorded in the partial, and the resumption says it compares with it.)
 */
function baselineNote(header: JournalHeader): string {
  if (header.baseline === undefined || header.baselineRun !== undefined) return '';
  return `note: the killed run compared with ${header.baseline}: pass --baseline ${header.baseline} again\n`;
}
