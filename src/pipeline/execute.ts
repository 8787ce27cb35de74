import { indexingSink } from '../merge/annotate.ts';
import { serializeArtifactChunks } from '../report/artifact.ts';
import { junitChunks, JUnitTotals, renderJUnit } from '../report/junit.ts';
import { CaseSpool } from '../report/artifact-writer.ts';
import { MAX_LISTED_CASES, renderSummary, type CaseListing } from '../report/summary-table.ts';
import { createProgressReporter } from '../report/progress.ts';
import { runSuites } from '../run/engine.ts';
import type { CaseSink, SuiteSpec } from '../run/types.ts';
import type { CaseResult, ResultsArtifact, RunResult } from '../types.ts';
import { writeFileAtomic } from './write-file-atomic.ts';

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
  /**
   * Print the summary table at the end (default true). A resumed run prints its own, of the
   * kept and the new cases together.
   */
  summary?: boolean;
  /**
   * Keep every case in memory and return it in `runs[].cases` (default true). With false, cases
   * are spooled to disk as they finish and `runs[].cases` come back empty: memory no longer
   * grows with the testset, and `writeArtifact` streams them into the artifact. Callers that
   * read the cases afterwards (JUnit, `--baseline`, the Action's report, `runTestSuite`) keep
   * them; a plain `evals run` does not.
   */
  keepCases?: boolean;
  /**
   * With spooled cases (`keepCases: false`), also count what `writeJUnit` needs as cases
   * finish, so the JUnit report streams from the spool too.
   */
  junit?: boolean;
  /**
   * Record each streamed case's testset position (`index`) in the artifact, as a shard's
   * artifact needs for `evals merge` to restore testset order. Kept cases get theirs from
   * `annotateRuns`.
   */
  positions?: boolean;
}

export interface Execution {
  /** With `keepCases: false`, every run's `cases` is empty (the summaries are complete). */
  runs: RunResult[];
  interrupted: boolean;
  startedAt: Date;
  durationMs: number;
  /**
   * Writes the results artifact built from `runs` (through a temporary file and a rename). Its
   * runs must be this execution's, in order: spooled cases are put back into run i by position.
   */
  writeArtifact(path: string, artifact: ResultsArtifact): Promise<void>;
  /**
   * Writes the JUnit report of `artifact` (built from `runs`, as for `writeArtifact`); spooled
   * cases are read back one at a time (needs `junit: true` when they are spooled).
   */
  writeJUnit(path: string, artifact: ResultsArtifact): Promise<void>;
  /** Frees the spool: call it once the reports are written, or instead of them. Idempotent. */
  discard(): void;
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
  const keepCases = io.keepCases ?? true;
  const spool = keepCases ? null : new CaseSpool();
  const listed = keepCases ? null : new ListedCases();
  const junit = keepCases || io.junit !== true ? null : new JUnitCounts();
  let result;
  try {
    result = await runSuites(suites, {
      ...(progress ? { observer: progress } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      ...(io.globalConcurrency !== undefined ? { globalConcurrency: io.globalConcurrency } : {}),
      keepCases,
      ...(spool && listed
        ? {
            sink: allSinks([
              io.positions ? indexingSink(spool, suites) : spool,
              listed,
              ...(junit ? [junit] : []),
            ]),
          }
        : {}),
    });
  } catch (error) {
    spool?.discard();
    throw error;
  } finally {
    progress?.stop();
  }
  const durationMs = performance.now() - t0;
  if (!io.quiet && io.summary !== false) {
    const listings = listed ? result.runs.map((_, index) => listed.listing(index)) : undefined;
    io.out(
      renderSummary(result.runs, {
        color: io.color,
        interrupted: result.interrupted,
        ...(io.width !== undefined ? { width: io.width } : {}),
        ...(listings ? { listings } : {}),
      }),
    );
  }
  return {
    runs: result.runs,
    interrupted: result.interrupted,
    startedAt,
    durationMs,
    writeArtifact: (path, artifact) =>
      spool
        ? spool.writeArtifact(path, artifact)
        : writeFileAtomic(path, serializeArtifactChunks(artifact)),
    writeJUnit(path, artifact) {
      if (!spool) return writeFileAtomic(path, renderJUnit(artifact));
      if (!junit)
        throw new Error('writeJUnit of spooled cases needs executeSuites({ junit: true })');
      // A run with nothing spooled (none of its cases finished) writes what it holds.
      const cases = (run: number) =>
        spool.spooled(run) ? spool.cases(run) : (artifact.runs[run]?.cases ?? []);
      return writeFileAtomic(
        path,
        junitChunks(artifact, { totals: (run) => junit.totals(run), cases }),
      );
    },
    discard: () => spool?.discard(),
  };
}

function allSinks(sinks: CaseSink[]): CaseSink {
  return {
    open(runs) {
      for (const sink of sinks) sink.open(runs);
    },
    record(run, index, result) {
      for (const sink of sinks) sink.record(run, index, result);
    },
  };
}

/** Each run's JUnit counts, kept as its cases finish (when they are spooled, not kept). */
class JUnitCounts implements CaseSink {
  #runs: JUnitTotals[] = [];

  open(runs: readonly { cases: number }[]): void {
    this.#runs = runs.map(() => new JUnitTotals());
  }

  record(run: number, _index: number, result: CaseResult): void {
    this.#runs[run]?.add(result);
  }

  totals(run: number): JUnitTotals {
    return this.#runs[run] ?? new JUnitTotals();
  }
}

/** A run's cases as far as the summary table needs them. */
interface RunListing {
  /** The first `MAX_LISTED_CASES` not-passed cases in testset order, by index. */
  notPassed: Map<number, CaseResult>;
  notPassedCount: number;
  /** The same for cases that passed but are flaky. */
  flakyPassed: Map<number, CaseResult>;
  flakyPassedCount: number;
}

/**
 * What the end-of-run summary table reads from a run's cases when they are not kept: it lists
 * the first `MAX_LISTED_CASES` cases that did not pass (and that passed but are flaky) and
 * counts the rest. So only those few are held, a bounded amount per run; the others are
 * counted, and stand in the table's input as one shared placeholder each (a pointer, not a
 * case), so the table's counts come out as they would from the full list.
 */
class ListedCases implements CaseSink {
  #runs: RunListing[] = [];

  open(runs: readonly { cases: number }[]): void {
    this.#runs = runs.map(() => ({
      notPassed: new Map(),
      notPassedCount: 0,
      flakyPassed: new Map(),
      flakyPassedCount: 0,
    }));
  }

  record(run: number, index: number, result: CaseResult): void {
    const listing = this.#runs[run];
    if (listing === undefined) return;
    if (!result.passed) {
      listing.notPassedCount++;
      keepFirst(listing.notPassed, index, result);
    } else if (result.flaky === true) {
      listing.flakyPassedCount++;
      keepFirst(listing.flakyPassed, index, result);
    }
  }

  /** What the summary table lists for run `index`: the first cases of each kind, in testset order. */
  listing(index: number): CaseListing | undefined {
    const listing = this.#runs[index];
    if (listing === undefined) return undefined;
    return {
      notPassed: inOrder(listing.notPassed),
      notPassedCount: listing.notPassedCount,
      flakyPassed: inOrder(listing.flakyPassed),
      flakyPassedCount: listing.flakyPassedCount,
    };
  }
}

/** Keeps the `MAX_LISTED_CASES` lowest indexes: cases finish out of order, the table lists the first. */
function keepFirst(kept: Map<number, CaseResult>, index: number, result: CaseResult): void {
  if (kept.size < MAX_LISTED_CASES) {
    kept.set(index, result);
    return;
  }
  let highest = -1;
  for (const key of kept.keys()) highest = Math.max(highest, key);
  if (index < highest) {
    kept.delete(highest);
    kept.set(index, result);
  }
}

function inOrder(kept: Map<number, CaseResult>): CaseResult[] {
  return [...kept.entries()].sort(([a], [b]) => a - b).map(([, result]) => result);
}
