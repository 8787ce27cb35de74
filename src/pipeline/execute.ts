import { indexingSink } from '../merge/annotate.ts';
import { serializeArtifactChunks } from '../report/artifact.ts';
import { junitChunks, JUnitTotals, renderJUnit } from '../report/junit.ts';
import { CaseSpool } from '../report/artifact-writer.ts';
import { ListedCases } from '../report/case-listing.ts';
import { renderSummary, type CaseListing } from '../report/summary-table.ts';
import { createProgressReporter } from '../report/progress.ts';
import { runSuites } from '../run/engine.ts';
import { ReducedCases } from '../compare/comparable.ts';
import type { CaseSink, SuiteSpec } from '../run/types.ts';
import type { CaseResult, PreparedCase, ResultsArtifact, RunResult } from '../types.ts';
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
   * need every case at once (the Action's report, `runTestSuite`) keep them; JUnit and
   * `--baseline` read them back one at a time (`cases`), and a plain `evals run` does neither.
   */
  keepCases?: boolean;
  /**
   * With spooled cases (`keepCases: false`), also count what `writeJUnit` needs as cases
   * finish, so the JUnit report streams from the spool too.
   */
  junit?: boolean;
  /**
   * With spooled cases, also keep each case reduced by this as it finishes: `comparableCase`
   * for `--baseline`, which then compares without reading the spool back; `reportableCase` for
   * the Action's reports. The whole cases still go to the spool, and from it to the artifact.
   */
  reduce?: (result: CaseResult) => CaseResult;
  /**
   * With `reduce`: the cases it keeps whole are kept so for at most this many of each run, the
   * first by testset position, and reduced past that (see `ReducedCases`).
   */
  wholeAtMost?: number;
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
  /** Run `run`'s cases in order: read back from the spool, or the ones held in `runs`. */
  cases(run: number): Iterable<CaseResult>;
  /**
   * Run `run`'s cases in order as the run kept them reduced (`reduce`); without `reduce`, as
   * `cases` gives them.
   */
  reducedCases(run: number): Iterable<CaseResult>;
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
  const reports = keepCases
    ? null
    : new SpooledReports({
        junit: io.junit === true,
        positions: io.positions === true,
        ...(io.reduce ? { reduce: io.reduce } : {}),
        ...(io.wholeAtMost !== undefined ? { wholeAtMost: io.wholeAtMost } : {}),
      });
  let result;
  try {
    result = await runSuites(suites, {
      ...(progress ? { observer: progress } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      ...(io.globalConcurrency !== undefined ? { globalConcurrency: io.globalConcurrency } : {}),
      keepCases,
      ...(reports ? { sink: reports } : {}),
    });
  } catch (error) {
    reports?.discard();
    throw error;
  } finally {
    progress?.stop();
  }
  const durationMs = performance.now() - t0;
  if (!io.quiet && io.summary !== false) {
    io.out(
      renderSummary(result.runs, {
        color: io.color,
        interrupted: result.interrupted,
        ...(io.width !== undefined ? { width: io.width } : {}),
        ...(reports ? { listings: reports.listings(result.runs.length) } : {}),
      }),
    );
  }
  const { runs } = result;
  const cases = (run: number): Iterable<CaseResult> =>
    reports?.cases(run) ?? runs[run]?.cases ?? [];
  return {
    runs,
    interrupted: result.interrupted,
    startedAt,
    durationMs,
    cases,
    reducedCases: (run) => reports?.reducedCases(run) ?? cases(run),
    writeArtifact: (path, artifact) =>
      reports
        ? reports.writeArtifact(path, artifact)
        : writeFileAtomic(path, serializeArtifactChunks(artifact)),
    writeJUnit: (path, artifact) =>
      reports ? reports.writeJUnit(path, artifact) : writeFileAtomic(path, renderJUnit(artifact)),
    discard: () => reports?.discard(),
  };
}

/**
 * Cases spooled to disk as they finish, and the reports written from them: the artifact (cases
 * copied in from the spool), the JUnit report (counts kept as cases finish, cases read back one
 * at a time) and the summary table's listings. A {@link CaseSink}; `evals run --resume` fills one
 * with the kept and the new cases of each run.
 */
export class SpooledReports implements CaseSink {
  readonly #spool = new CaseSpool();
  readonly #listed = new ListedCases();
  readonly #junit: JUnitCounts | null;
  readonly #reduced: ReducedCases | null;
  readonly #sink: CaseSink;

  /**
   * `junit`: count what `writeJUnit` needs. `positions`: record each case's testset position
   * (`index`) in the artifact, as a shard's artifact needs. `reduce`: also keep each case reduced
   * by it (`reducedCases`).
   */
  constructor(options: {
    junit: boolean;
    positions?: boolean;
    reduce?: (result: CaseResult) => CaseResult;
    wholeAtMost?: number;
  }) {
    this.#junit = options.junit ? new JUnitCounts() : null;
    this.#reduced = options.reduce
      ? new ReducedCases(options.reduce, {
          ...(options.wholeAtMost !== undefined ? { wholeAtMost: options.wholeAtMost } : {}),
        })
      : null;
    this.#sink = allSinks([
      options.positions === true ? indexingSink(this.#spool) : this.#spool,
      this.#listed,
      ...(this.#junit ? [this.#junit] : []),
      ...(this.#reduced ? [this.#reduced] : []),
    ]);
  }

  /** Run `run`'s cases reduced, when kept so (`reduce`). */
  reducedCases(run: number): CaseResult[] | undefined {
    return this.#reduced?.cases(run);
  }

  open(runs: readonly { cases: number }[]): void {
    this.#sink.open(runs);
  }

  record(run: number, index: number, result: CaseResult, testCase?: PreparedCase): void {
    this.#sink.record(run, index, result, testCase);
  }

  /** What the summary table lists for each of `count` runs. */
  listings(count: number): (CaseListing | undefined)[] {
    return Array.from({ length: count }, (_, run) => this.#listed.listing(run));
  }

  /** Run `run`'s spooled cases read back in order, or undefined when it has none spooled. */
  cases(run: number): Iterable<CaseResult> | undefined {
    return this.#spool.spooled(run) ? this.#spool.cases(run) : undefined;
  }

  writeArtifact(path: string, artifact: ResultsArtifact): Promise<void> {
    return this.#spool.writeArtifact(path, artifact);
  }

  writeJUnit(path: string, artifact: ResultsArtifact): Promise<void> {
    const junit = this.#junit;
    if (!junit)
      throw new Error('writeJUnit of spooled cases needs SpooledReports({ junit: true })');
    // A run with nothing spooled (none of its cases finished) writes what it holds.
    const cases = (run: number) => this.cases(run) ?? artifact.runs[run]?.cases ?? [];
    return writeFileAtomic(
      path,
      junitChunks(artifact, { totals: (run) => junit.totals(run), cases }),
    );
  }

  discard(): void {
    this.#spool.discard();
  }
}

function allSinks(sinks: CaseSink[]): CaseSink {
  return {
    open(runs) {
      for (const sink of sinks) sink.open(runs);
    },
    record(run, index, result, testCase) {
      for (const sink of sinks) sink.record(run, index, result, testCase);
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
