/**
 * `evals run --resume PARTIAL.json`: the edges around the core in src/merge/resume.ts. Opens
 * and checks the interrupted artifact, and narrows the run to its runs, each taking the cases
 * the partial holds over (the engine records them as they were and runs the rest). Loaded on
 * demand, only by runs that resume.
 */
import type { LoadedConfig } from '../config/types.ts';
import { UsageError, usageError } from '../shared/errors.ts';
import { checkPartial, planResume } from '../artifact/resume.ts';
import type { RunFilters } from '../bind/prepare.ts';
import type { SuiteSpec } from '../run/types.ts';
import { openResultsFile } from './artifact-files.ts';
import type { CommandContext } from './context.ts';

/** A resumption under way: what to run, and what the artifact takes over from the partial. */
export interface Resumption {
  /** The run's filters with the partial run's shard and suites filled in. */
  filters: RunFilters;
  /** The prepared suites narrowed to the partial's runs, each taking over its cases. */
  plan(config: LoadedConfig, suites: SuiteSpec[]): SuiteSpec[];
  /** The interrupted run's start: the resumed artifact dates from it. */
  startedAt: Date;
  /** The interrupted run's duration: the resumed artifact counts the time of both. */
  durationMs: number;
  /** What the summary says before its table: how many cases were taken over, how many ran. */
  preface(ran: number): string;
}

/**
 * Reads `path` and checks it can be resumed with these filters. `--shard` may be left out (the
 * partial's shard is used) but not contradict it; `--suite` defaults to the partial's suites,
 * so modules of suites it did not run are not loaded.
 */
export function startResume(
  path: string,
  filters: RunFilters,
  trials: number | undefined,
  ctx: CommandContext,
): Resumption {
  const named = openResultsFile(path, ctx, '--resume');
  const partial = named.artifact;
  if (!partial.interrupted) {
    throw usageError('resume.complete', checkPartial(partial, path, partial.configHash)[0]!, path);
  }
  const shard = partial.shard;
  if (filters.shard && !(shard && sameShard(shard, filters.shard))) {
    throw usageError(
      'resume.shard',
      `--shard ${filters.shard.index}/${filters.shard.count} does not match ${path}, which ${shard ? `holds shard ${shard.index}/${shard.count}` : 'is not a shard'}; leave --shard out when resuming`,
      path,
    );
  }
  const suites = filters.suites?.length
    ? filters.suites
    : [...new Set(partial.runs.map((r) => r.suite))];
  const resumeFilters: RunFilters = {
    ...filters,
    ...(suites.length > 0 ? { suites } : {}),
    ...(shard ? { shard: { index: shard.index, count: shard.count } } : {}),
  };
  const kept = named.caseCounts.reduce((sum, n) => sum + n, 0);
  return {
    filters: resumeFilters,
    plan(config, prepared) {
      const problems = checkPartial(partial, path, config.hash);
      if (problems.length > 0) throw problemsError('resume.mismatch', problems, path);
      const planned = planResume(prepared, named, trials !== undefined ? { trials } : {});
      if (!planned.ok) throw problemsError('resume.mismatch', planned.problems, path);
      const left = planned.value
        .flatMap((spec) => spec.runs)
        .reduce((sum, run) => sum + run.cases.length - (run.resumed?.positions.size ?? 0), 0);
      ctx.stderr.write(`resuming ${path}: ${kept} case result(s) kept, ${left} to run\n`);
      return planned.value;
    },
    startedAt: new Date(partial.startedAt),
    durationMs: partial.durationMs,
    preface: (ran) => `Resumed ${path}: ${kept} case result(s) kept, ${ran} run now.\n\n`,
  };
}

function sameShard(
  a: { index: number; count: number },
  b: { index: number; count: number },
): boolean {
  return a.index === b.index && a.count === b.count;
}

/** One issue per problem, so each is printed on its own `error:` line. */
function problemsError(code: string, problems: string[], path: string): UsageError {
  return new UsageError(
    problems.map((message) => ({ code, file: path, line: 0, col: 0, path: '', message })),
  );
}
