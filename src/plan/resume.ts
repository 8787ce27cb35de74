/**
 * `evals run --resume PARTIAL.json`, planned: the interrupted run's runs, each taking over the
 * cases it finished (the engine records them as they were and runs the rest), so the artifact,
 * summaries and reports come out as one uninterrupted run's. Pure: what the partial artifact
 * holds comes in already read (`ResumeIndex`, see pipeline/resume.ts).
 */
import { writtenByConfig, type ConfigHashes } from '../config/config-hash.ts';
import {
  describeConfigChanges,
  recordedDataParts,
  recordedParts,
} from '../config/config-hash-parts.ts';
import { describeRun, runKey } from '../shared/run-key.ts';
import type { Params, ResultsArtifact } from '../types/index.ts';
import { describeTagFilter, sameTagFilter } from './tag-filter.ts';
import type { PlannedRun, RunPlan, SuitePlan } from './types.ts';

/**
 * How the `config` of an artifact written by `runTestSuite` starts (`runTestSuite:<suite id>`):
 * such a run has no evals.yaml, so the CLI has nothing to resume it from.
 */
export const SDK_CONFIG_PREFIX = 'runTestSuite:';

/** Whether `artifact` was written by `runTestSuite` rather than `evals run`. */
export function writtenByRunTestSuite(artifact: Pick<ResultsArtifact, 'config'>): boolean {
  return artifact.config.startsWith(SDK_CONFIG_PREFIX);
}

/** Why `partial` cannot be resumed by a run of the config with these hashes; [] if it can. */
export function checkPartial(
  partial: ResultsArtifact,
  name: string,
  config: ConfigHashes,
): string[] {
  if (!partial.interrupted) {
    return [
      `nothing to resume: ${name} is a complete run (interrupted: false); run evals run without --resume to run it again`,
    ];
  }
  // Said alone: the checks below (a config, a run plan) would only blame what an SDK run lacks.
  if (writtenByRunTestSuite(partial)) {
    return [
      `${name} is a runTestSuite artifact (config ${partial.config}): evals run --resume cannot resume an SDK run, which has no evals.yaml to run the missing cases from; call runTestSuite again to rerun the suite`,
    ];
  }
  const problems: string[] = [];
  const other = otherConfig(name, partial, config);
  if (other !== undefined) problems.push(other);
  const unplanned = partial.runs.filter((r) => r.plan === undefined);
  if (unplanned.length > 0) {
    problems.push(
      `${name} has no run plan for ${unplanned.map(describeRun).join(', ')} (written by an older evalgate); run it again with this version`,
    );
  }
  return problems;
}

/**
 * Why a run of the config with these hashes cannot resume `name`, written by the config the
 * artifact `written` records; undefined if it can. The same config is one whose data as written
 * is the same (`config.hash`: comments, formatting, key order, quoting and anchors do not count),
 * or, for a partial an earlier evalgate wrote with the hash of the text, the same text
 * (`config.textHash`). Checked as soon as the config is loaded (with the filters, see
 * `checkFilters`): every other check of a resumption assumes the same config. What changed is
 * named as precisely as the partial's record allows (see `describeConfigChanges`).
 */
export function otherConfig(
  name: string,
  written: WrittenBy,
  config: ConfigHashes,
): string | undefined {
  const writtenBy = written.configHash;
  if (writtenByConfig(writtenBy, config)) return undefined;
  const head = `${name} was written by another config (configHash ${writtenBy}, now ${config.hash}`;
  // The partial records what its hash covered: what changed since can be named.
  const before = recordedParts(writtenBy, written.configHashParts, written.configDataParts);
  const data = recordedDataParts(written);
  const changes =
    before !== undefined
      ? describeConfigChanges(before, config.hashParts ?? { config: config.hash }, {
          ...(data !== undefined &&
            config.dataParts !== undefined && { data: { before: data, after: config.dataParts } }),
          ...(config.file !== undefined && { configName: config.file }),
          ...(config.namedModules !== undefined && { namedModules: config.namedModules }),
        })
      : [];
  if (changes.length > 0) {
    return `${head}): since the interrupted run, ${changes.join('; ')}; resuming needs the config and code the interrupted run used: undo those changes, or run evals run without --resume to run every case again`;
  }
  const files = (config.coveredFiles ?? []).map((covered) => covered.phrase);
  const covered =
    files.length > 0
      ? `. Beside the config, the hash covers ${files.join('; ')}: if the config is the same, one of those changed since`
      : '';
  return `${head}: another file, or the meaning of this one, a prompt or message file it reads, or a non-secret environment variable it refers to, changed since; comments, formatting, key order, quoting and anchors do not count); resuming needs the config the interrupted run used${covered}`;
}

/** What an artifact records of the config that wrote it. */
export type WrittenBy = Pick<ResultsArtifact, 'configHash' | 'configHashParts' | 'configDataParts'>;

/** What an interrupted artifact holds, as far as planning its resumption needs it. */
export interface ResumeIndex {
  /** The artifact as the user named it, for messages. */
  name: string;
  runs: ResumedRun[];
}

export interface ResumedRun {
  suite: string;
  params: Params;
  /** The testset revision the run read. */
  revision: string;
  /** How many cases it planned. */
  planned: number;
  /** Trials per case it ran with (its recorded plan). */
  trials: number;
  /**
   * The `--tag` filter it recorded (`testset.tagFilter`); `undefined` when it recorded none: it
   * ran unsharded without `--tag`, or an older evalgate wrote it (which recorded no filter).
   */
  tagFilter?: readonly string[];
  /** The ids of the cases it finished. */
  finished: Iterable<string>;
}

export type Resumed = { ok: true; plan: RunPlan } | { ok: false; problems: string[] };

/**
 * `plan` narrowed to the partial's runs (in the plan's order), each marking the cases the
 * partial finished as `done`, with the trials the partial ran. The plan must come from the same
 * config with the same shard and tag filters (compared as recorded, when the partial records
 * them): the same testset revision and the same cases. `shown` gives a grid point as the partial
 * records it (without the run's secrets).
 */
export function planResume(
  plan: RunPlan,
  partial: ResumeIndex,
  options: { trials?: number; shown?: (params: Params) => Params } = {},
): Resumed {
  const shown = options.shown ?? ((params: Params) => params);
  const { name } = partial;
  const problems: string[] = [];
  const wanted = new Map(partial.runs.map((run) => [runKey(run), run]));
  const found = new Set<string>();
  const suites: SuitePlan[] = [];
  let kept = 0;

  for (const suite of plan.suites) {
    const runs: PlannedRun[] = [];
    let trials = suite.trials;
    for (const planned of suite.runs) {
      // The partial records a grid point as shown, without the run's secrets.
      const key = runKey({ suite: suite.id, params: shown(planned.params) });
      const run = wanted.get(key);
      if (run === undefined) continue;
      found.add(key);
      const what = describeRun(run);
      if (run.revision !== suite.testset.revision) {
        problems.push(
          `${what}: the testset changed since ${name} was written (revision ${run.revision}, now ${suite.testset.revision}); resuming needs the same testset`,
        );
        continue;
      }
      // A recorded filter is compared as such: two filters may select as many cases, not the
      // same. Without a record the case count below decides: an unsharded run without --tag
      // planned every row, and only a filter selecting every row plans as many.
      if (run.tagFilter !== undefined && !sameTagFilter(run.tagFilter, suite.testset.tagFilter)) {
        problems.push(
          `${what}: ${name} ran ${describeTagFilter(run.tagFilter)}, this run ${describeTagFilter(suite.testset.tagFilter)}; resume with the filters of the interrupted run (leave --tag out to use its own)`,
        );
        continue;
      }
      if (run.planned !== planned.cases.length) {
        problems.push(
          `${what}: ${name} planned ${run.planned} cases, this run plans ${planned.cases.length} ${describeTagFilter(suite.testset.tagFilter)}; ${unrecordedFilter(name, run.tagFilter)}`,
        );
        continue;
      }
      if (options.trials !== undefined && options.trials !== run.trials) {
        problems.push(
          `${what}: ${name} ran ${run.trials} trial(s) per case; --trials ${options.trials} would mix results (leave --trials out to resume with ${run.trials})`,
        );
        continue;
      }
      trials = run.trials;
      const done = donePositions(planned, run.finished, name, run.tagFilter);
      if (!done.ok) {
        problems.push(`${what}: ${done.problem}`);
        continue;
      }
      kept += done.positions.size;
      runs.push({ ...planned, done: done.positions });
    }
    if (runs.length > 0) suites.push({ ...suite, runs, trials });
  }

  for (const [key, run] of wanted) {
    if (!found.has(key)) {
      problems.push(
        `${describeRun(run)} of ${name} is not run by this config (pass the same --suite and --grid as the interrupted run)`,
      );
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, plan: { ...plan, resume: { from: name, kept }, suites } };
}

/**
 * What to do when a run's cases do not match the partial's: with no filter recorded (`tags`
 * undefined), the interrupted run ran without `--tag`, or an earlier evalgate wrote it, which
 * recorded none; a recorded filter is the one this run already used.
 */
function unrecordedFilter(name: string, tags: readonly string[] | undefined): string {
  return tags === undefined
    ? `${name} records no --tag filter: it ran without --tag (leave --tag out), or an earlier evalgate wrote it (pass the --tag filters it ran with)`
    : 'resume with the suites, grid points and filters of the interrupted run';
}

/** The positions in `run.cases` of the `finished` case ids, or why they do not fit the run. */
function donePositions(
  run: PlannedRun,
  finished: Iterable<string>,
  name: string,
  tags: readonly string[] | undefined,
): { ok: true; positions: Set<number> } | { ok: false; problem: string } {
  const rank = new Map(run.cases.map((c, i) => [c.id, i]));
  const positions = new Set<number>();
  let stray = 0;
  let strayId = '';
  for (const id of finished) {
    const at = rank.get(id);
    if (at === undefined) {
      if (stray++ === 0) strayId = id;
    } else if (positions.has(at)) {
      return { ok: false, problem: `${name} holds case ${id} twice` };
    } else positions.add(at);
  }
  if (stray > 0) {
    return {
      ok: false,
      problem: `${name} holds ${stray} case(s) this run does not plan (e.g. ${strayId}); ${unrecordedFilter(name, tags)}`,
    };
  }
  return { ok: true, positions };
}
