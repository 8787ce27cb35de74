/**
 * A run whose recovery journal another run took over. A run stopped (Ctrl-Z, SIGSTOP) or whose
 * event loop is blocked for longer than a live writer leaves its journal untouched (`STALE_MS`)
 * looks dead to a second run started on the same `-o`, which keeps the first run's cases aside
 * and writes a journal of its own there. When the first run goes on, both write `-o`, and the
 * one that ends last would silently replace the other's results. So the first run, seeing that
 * its journal is no longer its own (`JournalWriter.displaced`), writes its results beside `-o`
 * under a name of its own (`NAME.stalled-PID.json`; its `--junit` and `--report` files too,
 * unless a device or a FIFO, which replace no file)
 * and says so: the end of a run that could
 * not write `-o` (exit 3), with the file kept instead.
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { JournalWriter } from '../artifact/journal.ts';
import { STALE_MS } from '../artifact/journal.ts';
import { readJournalHeader } from '../artifact/journal-read.ts';
import { freeName, takesJournal } from './journal.ts';
import { describeWriteFailure } from './write-failure.ts';

/** Why a run's results did not go to its `-o`: another run holds it (see the module's comment). */
export class OutputTakenError extends Error {
  readonly code = 'run.output-taken';
}

/** Where a run's results go instead of `-o`: `path` (absolute), named `shown`, and why. */
export interface Diversion {
  path: string;
  shown: string;
  error: OutputTakenError;
}

/** Where a run's files go: see {@link outputDiversion}. */
export interface OutputDiversion {
  /** Where `file` (as given) goes instead, decided now unless it was already. */
  (file: string): Diversion | undefined;
  /** Where `file` went instead, if that was decided: deciding nothing (what was written where). */
  decided(file: string): Diversion | undefined;
}

/**
 * For a run with the journal `journal()` gives (files named from `cwd`): a function telling,
 * for each file it writes (`-o`, `--junit`, `--report`, as given), whether it goes elsewhere,
 * and where: undefined while the journal is its own, or when the run keeps none. Decided once
 * per file, so the file reports, an exit and the commands printed name the same one. `output`
 * (`-o`) and `startedAt` (the artifact's) find the partial the other run kept from this one.
 */
export function outputDiversion(
  journal: () => JournalWriter | undefined,
  cwd: string,
  output: string,
  startedAt: () => Date,
): OutputDiversion {
  const decided = new Map<string, Diversion>();
  // Taken over once is for good: the journal this run removes once its results are written
  // beside -o no longer tells, and the files it writes after them (or an exit names) go beside too.
  let taken: OutputTakenError | undefined;
  const divert = (file: string): Diversion | undefined => {
    const known = decided.get(file);
    if (known !== undefined) return known;
    // A device or a FIFO (`--junit /dev/null`) is no run's file: written as asked.
    if (!takesJournal(resolve(cwd, file))) return undefined;
    taken ??= takenBy(journal(), () => keptFromThisRun(resolve(cwd, output), startedAt()));
    if (taken === undefined) return undefined;
    const ext = extname(basename(file));
    const shown = freeName(
      `${file.slice(0, file.length - ext.length)}.stalled-${process.pid}`,
      ext,
      cwd,
    );
    const diversion = {
      path: resolve(cwd, shown),
      shown,
      error: taken,
    };
    decided.set(file, diversion);
    return diversion;
  };
  return Object.assign(divert, { decided: (file: string) => decided.get(file) });
}

/**
 * Why a run's files go beside them: its journal `own` is another run's now (else undefined).
 * `kept` names the file in which that run kept this one's cases, if it can be found.
 */
function takenBy(
  own: JournalWriter | undefined,
  kept: () => string | undefined,
): OutputTakenError | undefined {
  if (own === undefined || !own.displaced()) return undefined;
  const holder = readJournalHeader(own.path);
  const [by, writes] =
    holder === undefined
      ? ['another evals run', 'has written']
      : [`another evals run (pid ${holder.pid})`, 'writes'];
  // Two partials of one run otherwise: no command joins them (evals merge takes shards, and
  // --resume one file), and finishing the older one would run again what this one holds.
  const older = kept();
  const note =
    older === undefined
      ? ''
      : `; the cases this run had finished when it was taken over are also in ${older}, which that run kept from its journal, and this run's file holds them all: finish or keep this run's file, not ${older}, which can be removed`;
  return new OutputTakenError(
    `its recovery journal was taken over by ${by} while this run was stopped or blocked for over ${STALE_MS / 1000} s, and that run ${writes} its results: this run's are not written over them${note}`,
  );
}

/**
 * The partial another run kept from this run's journal when it took it over (journal.ts
 * `keepAside`: `NAME.killed-PID.json`, or `-2`… when taken, beside `output`), named as a file
 * beside `output`; found by this process's pid in its name and this run's start in its
 * `startedAt` (a pid may come again, in another container). Undefined when there is none.
 */
function keptFromThisRun(output: string, startedAt: Date): string | undefined {
  const stem = `${basename(output).replace(/\.json$/, '')}.killed-${process.pid}`;
  const start = `\n  "startedAt": ${JSON.stringify(startedAt.toISOString())},\n`;
  let names: string[];
  try {
    names = readdirSync(dirname(output));
  } catch {
    return undefined;
  }
  const ours = names.filter(
    (name) => name.startsWith(stem) && /^(?:-\d+)?\.json$/.test(name.slice(stem.length)),
  );
  return ours.find((name) => artifactHead(join(dirname(output), name)).includes(start));
}

/** An artifact's text up to its `runs` (where its top-level fields end), or less when unread. */
function artifactHead(path: string): string {
  const chunk = Buffer.alloc(1 << 16);
  let text = '';
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      text += chunk.toString('utf8', 0, read);
      if (text.includes('\n  "runs": ')) break;
    }
  } catch {
    // Unreadable: not known to be this run's.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return text;
}

/**
 * How a run names each of its files (as given) once its `-o` (`output`) went beside itself:
 * beside its own name too; undefined while `-o` did not.
 */
export function besideFiles(
  divert: OutputDiversion,
  output: string,
): ((file: string) => string) | undefined {
  return divert.decided(output) === undefined ? undefined : (file) => divert(file)?.shown ?? file;
}

/**
 * The command that finishes a run from `from` (its `-o`, `output`, when undefined), made by
 * `resume` (RunArgs.resumeCommand). A partial kept beside `-o` is resumed into itself, with its
 * reports beside theirs: resumed into `-o`, it would write over the other run's results.
 */
export function finishCommand(
  divert: OutputDiversion,
  output: string,
  resume: (
    from?: string,
    baseline?: string,
    beside?: (file: string) => string | undefined,
  ) => string,
): (from?: string) => string {
  return (from) => {
    if (from === undefined || from === output) return resume();
    const kept = divert.decided(output)?.shown === from;
    return resume(from, undefined, kept ? besideFiles(divert, output) : undefined);
  };
}

/**
 * The line saying that a run's results (`interrupted`: its partial) went beside its `-o`
 * (`output`), which another run holds, and where; undefined when they did not.
 */
export function keptBeside(
  divert: OutputDiversion,
  output: string,
  interrupted: boolean,
): string | undefined {
  const taken = divert.decided(output);
  if (taken === undefined) return undefined;
  const failure = { path: output, error: taken.error, kept: taken.shown };
  return interrupted
    ? describeWriteFailure(failure, 'the run was interrupted', 'the partial results')
    : describeWriteFailure(failure, 'the run finished');
}
