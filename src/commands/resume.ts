/**
 * `evals run --resume PARTIAL.json`: the edges around the core in src/merge/resume.ts. Opens
 * and checks the interrupted artifact, narrows the run to what is left, and afterwards combines
 * the old and new cases into a spool the artifact (and JUnit report) is written from, so a
 * resumed run holds no more cases in memory than a plain one. Loaded on demand, only by runs
 * that resume.
 */
import type { LoadedConfig } from '../config/types.ts';
import { UsageError, usageError } from '../errors.ts';
import { checkPartial, combineResumed, planResume } from '../merge/resume.ts';
import { SpooledReports, type Execution } from '../pipeline/execute.ts';
import type { RunFilters } from '../pipeline/prepare.ts';
import { renderSummary } from '../report/summary-table.ts';
import type { SuiteSpec } from '../run/types.ts';
import type { RunResult } from '../types.ts';
import { openResultsFile } from './merge.ts';
import { useColor, type CommandContext } from './io.ts';

/** A resumption under way: what to run, and how to finish the artifact afterwards. */
export interface Resumption {
  /** The run's filters with the partial run's shard and suites filled in. */
  filters: RunFilters;
  /** The prepared suites narrowed to the cases `PARTIAL` has no result for. */
  plan(config: LoadedConfig, suites: SuiteSpec[]): SuiteSpec[];
  /**
   * The partial runs completed with the new ones (with empty `cases`: they are spooled, written
   * by the returned `writeArtifact` and `writeJUnit` and read back by its `cases`, as a baseline
   * comparison and the Action's reports do); prints their summary table (the run's only one).
   * `discard` frees the spool; call it once the reports are written.
   */
  finish(
    fresh: RunResult[],
    suites: SuiteSpec[],
    execution: Execution,
    options: { junit: boolean },
  ): Pick<Execution, 'writeArtifact' | 'writeJUnit' | 'cases' | 'discard'> & {
    runs: RunResult[];
    startedAt: Date;
    durationMs: number;
    interrupted: boolean;
  };
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
      const left = planned.value.reduce((sum, s) => sum + s.cases.length * s.grid.length, 0);
      ctx.stderr.write(`resuming ${path}: ${kept} case result(s) kept, ${left} to run\n`);
      return planned.value;
    },
    finish(fresh, prepared, execution, options) {
      const reports = new SpooledReports({ junit: options.junit });
      try {
        const combined = combineResumed(
          named,
          fresh,
          (run) => execution.cases(run),
          prepared,
          reports,
        );
        // The checks in `plan` make this unreachable short of an engine bug; still, say why.
        if (!combined.ok) throw problemsError('resume.combine', combined.problems, path);
        const runs = combined.value;
        const incomplete = runs.some((r) => r.summary.cases < r.testset.cases);
        const interrupted = execution.interrupted || incomplete;
        const ran = fresh.reduce((sum, r) => sum + r.summary.cases, 0);
        ctx.stdout.write(`Resumed ${path}: ${kept} case result(s) kept, ${ran} run now.\n\n`);
        ctx.stdout.write(
          renderSummary(runs, {
            color: useColor(ctx),
            interrupted,
            listings: reports.listings(runs.length),
            ...(ctx.stdout.columns ? { width: ctx.stdout.columns } : {}),
          }),
        );
        return {
          runs,
          // The resumed artifact dates from the interrupted run and counts the time of both.
          startedAt: new Date(partial.startedAt),
          durationMs: partial.durationMs + execution.durationMs,
          interrupted,
          writeArtifact: (output, artifact) => reports.writeArtifact(output, artifact),
          writeJUnit: (output, artifact) => reports.writeJUnit(output, artifact),
          cases: (run) => reports.cases(run) ?? runs[run]?.cases ?? [],
          discard: () => reports.discard(),
        };
      } catch (error) {
        reports.discard();
        throw error;
      } finally {
        // The new cases are in `reports` now (or the run failed): the execution's spool can go.
        execution.discard();
      }
    },
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
