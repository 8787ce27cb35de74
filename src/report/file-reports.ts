/**
 * The reports written to files at the end of a run: the results artifact (`-o`) and the JUnit
 * XML report (`--junit`). Each reads the cases back from the run's case log, in testset order.
 */
import { writeFileAtomic } from '../shared/write-file-atomic.ts';
import { JUnitTotals, junitChunks } from './junit.ts';
import type { Reporter } from './reporter.ts';

/** Where a file report goes, and who hears that it was written. */
export interface FileReportOptions {
  path: string;
  /** Called once the file is in place (the CLI prints where). */
  written?: (path: string) => void;
}

/** Writes the results artifact. */
export function artifactFile(options: FileReportOptions): Reporter {
  return {
    async onRunEnd({ artifact, log }) {
      await log.writeArtifact(options.path, artifact);
      options.written?.(options.path);
    },
  };
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
      await writeFileAtomic(options.path, junitChunks(artifact, source));
      options.written?.(options.path);
    },
  };
}
