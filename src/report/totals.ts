/**
 * Runs and cases summed over the runs of an artifact: what every report's headline states (the
 * terminal's verdict line, the markdown report's totals, the Action's outputs and check-run
 * title). Taken from each run's summary, so it needs no case in memory.
 */
import type { RunResult, RunSummary } from '../types/index.ts';

/** Counts over every run; a case is counted once per run it ran in. */
export interface RunTotals extends Pick<RunSummary, 'cases' | 'passed' | 'failed' | 'errored'> {
  runs: number;
  /** Runs whose verdict is fail. */
  failedRuns: number;
}

/** Sums the runs' summaries; all zero for no runs. */
export function runTotals(runs: readonly Pick<RunResult, 'verdict' | 'summary'>[]): RunTotals {
  const totals: RunTotals = { runs: 0, failedRuns: 0, cases: 0, passed: 0, failed: 0, errored: 0 };
  for (const run of runs) {
    totals.runs++;
    if (run.verdict === 'fail') totals.failedRuns++;
    totals.cases += run.summary.cases;
    totals.passed += run.summary.passed;
    totals.failed += run.summary.failed;
    totals.errored += run.summary.errored;
  }
  return totals;
}
