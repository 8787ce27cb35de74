/**
 * A run from its resolved suites to its reports: the engine runs the suites, every finished
 * case goes to the case log and to each reporter, and at the end the artifact is built and
 * handed to the reporters in order. Shared by `evals run`, the Action and `runTestSuite`, so
 * all three behave the same.
 */
import type { CaseLog } from '../artifact/case-log.ts';
import type { Reporter, RunEnd } from '../report/reporter.ts';
import { runSuites } from '../run/engine.ts';
import type { EngineListener, EngineOptions, SuiteSpec } from '../run/types.ts';
import type { ResultsArtifact, RunResult } from '../types/index.ts';

/** What the engine gave, for building the artifact. */
export interface Executed {
  /** The finished runs, their `cases` empty: the cases are in the log. */
  runs: RunResult[];
  interrupted: boolean;
  startedAt: Date;
  durationMs: number;
}

export interface ExecuteOptions {
  /** Where finished cases go; reporters read them back from it at the end. */
  log: CaseLog;
  /** In order: each hears every event, and their `onRunEnd`s run one after another. */
  reporters: Reporter[];
  engine?: Pick<EngineOptions, 'signal' | 'globalConcurrency' | 'positions' | 'now'>;
  /**
   * The artifact of the finished runs (config, git, timing, a comparison): built once the
   * engine is done, before the reporters' `onRunEnd`.
   */
  artifact(executed: Executed): ResultsArtifact | Promise<ResultsArtifact>;
}

/** Runs `suites` and reports them; resolves to the artifact the reporters got. */
export async function execute(
  suites: SuiteSpec[],
  options: ExecuteOptions,
): Promise<ResultsArtifact> {
  const { log, reporters } = options;
  const listener: EngineListener = {
    onStart(start) {
      log.open(start.runs);
      tellEach(reporters, (reporter) => reporter.onRunStart?.(start));
    },
    onCaseDone(done) {
      log.record(done.run, done.index, done.result);
      tellEach(reporters, (reporter) => reporter.onCaseDone?.(done));
    },
  };
  const startedAt = new Date();
  const t0 = performance.now();
  try {
    const result = await runSuites(suites, {
      ...options.engine,
      listener,
      keepCases: false,
    });
    const artifact = await options.artifact({
      runs: result.runs,
      interrupted: result.interrupted,
      startedAt,
      durationMs: performance.now() - t0,
    });
    const end: RunEnd = { artifact, log };
    for (const reporter of reporters) await reporter.onRunEnd?.(end);
    return artifact;
  } finally {
    for (const reporter of reporters) reporter.close?.();
  }
}

/** Tells every reporter, even when one throws; then throws the first error. */
function tellEach(reporters: Reporter[], tell: (reporter: Reporter) => void): void {
  let failure: { error: unknown } | null = null;
  for (const reporter of reporters) {
    try {
      tell(reporter);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure !== null) throw failure.error;
}
