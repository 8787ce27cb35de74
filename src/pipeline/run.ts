import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/types.ts';
import type { ModuleLoaderOptions } from '../bind/modules/loader.ts';
import type { ResultsArtifact } from '../types/index.ts';
import { buildArtifact } from '../artifact/artifact.ts';
import { CaseSpool } from '../artifact/spool.ts';
import { createReporters, type ReporterContext, type ReporterSpec } from '../report/registry.ts';
import type { Reporter } from '../report/reporter.ts';
import { execute } from './execute.ts';
import type { RunFilters } from '../plan/types.ts';
import { usageError } from '../shared/errors.ts';
import { toolVersion } from '../shared/version.ts';
import { readGitInfo } from './git-info.ts';
import { useColor, type CommandContext } from './context.ts';
import { loadAndPlan, loadAndPrepare } from './load.ts';
import type { Resumption } from './resume.ts';
import { renderPlan } from '../report/plan.ts';
import { annotateRuns, withShard } from '../artifact/annotate.ts';

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
  /** `--dry-run`: print the plan (suites, grid points, cases, model calls at most) and run nothing. */
  dryRun?: boolean;
}

/** Exit codes of `evals run`: verdict pass, verdict fail, interrupted (usage errors are thrown). */
export const EXIT = { pass: 0, fail: 1, usage: 2, interrupted: 130 } as const;

/** What a finished (or interrupted) run produced, for callers that report it further (the Action). */
export interface RunOutcome {
  /** The artifact as written, without its cases (the reporters read those from the run's log). */
  artifact: ResultsArtifact;
  config: LoadedConfig;
  exitCode: number;
}

/**
 * `evals run`: load → prepare → execute → write the artifact (and JUnit) → exit code.
 * An interrupted run still writes its partial artifact, marked `interrupted: true`.
 */
export async function runCommand(args: RunArgs, ctx: CommandContext): Promise<number> {
  if (args.dryRun === true) return dryRun(args, ctx);
  return (await executeRun(args, ctx)).exitCode;
}

/**
 * `evals run --dry-run`: the plan of the run the same arguments would make, printed; nothing is
 * run, no module is loaded and no model is called. Exit 0, or 2 for the problems a run would
 * stop at before its first case (the config, the testsets, their pins, the filters).
 */
async function dryRun(args: RunArgs, ctx: CommandContext): Promise<number> {
  const { resuming, filters, trials } = await selection(args, ctx);
  const { config, plan } = await loadAndPlan(args.config, ctx, filters, trials);
  ctx.stdout.write(renderPlan(resuming ? resuming.narrow(plan, config).plan : plan));
  return EXIT.pass;
}

/**
 * What the arguments select: with `--resume`, the interrupted run (whose shard and suites the
 * filters take), and the trials `--trials` sets.
 */
async function selection(
  args: RunArgs,
  ctx: CommandContext,
): Promise<{ resuming: Resumption | undefined; filters: RunFilters; trials: { trials?: number } }> {
  const resuming =
    args.resume === undefined
      ? undefined
      : (await import('./resume.ts')).startResume(args.resume, args.filters, args.trials, ctx);
  return {
    resuming,
    filters: resuming?.filters ?? args.filters,
    trials: args.trials !== undefined ? { trials: args.trials } : {},
  };
}

/**
 * The whole of `evals run`, returning the artifact and config as well as the exit code.
 * `reporters` are added after the run's own (progress, summary, artifact file, JUnit): the
 * Action's pull-request reports.
 */
export async function executeRun(
  args: RunArgs,
  ctx: CommandContext,
  reporters: Reporter[] = [],
): Promise<RunOutcome> {
  if (args.dryRun === true) {
    throw usageError(
      'cli.dry-run',
      '--dry-run prints the plan of `evals run` on the command line; here the suites run and report (leave --dry-run out)',
    );
  }
  // Read before running, so a bad baseline stops the run before any case costs anything.
  const comparing = args.baseline === undefined ? undefined : await import('./baseline.ts');
  const baseline =
    comparing && args.baseline !== undefined
      ? await comparing.readBaseline(args.baseline, ctx)
      : undefined;
  const { resuming, filters, trials } = await selection(args, ctx);
  const { config, plan, suites, models } = await loadAndPrepare(
    args.config,
    ctx,
    filters,
    args.loader,
    {
      ...trials,
      ...(args.noCache ? { noCache: true } : {}),
      ...(args.cacheDir !== undefined ? { cacheDir: args.cacheDir } : {}),
      ...(args.updateBaselines ? { updateBaselines: true } : {}),
    },
    resuming ? (planned, loaded) => resuming.narrow(planned, loaded) : undefined,
  );
  const git = readGitInfo(config.dir, ctx.env);
  // Cases the resumed runs take over from the partial: the rest ran now.
  const takenOver = plan.resume?.kept ?? 0;
  let ran = 0;
  const specs: ReporterSpec[] = [
    { name: 'progress' },
    { name: 'summary', ...(resuming ? { preface: () => resuming.preface(ran) } : {}) },
    { name: 'artifact', path: resolve(ctx.cwd, args.output), shown: args.output },
    ...(args.junit !== undefined
      ? [{ name: 'junit' as const, path: resolve(ctx.cwd, args.junit), shown: args.junit }]
      : []),
  ];
  const own = createReporters(specs, reporterContext(ctx));
  // Cases are spooled to disk as they finish, so memory does not grow with the testset.
  const log = new CaseSpool();
  let artifact: ResultsArtifact;
  try {
    artifact = await execute(suites, {
      log,
      reporters: [...own, ...reporters],
      engine: {
        ...(args.signal ? { signal: args.signal } : {}),
        ...(args.concurrency !== undefined ? { globalConcurrency: args.concurrency } : {}),
        // A shard's cases carry their testset positions, for `evals merge`.
        positions: filters.shard !== undefined,
      },
      artifact: async (executed) => {
        // Files judges keep (automatic-battle baselines) are written once, after the last call.
        for (const failure of await models.finish()) ctx.stderr.write(`warning: ${failure}\n`);
        const recorded = executed.runs.reduce((sum, run) => sum + run.summary.cases, 0);
        ran = recorded - takenOver;
        // Each run records its plan so it can be merged or resumed without the config.
        const runs = annotateRuns(executed.runs, suites);
        // A resumed run may be complete in cases and still be marked so: it counts them.
        const incomplete = runs.some((run) => run.summary.cases < run.testset.cases);
        const interrupted = executed.interrupted || (resuming !== undefined && incomplete);
        let built = buildArtifact({
          toolVersion,
          config: config.file,
          configHash: config.hash,
          git: await git,
          startedAt: resuming?.startedAt ?? executed.startedAt,
          durationMs: (resuming?.durationMs ?? 0) + executed.durationMs,
          interrupted,
          runs,
        });
        built = withShard(built, filters.shard);
        if (comparing && baseline !== undefined && args.baseline !== undefined) {
          built = comparing.withComparison(
            built,
            (run) => log.cases(run),
            baseline,
            args.baseline,
            suites,
            ctx,
          );
        }
        return built;
      },
    });
  } finally {
    log.discard();
  }
  if (artifact.interrupted) {
    ctx.stderr.write(
      'interrupted: the artifact holds the cases that finished (interrupted: true)\n',
    );
    return { artifact, config, exitCode: EXIT.interrupted };
  }
  return { artifact, config, exitCode: artifact.verdict === 'pass' ? EXIT.pass : EXIT.fail };
}

/** Where a command's reporters write: its streams, as the terminal it runs in allows. */
export function reporterContext(ctx: CommandContext): ReporterContext {
  return {
    out: (text) => ctx.stdout.write(text),
    err: (text) => ctx.stderr.write(text),
    errIsTTY: Boolean(ctx.stderr.isTTY),
    color: useColor(ctx),
    ...(ctx.stdout.columns ? { width: ctx.stdout.columns } : {}),
    githubActions: ctx.env.GITHUB_ACTIONS === 'true',
  };
}
