import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/types.ts';
import type { ModuleLoaderOptions } from '../modules/loader.ts';
import type { CaseResult, ResultsArtifact } from '../types.ts';
import {
  comparableCase,
  ReducedCases,
  REPORTED_WHOLE_CASES,
  reportableCase,
} from '../compare/comparable.ts';
import { buildArtifact } from '../report/artifact.ts';
import { executeSuites } from '../pipeline/execute.ts';
import type { RunFilters } from '../pipeline/prepare.ts';
import { toolVersion } from '../version.ts';
import { readGitInfo } from './git-info.ts';
import { useColor, type CommandContext } from './io.ts';
import { loadAndPrepare } from './load.ts';
import { annotateRuns, withShard } from '../merge/annotate.ts';

export interface RunArgs {
  config?: string;
  output: string;
  junit?: string;
  concurrency?: number;
  /** `--trials N`: runs of each case in every suite, overriding the config's `trials`. */
  trials?: number;
  filters: RunFilters;
  /** Interrupt (SIGINT/SIGTERM, wired by the CLI). */
  signal?: AbortSignal;
  /** How user modules are loaded (the Action finds tsx in the user's workspace). */
  loader?: ModuleLoaderOptions;
  /** `--baseline FILE`: an earlier results artifact to compare against. */
  baseline?: string;
  /** `--resume FILE`: an interrupted artifact to finish (only its missing cases run). */
  resume?: string;
  /** `--no-cache`: judge calls bypass the on-disk cache. */
  noCache?: boolean;
  /** `--cache-dir DIR`: where judge calls are cached (default `.evalgate/cache` by the config). */
  cacheDir?: string;
  /** `--update-baselines`: automatic-battle records missing baselines and replaces losers. */
  updateBaselines?: boolean;
  /**
   * Return in `RunOutcome.artifact` every case as the pull-request reports read it
   * (`reportableCase`: cases that did not pass, and flaky ones, whole; passing ones reduced), for
   * the Action. Without it the outcome's runs have empty `cases`. Either way the artifact file
   * gets every case whole, streamed to it as it finishes.
   */
  reportCases?: boolean;
  /**
   * With `reportCases`: how many cases of each run are kept whole at most (the first by testset
   * position), the rest reduced and marked as not detailed (`REPORTED_WHOLE_CASES` by default).
   */
  reportWholeCases?: number;
}

/** Exit codes of `evals run`: verdict pass, verdict fail, interrupted (usage errors are thrown). */
export const EXIT = { pass: 0, fail: 1, usage: 2, interrupted: 130 } as const;

/** What a finished (or interrupted) run produced, for callers that report it further (the Action). */
export interface RunOutcome {
  artifact: ResultsArtifact;
  config: LoadedConfig;
  exitCode: number;
}

/**
 * `evals run`: load → prepare → execute → write the artifact (and JUnit) → exit code.
 * An interrupted run still writes its partial artifact, marked `interrupted: true`.
 */
export async function runCommand(args: RunArgs, ctx: CommandContext): Promise<number> {
  return (await executeRun(args, ctx)).exitCode;
}

/** The whole of `evals run`, returning the artifact and config as well as the exit code. */
export async function executeRun(args: RunArgs, ctx: CommandContext): Promise<RunOutcome> {
  // Read before running, so a bad baseline stops the run before any case costs anything.
  const comparing = args.baseline === undefined ? undefined : await import('./baseline.ts');
  const baseline =
    comparing && args.baseline !== undefined
      ? await comparing.readBaseline(args.baseline, ctx)
      : undefined;
  const resuming =
    args.resume === undefined
      ? undefined
      : (await import('./resume.ts')).startResume(args.resume, args.filters, args.trials, ctx);
  const filters = resuming?.filters ?? args.filters;
  const { config, suites, models } = await loadAndPrepare(args.config, ctx, filters, args.loader, {
    ...(args.trials !== undefined ? { trials: args.trials } : {}),
    ...(args.noCache ? { noCache: true } : {}),
    ...(args.cacheDir !== undefined ? { cacheDir: args.cacheDir } : {}),
    ...(args.updateBaselines ? { updateBaselines: true } : {}),
  });
  const planned = resuming ? resuming.plan(config, suites) : suites;
  const reduce = args.reportCases ? reportableCase : comparableCase;
  const wholeAtMost = args.reportCases
    ? (args.reportWholeCases ?? REPORTED_WHOLE_CASES)
    : undefined;
  const git = readGitInfo(config.dir, ctx.env);
  const execution = await executeSuites(planned, {
    out: (t) => ctx.stdout.write(t),
    err: (t) => ctx.stderr.write(t),
    errIsTTY: Boolean(ctx.stderr.isTTY),
    color: useColor(ctx),
    ...(ctx.stdout.columns ? { width: ctx.stdout.columns } : {}),
    githubActions: ctx.env.GITHUB_ACTIONS === 'true',
    ...(args.signal ? { signal: args.signal } : {}),
    ...(args.concurrency !== undefined ? { globalConcurrency: args.concurrency } : {}),
    // Cases stream to the artifact (bounded), a shard's with their testset positions; the
    // JUnit report (and a resumption) reads them back from the spool. What is read after the
    // run keeps each case reduced to what it reads: the Action's reports, or a baseline
    // comparison. A resumption reads its kept and new cases back from the spool instead.
    keepCases: false,
    ...(resuming === undefined && (args.reportCases || args.baseline !== undefined)
      ? { reduce, ...(wholeAtMost !== undefined ? { wholeAtMost } : {}) }
      : {}),
    junit: args.junit !== undefined && resuming === undefined,
    summary: resuming === undefined,
    positions: filters.shard !== undefined,
  });
  // Files judges keep (automatic-battle baselines) are written once, after the last call.
  for (const failure of await models.finish()) ctx.stderr.write(`warning: ${failure}\n`);
  // Each run records its plan (and a shard its cases' positions) so it can be merged or resumed.
  const fresh = annotateRuns(execution.runs, planned, filters.shard);
  const done = resuming
    ? resuming.finish(fresh, suites, execution, { junit: args.junit !== undefined })
    : { ...execution, runs: fresh };
  const reducedCases = (run: number): Iterable<CaseResult> =>
    resuming ? reduceInOrder(done.cases(run), reduce, wholeAtMost) : execution.reducedCases(run);
  let artifact = buildArtifact({
    toolVersion,
    config: config.file,
    configHash: config.hash,
    git: await git,
    startedAt: done.startedAt,
    durationMs: done.durationMs,
    interrupted: done.interrupted,
    runs: done.runs,
  });
  artifact = withShard(artifact, filters.shard);
  if (comparing && baseline !== undefined && args.baseline !== undefined) {
    artifact = comparing.withComparison(
      artifact,
      // A resumed run's cases are the partial artifact's and the new ones: read back.
      reducedCases,
      baseline,
      args.baseline,
      suites,
      ctx,
    );
  }
  // Read before the artifact is written: the spool they may come from is removed after it.
  const reported = args.reportCases
    ? {
        ...artifact,
        runs: artifact.runs.map((run, i) => ({ ...run, cases: [...reducedCases(i)] })),
      }
    : artifact;
  const output = resolve(ctx.cwd, args.output);
  try {
    await done.writeArtifact(output, artifact);
    ctx.stderr.write(`results written to ${args.output}\n`);
    if (args.junit !== undefined) {
      await done.writeJUnit(resolve(ctx.cwd, args.junit), artifact);
      ctx.stderr.write(`JUnit report written to ${args.junit}\n`);
    }
  } finally {
    done.discard();
  }
  if (done.interrupted) {
    ctx.stderr.write(
      'interrupted: the artifact holds the cases that finished (interrupted: true)\n',
    );
    return { artifact: reported, config, exitCode: EXIT.interrupted };
  }
  return {
    artifact: reported,
    config,
    exitCode: artifact.verdict === 'pass' ? EXIT.pass : EXIT.fail,
  };
}

function reduceInOrder(
  cases: Iterable<CaseResult>,
  reduce: (result: CaseResult) => CaseResult,
  wholeAtMost: number | undefined,
): CaseResult[] {
  const kept = new ReducedCases(reduce, wholeAtMost !== undefined ? { wholeAtMost } : {});
  kept.open([{ cases: 0 }]);
  let index = 0;
  for (const result of cases) kept.record(0, index++, result);
  return kept.cases(0);
}
