import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/types.ts';
import type { ModuleLoaderOptions } from '../modules/loader.ts';
import type { ResultsArtifact } from '../types.ts';
import { buildArtifact, serializeArtifactChunks } from '../report/artifact.ts';
import { executeSuites } from '../pipeline/execute.ts';
import type { RunFilters } from '../pipeline/prepare.ts';
import { toolVersion } from '../version.ts';
import { readGitInfo } from './git-info.ts';
import { writeFileAtomic } from '../pipeline/write-file-atomic.ts';
import { useColor, type CommandContext } from './io.ts';
import { loadAndPrepare } from './load.ts';

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
  const { config, suites } = await loadAndPrepare(
    args.config,
    ctx,
    args.filters,
    args.loader,
    args.trials !== undefined ? { trials: args.trials } : {},
  );
  const git = readGitInfo(config.dir, ctx.env);
  const execution = await executeSuites(suites, {
    out: (t) => ctx.stdout.write(t),
    err: (t) => ctx.stderr.write(t),
    errIsTTY: Boolean(ctx.stderr.isTTY),
    color: useColor(ctx),
    ...(ctx.stdout.columns ? { width: ctx.stdout.columns } : {}),
    githubActions: ctx.env.GITHUB_ACTIONS === 'true',
    ...(args.signal ? { signal: args.signal } : {}),
    ...(args.concurrency !== undefined ? { globalConcurrency: args.concurrency } : {}),
  });
  let artifact = buildArtifact({
    toolVersion,
    config: config.file,
    configHash: config.hash,
    git: await git,
    startedAt: execution.startedAt,
    durationMs: execution.durationMs,
    interrupted: execution.interrupted,
    runs: execution.runs,
  });
  if (comparing && baseline !== undefined && args.baseline !== undefined) {
    artifact = comparing.withComparison(artifact, baseline, args.baseline, suites, ctx);
  }
  const output = resolve(ctx.cwd, args.output);
  await writeFileAtomic(output, serializeArtifactChunks(artifact));
  ctx.stderr.write(`results written to ${args.output}\n`);
  if (args.junit !== undefined) {
    const { renderJUnit } = await import('../report/junit.ts');
    await writeFileAtomic(resolve(ctx.cwd, args.junit), renderJUnit(artifact));
    ctx.stderr.write(`JUnit report written to ${args.junit}\n`);
  }
  if (execution.interrupted) {
    ctx.stderr.write(
      'interrupted: the artifact holds the cases that finished (interrupted: true)\n',
    );
    return { artifact, config, exitCode: EXIT.interrupted };
  }
  return { artifact, config, exitCode: artifact.verdict === 'pass' ? EXIT.pass : EXIT.fail };
}
