/**
 * The summary table at the end of a run, as a reporter: it notes the few cases of each run that
 * the table lists as they finish (`ListedCases`), then prints the table of the finished runs.
 */
import { ListedCases } from './case-listing.ts';
import type { Reporter } from './reporter.ts';
import { notComparedWarning } from './not-compared.ts';
import { renderSummary } from './summary-table.ts';

export interface TerminalSummaryOptions {
  write: (text: string) => void;
  color: boolean;
  /** The terminal's width, when known. */
  width?: number;
  /** A line printed before the table (a resumed run says what it took over). */
  preface?: () => string | undefined;
  /**
   * Why the run was not compared with the baseline it was given, when it was not: said under
   * the verdict, which then says nothing about regressions.
   */
  notCompared?: () => string | undefined;
}

/** The summary's last word on a run that `--ignore-pin` let through. */
export const PIN_IGNORED =
  'warning: --ignore-pin: a testset did not match its pinned revision and ran anyway; these results are not comparable to runs at the pin (pinIgnored: true)';

/** Prints the end-of-run summary table through `write`. */
export function terminalSummary(options: TerminalSummaryOptions): Reporter {
  const listed = new ListedCases();
  return {
    onRunStart(start) {
      listed.open(start.runs);
    },
    onCaseDone(done) {
      listed.record(done.run, done.index, done.result);
    },
    onRunEnd({ artifact }) {
      const preface = options.preface?.();
      if (preface !== undefined) options.write(preface);
      options.write(
        renderSummary(artifact.runs, {
          color: options.color,
          interrupted: artifact.interrupted,
          listings: artifact.runs.map((_, run) => listed.listing(run)),
          ...(artifact.missingSuites !== undefined && { missingSuites: artifact.missingSuites }),
          ...(options.width !== undefined ? { width: options.width } : {}),
        }),
      );
      const notCompared = options.notCompared?.() ?? artifact.notCompared?.why;
      if (notCompared !== undefined && artifact.comparison === undefined) {
        options.write(`${notComparedWarning(notCompared)}\n`);
      }
      if (artifact.pinIgnored === true) options.write(`${PIN_IGNORED}\n`);
    },
  };
}
