/**
 * `evals run --resume PARTIAL.json`: the edges around the planning in src/plan/resume.ts. Opens
 * and checks the interrupted artifact, narrows the plan to its runs, each taking over the cases
 * the partial holds (the engine records them as they were, read from the file again as the run
 * starts, and runs the rest). Loaded on demand, only by runs that resume.
 */
import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/types.ts';
import type { NamedArtifact } from '../artifact/merge.ts';
import type { Params, ResultsArtifact } from '../types/index.ts';
import { checkPartial, planResume, type ResumeIndex } from '../plan/resume.ts';
import type { RunFilters, RunPlan } from '../plan/types.ts';
import type { ResumedCases } from '../run/types.ts';
import { UsageError, usageError } from '../shared/errors.ts';
import type { Scrubber } from '../shared/secrets.ts';
import { runKey } from '../shared/run-key.ts';
import { realPath } from '../shared/real-path.ts';
import { formatCount, plural } from '../report/labels.ts';
import { mergedShards, partialMergeAdvice } from '../artifact/partial-merge.ts';
import { recordedBaseline } from '../artifact/merge-baseline.ts';
import { openResultsFile } from './artifact-files.ts';
import { checkPartialVersion } from './resume-version.ts';
import { recoverForResume } from './journal.ts';
import { printable } from '../shared/text-table.ts';
import type { CommandContext } from './context.ts';
import { scrubbedParams } from './execute.ts';
import type { ChosenBaseline } from './baseline.ts';
import type { Narrowed } from './load.ts';
import type { DroppedComparison } from '../artifact/damaged-comparison.ts';

/** A resumption under way: what to run, and what the artifact takes over from the partial. */
export interface Resumption {
  /**
   * The run's filters with the partial run's shard and suites filled in, and the partial's
   * config hash, so that another config is refused as soon as it is loaded.
   */
  filters: RunFilters;
  /**
   * The plan narrowed to the partial's runs, each taking over the cases it finished. The partial
   * records each run's grid point without the run's secrets, as `scrubber` leaves it.
   */
  narrow(plan: RunPlan, config: LoadedConfig, scrubber: Scrubber): Narrowed;
  /**
   * The lines a run prints once the resumption is accepted: cases kept, cases left to run, and
   * whether the results will replace the partial (the run writes to `output`, from `cwd`).
   */
  announce(plan: RunPlan, output: string, cwd: string): string;
  /**
   * The configHash the resumed artifact records: the partial's, which the config matched. It is
   * the config's hash, or for a partial an earlier evalgate wrote, the hash of its text, kept so
   * that the finished shard still merges with the other shards of that run.
   */
  configHash: string;
  /** The interrupted run's start: the resumed artifact dates from it. */
  startedAt: Date;
  /** The interrupted run's duration: the resumed artifact counts the time of both. */
  durationMs: number;
  /** What the summary says before its table: how many cases were taken over, how many ran. */
  preface(ran: number): string;
  /**
   * The baseline the resumed run compares with: `given` (`--baseline`), else the one the
   * interrupted run was compared with, read again from the file its artifact records (refused
   * when that is gone or holds another run now). The comparison is made over every case, the
   * kept ones included, so the finished run is gated as an uninterrupted one would be.
   */
  baseline(given: string | undefined, ctx: CommandContext): Promise<ChosenBaseline | undefined>;
}

/**
 * Reads `path` and checks it can be resumed with these filters. `--shard` may be left out (the
 * partial's shard is used) but not contradict it; `--suite` defaults to the partial's suites,
 * so modules of suites it did not run are not loaded; `--tag` to the filter the partial records.
 */
export function startResume(
  path: string,
  filters: RunFilters,
  trials: number | undefined,
  ctx: CommandContext,
  options: { recover?: { output: string } } = {},
): Resumption {
  // A run killed with no chance to write its partial left a journal beside it (or beside the
  // output it was writing): that first, and it may be what is resumed now.
  if (options.recover !== undefined) path = recoverForResume(path, options.recover.output, ctx);
  // Its comparison is made again over every case: a damaged one is no reason to refuse it.
  const named = openResultsFile(path, ctx, '--resume', 'refuse', { dropDamagedComparison: true });
  // A block in the shape before 2026-11-26, left out by the reader, is as lost as a damaged one:
  // it names no baseline file, and finished uncompared the run would gate no regression.
  const dropped = named.droppedComparison ?? (named.oldComparison ? OLD_COMPARISON : undefined);
  const state = named.oldComparison ? 'in an older shape' : 'damaged';
  if (dropped !== undefined) {
    const which =
      'recorded' in dropped.baseline
        ? `--baseline names, or without it ${printable(dropped.baseline.recorded.path ?? '')}, which the damaged block still names (checked to be the run it records)`
        : `--baseline names (the ${state} block cannot say which the interrupted run compared with: ${printable(dropped.baseline.lost)})`;
    ctx.stderr.write(
      `warning: --resume ${printable(path)}: its comparison block is ${state} (${dropped.problems}); it is left out, and the comparison is made again over every case with the baseline ${which}\n`,
    );
  }
  const partial = named.artifact;
  // A merge lacking shards plans fewer cases than any run would: it is finished by merging.
  const merge = mergedShards(partial);
  if (merge !== undefined) {
    throw usageError(
      'resume.partial-merge',
      `${partialMergeAdvice(path, merge)}; it cannot be resumed (an interrupted shard is resumed from its own file, before merging)`,
      path,
    );
  }
  // What needs no config (a complete artifact, runs without a plan) is refused before one is read.
  const problems = checkPartial(partial, path, { hash: partial.configHash });
  if (!partial.interrupted) throw usageError('resume.complete', problems[0]!, path);
  if (problems.length > 0) throw problemsError('resume.mismatch', problems, path);
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
  // Like the shard, the --tag filter the partial records is used when --tag is left out; one
  // given that differs is refused when the plan is narrowed (planResume).
  const tags = filters.tags?.length ? filters.tags : recordedTags(partial);
  const resumeFilters: RunFilters = {
    ...filters,
    ...(suites.length > 0 ? { suites } : {}),
    ...(tags.length > 0 ? { tags } : {}),
    ...(shard ? { shard: { index: shard.index, count: shard.count } } : {}),
    resume: {
      from: path,
      configHash: partial.configHash,
      ...(partial.configHashParts !== undefined && { configHashParts: partial.configHashParts }),
      ...(partial.configDataParts !== undefined && { configDataParts: partial.configDataParts }),
    },
  };
  const kept = named.caseCounts.reduce((sum, n) => sum + n, 0);
  // Resuming needs an evalgate as new as the one that scored the kept cases.
  checkPartialVersion(partial, path, kept, ctx);
  // Set by `narrow` when the partial is an earlier evalgate's, whose hash left modules out.
  let unchecked: readonly string[] = [];
  return {
    filters: resumeFilters,
    narrow(plan, config, scrubber) {
      // checkFilters refused another config already; narrow is handed a config of its own.
      const mismatch = checkPartial(partial, path, config);
      if (mismatch.length > 0) throw problemsError('resume.mismatch', mismatch, path);
      if (partial.configHash !== config.hash && partial.configHash === config.earlierHash) {
        unchecked = (config.coveredFiles ?? [])
          .filter((covered) => covered.kind !== 'prompt')
          .map((covered) => covered.phrase);
      }
      const shown = (params: Params): Params => scrubbedParams(params, scrubber);
      const resumed = planResume(plan, resumeIndex(named), {
        shown,
        ...(trials !== undefined ? { trials } : {}),
      });
      if (!resumed.ok) throw problemsError('resume.mismatch', resumed.problems, path);
      return { plan: resumed.plan, resumed: resumedCases(resumed.plan, named, shown) };
    },
    announce(plan, output, cwd) {
      const left = plan.suites
        .flatMap((suite) => suite.runs)
        .reduce((sum, run) => sum + run.cases.length - (run.done?.size ?? 0), 0);
      const warning =
        unchecked.length > 0
          ? `warning: ${path} was written by an earlier evalgate, whose configHash did not cover modules and command scripts: resuming it cannot tell whether ${unchecked.join('; ')} changed since the interrupted run\n`
          : '';
      // Compared through links: the artifact is written at the target of an `-o` link.
      const replaced =
        realPath(resolve(cwd, path)) === realPath(resolve(cwd, output))
          ? `the combined results will replace ${path} (give -o FILE to write them elsewhere)\n`
          : '';
      return `${warning}resuming ${path}: ${plural(kept, 'case result')} kept, ${plural(left, 'case')} to run\n${replaced}`;
    },
    configHash: partial.configHash,
    startedAt: new Date(partial.startedAt),
    durationMs: partial.durationMs,
    preface: (ran) =>
      `Resumed ${path}: ${plural(kept, 'case result')} kept, ${formatCount(ran)} run now.\n\n`,
    async baseline(given, context) {
      // In its comparison, or (a partial recovered from a journal) in its `baseline`, or in
      // what a damaged comparison block left out still says of it (checked as the others are).
      const salvaged =
        dropped !== undefined && 'recorded' in dropped.baseline
          ? dropped.baseline.recorded
          : undefined;
      const recorded = recordedBaseline(partial) ?? salvaged;
      // The interrupted run was compared (it had a comparison block), with a file the damaged
      // block no longer names: finished uncompared, `regressions: block` would gate nothing and
      // a run that regressed would pass. Refused as a recorded baseline that is gone is.
      if (given === undefined && recorded === undefined && dropped !== undefined) {
        const lost = 'lost' in dropped.baseline ? ` (${printable(dropped.baseline.lost)})` : '';
        throw usageError(
          'resume.baseline-lost',
          `${printable(path)} was compared with a baseline, but its comparison block is ${state} and no longer says which${lost}: pass --baseline FILE (the baseline the interrupted run compared with) to finish it compared and gated as it would have been`,
          path,
        );
      }
      if (given === undefined && recorded === undefined) return undefined;
      const { chooseBaseline } = await import('./baseline.ts');
      const chosen = await chooseBaseline(
        given,
        recorded,
        `${path}'s`,
        'pass --baseline FILE again',
        context,
      );
      // Compared and gated with a file the command does not name: said, with how to change it.
      if (given === undefined && chosen !== undefined) {
        context.stderr.write(
          `note: comparing with ${chosen.path}, the baseline ${path} records (--baseline FILE compares with another)\n`,
        );
      }
      return chosen;
    },
  };
}

/** What a comparison block in the shape before 2026-11-26 (`old-comparison.ts`) leaves out. */
const OLD_COMPARISON: DroppedComparison = {
  problems: 'recorded by an evalgate before 2026-11-26, which this one does not read',
  baseline: { lost: 'that shape does not name the baseline file' },
};

/** The `--tag` values the partial's runs record (a run records the filter of its whole command). */
function recordedTags(partial: ResultsArtifact): string[] {
  return partial.runs.find((run) => run.testset.tagFilter !== undefined)?.testset.tagFilter ?? [];
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

/** The partial's runs as planning reads them: each finished case by its id, read as needed. */
function resumeIndex(named: NamedArtifact): ResumeIndex {
  return {
    name: named.name,
    runs: named.artifact.runs.map((run, r) => ({
      suite: run.suite,
      params: run.params,
      revision: run.testset.revision,
      planned: run.testset.cases,
      // checkPartial refused a partial with a run that has no plan.
      trials: run.plan?.trials ?? 1,
      ...(run.testset.tagFilter !== undefined ? { tagFilter: run.testset.tagFilter } : {}),
      finished: {
        *[Symbol.iterator]() {
          for (const result of named.cases(r)) yield result.id;
        },
      },
    })),
  };
}

/**
 * For run `i` of suite `id` of the narrowed plan, the partial's results it takes over, read
 * from the file again as the run starts.
 */
function resumedCases(
  plan: RunPlan,
  named: NamedArtifact,
  shown: (params: Params) => Params,
): (suite: string, run: number) => ResumedCases | undefined {
  const partialRun = new Map(named.artifact.runs.map((run, r) => [runKey(run), r]));
  return (suiteId, i) => {
    const run = plan.suites.find((suite) => suite.id === suiteId)?.runs[i];
    const r = run && partialRun.get(runKey({ suite: suiteId, params: shown(run.params) }));
    if (run === undefined || r === undefined || run.done === undefined) return undefined;
    const positions = run.done;
    return {
      positions,
      *results() {
        const rank = new Map(run.cases.map((c, at) => [c.id, at]));
        for (const result of named.cases(r)) {
          const index = rank.get(result.id);
          // The file changed since it was first read: it no longer matches the run.
          if (index === undefined || !positions.has(index)) {
            throw usageError('resume.changed', `${named.name} changed while it was resumed`);
          }
          yield { index, result };
        }
      },
    };
  };
}
