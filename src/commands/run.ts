import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/types.ts';
import type { ModuleLoaderOptions } from '../modules/loader.ts';
import { regressionCondition } from '../compare/gate.ts';
import { renderComparisonText } from '../compare/render.ts';
import { UsageError, usageError } from '../errors.ts';
import { validateArtifact } from '../report/artifact-schema.ts';
import type { SuiteSpec } from '../run/types.ts';
import { canonicalJson } from '../testsets/identity.ts';
import type { Params, ResultsArtifact } from '../types.ts';
import { compareResults, readJson } from './compare.ts';
import { buildArtifact, overallVerdict, serializeArtifactChunks } from '../report/artifact.ts';
import { renderJUnit } from '../report/junit.ts';
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

/** The baseline file, checked to be a results artifact of this schema version. */
async function readBaseline(path: string, ctx: CommandContext): Promise<ResultsArtifact> {
  const value = await readJson(path, ctx);
  const problems = validateArtifact(value);
  if (problems.length > 0) {
    const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
    throw usageError(
      'baseline.invalid',
      version !== undefined && version !== 1
        ? `--baseline ${path}: schemaVersion ${JSON.stringify(version)} is not supported (this evalgate reads schemaVersion 1)`
        : `--baseline ${path} is not a results artifact: ${problems.slice(0, 3).join('; ')}`,
      path,
    );
  }
  return value as ResultsArtifact;
}

/**
 * Compares the run with its baseline, embeds the comparison, prints it, and applies each suite's
 * `gate.regressions`: `block` adds a failing gate condition for corrected significant
 * regressions, `warn` prints them. A baseline sharing no case with the run is a warning here,
 * not an error: the run itself is done and stays valid.
 */
function withComparison(
  artifact: ResultsArtifact,
  baseline: ResultsArtifact,
  baselinePath: string,
  suites: SuiteSpec[],
  ctx: CommandContext,
): ResultsArtifact {
  let comparison;
  try {
    comparison = compareResults(baseline, artifact, { base: baselinePath, head: 'this run' });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    ctx.stderr.write(`warning: no comparison with ${baselinePath}: ${error.message}\n`);
    return artifact;
  }
  const policy = new Map(suites.map((s) => [s.id, s.gate.regressions ?? 'warn']));
  const runs = artifact.runs.map((run) => {
    const compared = comparison.runs.find(
      (c) => c.suite === run.suite && sameParams(c.params, run.params),
    );
    const rule = policy.get(run.suite) ?? 'warn';
    if (!compared || rule === 'off') return run;
    const condition = regressionCondition(compared);
    if (rule === 'warn') {
      if (!condition.passed)
        ctx.stderr.write(`warning: ${run.suite}: significant regression: ${condition.actual}\n`);
      return run;
    }
    const conditions = [...run.gate.conditions, condition];
    return {
      ...run,
      gate: { conditions },
      verdict: condition.passed ? run.verdict : ('fail' as const),
    };
  });
  ctx.stdout.write(`\n${renderComparisonText(comparison, { color: useColor(ctx) })}`);
  return { ...artifact, runs, verdict: overallVerdict(runs, artifact.interrupted), comparison };
}

function sameParams(a: Params, b: Params): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

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
  const baseline = args.baseline === undefined ? undefined : await readBaseline(args.baseline, ctx);
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
  if (baseline !== undefined && args.baseline !== undefined) {
    artifact = withComparison(artifact, baseline, args.baseline, suites, ctx);
  }
  const output = resolve(ctx.cwd, args.output);
  await writeFileAtomic(output, serializeArtifactChunks(artifact));
  ctx.stderr.write(`results written to ${args.output}\n`);
  if (args.junit !== undefined) {
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
