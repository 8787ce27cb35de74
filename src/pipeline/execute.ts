/**
 * A run from its resolved suites to its reports: the engine runs the suites, every finished
 * case goes to the case log and to each reporter, and at the end the artifact is built and
 * handed to the reporters in order. Shared by `evals run`, the Action and `runTestSuite`, so
 * all three behave the same.
 */
import { stringifyCase } from '../artifact/artifact.ts';
import type { CaseLog } from '../artifact/case-log.ts';
import { withRunSecrets } from '../judge/run-secrets.ts';
import type { Reporter, RunEnd } from '../report/reporter.ts';
import { runSuites } from '../run/engine.ts';
import type { CaseDone, EngineListener, EngineOptions, SuiteSpec } from '../run/types.ts';
import { NO_SECRETS, type Scrubber } from '../shared/secrets.ts';
import { capSent } from './sent-cap.ts';
import type { Params, ResultsArtifact, RunResult } from '../types/index.ts';

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
  engine?: Pick<
    EngineOptions,
    'signal' | 'globalConcurrency' | 'positions' | 'shard' | 'now' | 'control'
  >;
  /**
   * The artifact of the finished runs (config, git, timing, a comparison): built once the
   * engine is done, before the reporters' `onRunEnd`.
   */
  artifact(executed: Executed): ResultsArtifact | Promise<ResultsArtifact>;
  /**
   * Removes the run's secrets from each finished case before the log or any reporter sees it,
   * so no artifact, JUnit file, comment or terminal line holds one. Default: none to remove.
   */
  scrubber?: Scrubber;
}

/** Runs `suites` and reports them; resolves to the artifact the reporters got. */
export async function execute(
  suites: SuiteSpec[],
  options: ExecuteOptions,
): Promise<ResultsArtifact> {
  const { log, reporters } = options;
  const scrubber = options.scrubber ?? NO_SECRETS;
  // Each run's grid point as it is recorded and reported: a grid value may be a secret.
  let shownParams: Params[] = [];
  const listener: EngineListener = {
    onStart(engineStart) {
      shownParams = engineStart.runs.map((run) => scrubbedParams(run.params, scrubber));
      const start = {
        ...engineStart,
        runs: engineStart.runs.map((run, i) => ({ ...run, params: shownParams[i] ?? run.params })),
      };
      log.open(start.runs);
      tellEach(reporters, (reporter) => reporter.onRunStart?.(start));
    },
    onCaseDone(finished) {
      const done = cappedSent(scrubbed(finished, scrubber, shownParams[finished.run]));
      log.record(done.run, done.index, done.result, done.json);
      tellEach(reporters, (reporter) => reporter.onCaseDone?.(done));
    },
  };
  const startedAt = new Date();
  const t0 = performance.now();
  try {
    // Model calls made during the run scrub its secrets, also a client made in code that knows
    // none of them (see `judge/run-secrets.ts`).
    const result = await withRunSecrets(scrubber, () =>
      runSuites(suites, {
        ...options.engine,
        listener,
        keepCases: false,
        // Each case is encoded as the artifact writes it once, as it finishes: one that cannot be
        // (a throwing toJSON or getter in user values) is that case's error, not the run's end.
        encode: (result) => stringifyCase(result as RunResult['cases'][number]),
      }),
    );
    const artifact = await options.artifact({
      runs: result.runs.map((run, i) => ({ ...run, params: shownParams[i] ?? run.params })),
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

/**
 * `done` without secrets: its run's grid point as shown, its case line scrubbed and, when that
 * removed any, its result read back from the clean line (so the log and the reporters see the
 * same clean case).
 */
function scrubbed(done: CaseDone, scrubber: Scrubber, params = done.params): CaseDone {
  if (scrubber.empty) return done;
  const json = done.json === undefined ? undefined : scrubber.json(done.json);
  if (json === done.json) return params === done.params ? done : { ...done, params };
  return { ...done, params, json, result: JSON.parse(json!) as CaseDone['result'] };
}

/**
 * `done` with what its target sent cut to size (`sent-cap.ts`), after the scrub: the log and
 * the reporters see the same cut case.
 */
function cappedSent(done: CaseDone): CaseDone {
  const result = done.result;
  const capped = capSent(result);
  if (capped === result) return done;
  return { ...done, result: capped, json: stringifyCase(capped) };
}

/** `params` without secrets (the same object when it holds none). */
export function scrubbedParams(params: Params, scrubber: Scrubber): Params {
  if (scrubber.empty) return params;
  const text = JSON.stringify(params);
  const clean = scrubber.json(text);
  return clean === text ? params : (JSON.parse(clean) as Params);
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
