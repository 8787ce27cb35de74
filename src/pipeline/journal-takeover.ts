/**
 * A run whose recovery journal another run took over. A run stopped (Ctrl-Z, SIGSTOP) or whose
 * event loop is blocked for longer than a live writer leaves its journal untouched (`STALE_MS`)
 * looks dead to a second run started on the same `-o`, which keeps the first run's cases aside
 * and writes a journal of its own there. When the first run goes on, both write `-o`, and the
 * one that ends last would silently replace the other's results. So the first run, seeing that
 * its journal is no longer its own (`JournalWriter.displaced`), writes its results beside `-o`
 * under a name of its own (`NAME.stalled-PID.json`; its `--junit` and `--report` files too)
 * and says so: the end of a run that could
 * not write `-o` (exit 3), with the file kept instead.
 */
import { basename, extname, resolve } from 'node:path';
import type { JournalWriter } from '../artifact/journal.ts';
import { STALE_MS } from '../artifact/journal.ts';
import { readJournalHeader } from '../artifact/journal-read.ts';
import { freeName } from './journal.ts';

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

/**
 * For a run with the journal `journal()` gives (files named from `cwd`): a function telling,
 * for each file it writes (`-o`, `--junit`, `--report`, as given), whether it goes elsewhere,
 * and where: undefined while the journal is its own, or when the run keeps none. Decided once
 * per file, so the file reports and an exit write the same one.
 */
export function outputDiversion(
  journal: () => JournalWriter | undefined,
  cwd: string,
): (file: string) => Diversion | undefined {
  const decided = new Map<string, Diversion>();
  return (file) => {
    const known = decided.get(file);
    if (known !== undefined) return known;
    const own = journal();
    if (own === undefined || !own.displaced()) return undefined;
    const holder = readJournalHeader(own.path);
    const [by, writes] =
      holder === undefined
        ? ['another evals run', 'has written']
        : [`another evals run (pid ${holder.pid})`, 'writes'];
    const ext = extname(basename(file));
    const shown = freeName(
      `${file.slice(0, file.length - ext.length)}.stalled-${process.pid}`,
      ext,
      cwd,
    );
    const diversion = {
      path: resolve(cwd, shown),
      shown,
      error: new OutputTakenError(
        `its recovery journal was taken over by ${by} while this run was stopped or blocked for over ${STALE_MS / 1000} s, and that run ${writes} its results: this run's are not written over them`,
      ),
    };
    decided.set(file, diversion);
    return diversion;
  };
}
