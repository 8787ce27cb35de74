/**
 * The reports written to files at the end of a run: the results artifact (`-o`) and the JUnit
 * XML report (`--junit`). Each reads the cases back from the run's case log, in testset order.
 */
import { WriteKeptError, writeFileAtomic } from '../shared/write-file-atomic.ts';
import { JUnitTotals, junitChunks } from './junit.ts';
import type { Reporter } from './reporter.ts';

/** A report that could not be written where it was asked for. */
export interface WriteFailure {
  path: string;
  error: unknown;
  /** Where the complete report is kept instead (its temporary file, or `fallback`); else null. */
  kept: string | null;
}

/** Where a file report goes, and who hears that it was written. */
export interface FileReportOptions {
  path: string;
  /** Called once the file is in place (the CLI prints where). */
  written?: (path: string) => void;
  /**
   * With it, a write that fails is told here instead of thrown, so the other reports are still
   * written and the edge can say what was kept (the run's results are worth more than its exit).
   */
  failed?: (failure: WriteFailure) => void;
  /** Where to write the report instead when `path` fails (with `failed`). */
  fallback?: string;
  /**
   * Asked just before writing (with `failed`): when it gives a reason, `path` is not written at
   * all but the report goes straight to the path it gives, told to `failed` as a failure with
   * that reason, kept at `shown` (`evals run`: another run took its `-o` over, see pipeline/journal-takeover.ts).
   */
  divert?: () => { path: string; shown: string; error: Error } | undefined;
}

/** Writes the results artifact. */
export function artifactFile(options: FileReportOptions): Reporter {
  return {
    async onRunEnd({ artifact, log }) {
      await writeReport(options, (path) => log.writeArtifact(path, artifact));
    },
  };
}

/** `write` to `options.path`; on failure, to `options.fallback`, telling `options.failed`. */
export async function writeReport(
  options: FileReportOptions,
  write: (path: string) => Promise<void>,
): Promise<void> {
  const diverted = options.failed === undefined ? undefined : options.divert?.();
  if (diverted !== undefined) {
    let kept: string | null = null;
    try {
      await write(diverted.path);
      kept = diverted.shown;
    } catch {
      // Kept nowhere: the failure says so.
    }
    options.failed?.({ path: options.path, error: diverted.error, kept });
    return;
  }
  try {
    await write(options.path);
  } catch (error) {
    if (options.failed === undefined) throw error;
    let kept = error instanceof WriteKeptError ? error.kept : null;
    if (kept === null && options.fallback !== undefined) {
      try {
        await write(options.fallback);
        kept = options.fallback;
      } catch {
        // Kept nowhere: the failure says so.
      }
    }
    options.failed({ path: options.path, error, kept });
    return;
  }
  options.written?.(options.path);
}

/** Writes the JUnit XML report: one `<testsuite>` per run, counted as its cases finish. */
export function junitFile(options: FileReportOptions): Reporter {
  let totals: JUnitTotals[] = [];
  return {
    onRunStart(start) {
      totals = start.runs.map(() => new JUnitTotals());
    },
    onCaseDone(done) {
      totals[done.run]?.add(done.result);
    },
    async onRunEnd({ artifact, log }) {
      const source = {
        totals: (run: number) => totals[run] ?? new JUnitTotals(),
        cases: (run: number) => log.cases(run),
      };
      await writeReport(options, (path) => writeFileAtomic(path, junitChunks(artifact, source)));
    },
  };
}
