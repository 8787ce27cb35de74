import { renderSummary } from '../report/summary-table.ts';
import { createProgressReporter } from '../report/progress.ts';
import { runSuites } from '../run/engine.ts';
import type { SuiteSpec } from '../run/types.ts';
import type { RunResult } from '../types.ts';

/** Where a run's human output goes; the CLI and `runTestSuite` both hand in the process streams. */
export interface ExecuteIO {
  /** The summary table. */
  out: (text: string) => void;
  /** Live progress. */
  err: (text: string) => void;
  /** Progress redraws one line in place on a terminal; periodic plain lines otherwise. */
  errIsTTY: boolean;
  color: boolean;
  /** Terminal width for the summary table, when known. */
  width?: number;
  githubActions: boolean;
  /** Interrupt: the run stops starting cases and returns what finished. */
  signal?: AbortSignal;
  /** `--concurrency N`: cases in flight across the whole process. */
  globalConcurrency?: number;
  /** Print nothing (tests, embedding). */
  quiet?: boolean;
}

export interface Execution {
  runs: RunResult[];
  interrupted: boolean;
  startedAt: Date;
  durationMs: number;
}

/**
 * Runs prepared suites on the one engine with progress, then prints the summary. Shared by
 * `evals run` and the programmatic `runTestSuite`, so both look and behave the same.
 */
export async function executeSuites(suites: SuiteSpec[], io: ExecuteIO): Promise<Execution> {
  const startedAt = new Date();
  const t0 = performance.now();
  const progress = io.quiet
    ? undefined
    : createProgressReporter({
        write: io.err,
        isTTY: io.errIsTTY,
        now: () => performance.now(),
        githubActions: io.githubActions,
      });
  let result;
  try {
    result = await runSuites(suites, {
      ...(progress ? { observer: progress } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      ...(io.globalConcurrency !== undefined ? { globalConcurrency: io.globalConcurrency } : {}),
    });
  } finally {
    progress?.stop();
  }
  const durationMs = performance.now() - t0;
  if (!io.quiet) {
    io.out(
      renderSummary(result.runs, {
        color: io.color,
        interrupted: result.interrupted,
        ...(io.width !== undefined ? { width: io.width } : {}),
      }),
    );
  }
  return { runs: result.runs, interrupted: result.interrupted, startedAt, durationMs };
}
