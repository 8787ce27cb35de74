/**
 * The plan of a run, from the config, its testsets and the command line's filters. Pure: the
 * testsets come in already read (`bind/testsets.ts`), and nothing here reads a file, loads a
 * module or looks at the clock.
 */
import { gridValueText } from '../shared/grid-value-text.ts';
import { suiteIssueAt } from '../config/config-path.ts';
import { closestMatch } from '../config/did-you-mean.ts';
import type { LoadedConfig, SuiteConfig } from '../config/types.ts';
import { builtinEvaluators, type BuiltinEvaluatorName } from '../evaluators/registry.ts';
import type { Issue } from '../shared/errors.ts';
import { hasTagIn } from '../testsets/identity.ts';
import { describeTarget, shownUrl } from '../config/target.ts';
import type { Params, PreparedCase } from '../types/index.ts';
import { expandGrid } from './grid.ts';
import { otherConfig } from './resume.ts';
import { shardOf } from './shard.ts';
import { configTagIssues } from './config-tags.ts';
import { unknownTagProblems, withTagFilter } from './tag-filter.ts';
import type { PlannedEvaluator, RunFilters, RunPlan, SuitePlan, TestsetIndex } from './types.ts';
import { shownValue } from '../shared/shown-value.ts';

export type Planned = { ok: true; plan: RunPlan } | { ok: false; issues: Issue[] };

/**
 * The suites `filters.suites` selects (every suite without it), in config order. Filters naming
 * a suite or a grid parameter the config does not have are problems, reported by `planRun`.
 */
export function selectedSuites(config: LoadedConfig, filters: RunFilters): SuiteConfig[] {
  const wanted = filters.suites ?? [];
  return config.suites.filter((suite) => wanted.length === 0 || wanted.includes(suite.id));
}

/** What the command line and the environment add to a plan. */
export interface PlanOptions {
  /** `--trials N`: replaces every suite's `trials`. */
  trials?: number;
  /**
   * `OPENAI_BASE_URL` (read at the edge; unset when empty): where the calls of a model target or
   * a built-in judge without a `baseUrl:` go, shown in the plan with where it came from.
   */
  envBaseUrl?: string;
  /** Removes the run's secrets from what the plan quotes before it is cut (`describeTarget`). */
  scrub?: (text: string) => string;
}

/**
 * What the run does: each selected suite's grid points (narrowed by `--grid`), the cases each
 * runs (narrowed by the testset's `tags:`, `--tag` and `--shard`, in testset order), its trials
 * (`--trials` replaces the config's), where its model calls go and how many it makes at most.
 */
export function planRun(
  config: LoadedConfig,
  testsets: TestsetIndex,
  filters: RunFilters,
  options: PlanOptions = {},
): Planned {
  const issues = checkFilters(config, filters);
  if (issues.length > 0) return { ok: false, issues };
  const suites: SuitePlan[] = [];
  for (const suite of selectedSuites(config, filters)) {
    const testset = testsets.get(suite.id);
    if (testset === undefined) throw new Error(`planRun: no testset read for suite ${suite.id}`);
    issues.push(...configTagIssues(config, suite, testset.cases));
    const grid = selectGrid(config, suite, filters.grid);
    if (!grid.ok) {
      issues.push(grid.issue);
      continue;
    }
    const cases = selectCases(
      testset.cases,
      [suite.testset.tags ?? [], filters.tags ?? []],
      filters,
    );
    const trials = options.trials ?? suite.trials;
    const evaluators = suite.evaluators.map((e) =>
      plannedEvaluator(e, config.defaults.judge.baseUrl, options.envBaseUrl),
    );
    suites.push({
      id: suite.id,
      target: plannedTarget(suite.target, options.envBaseUrl, options.scrub),
      evaluators,
      // The `--tag` filter goes with the testset into each run, so pieces of the run can be checked.
      testset: withTagFilter(testset.info, filters),
      rows: testset.cases.length,
      trials,
      concurrency: suite.concurrency,
      timeoutMs: suite.timeoutMs,
      pass: suite.pass,
      gate: suite.gate,
      runs: grid.points.map((params) => ({ params, cases })),
      modelCalls: modelCalls(suite, evaluators, options.scrub),
    });
  }
  // Only a `--tag` is checked against the rows: without one, no pass over every case is made.
  if (filters.tags !== undefined && filters.tags.length > 0) {
    const selected = selectedSuites(config, filters).flatMap(
      (s) => testsets.get(s.id)?.cases ?? [],
    );
    for (const message of unknownTagProblems(filters.tags, selected)) {
      issues.push(cliIssue('cli.unknown-tag', message));
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    plan: { config: config.file, shard: filters.shard ?? null, resume: null, suites },
  };
}

/**
 * The cases a run keeps: those tagged as each non-empty tag list asks (the testset's `tags:`
 * and `--tag` must both match when both are given) and, with `--shard`, whose identity falls in
 * it. Positions count every row, so the cases of every shard share one order.
 */
function selectCases(
  cases: readonly PreparedCase[],
  tagLists: readonly (readonly string[])[],
  filters: RunFilters,
): readonly PreparedCase[] {
  const tagged = tagLists.filter((tags) => tags.length > 0).map(hasTagIn);
  const { shard } = filters;
  if (tagged.length === 0 && shard === undefined) return cases;
  return cases.filter(
    (c) =>
      tagged.every((hasTag) => hasTag(c.meta)) &&
      (shard === undefined || shardOf(c.id, shard.count) === shard.index),
  );
}

/**
 * The target as the plan prints it: a model target without `baseUrl:` calls `OPENAI_BASE_URL`
 * when that is set, which the plan says as it says a `baseUrl:` of the config.
 */
function plannedTarget(
  target: SuiteConfig['target'],
  envBaseUrl: string | undefined,
  scrub: ((text: string) => string) | undefined,
): string {
  const text = describeTarget(target, scrub);
  if (target.kind !== 'model' || target.baseUrl !== undefined || envBaseUrl === undefined) {
    return text;
  }
  return `${text} ${fromEnv(envBaseUrl)}`;
}

/** Where calls taken from `OPENAI_BASE_URL` go, shown as a config URL is (no query or password). */
function fromEnv(envBaseUrl: string): string {
  return `at ${shownUrl(envBaseUrl)} from OPENAI_BASE_URL`;
}

function plannedEvaluator(
  evaluator: SuiteConfig['evaluators'][number],
  defaultBaseUrl: string | undefined,
  envBaseUrl: string | undefined,
): PlannedEvaluator {
  if (evaluator.kind === 'module')
    return { id: evaluator.id, use: evaluator.use, callsPerCase: null };
  const builtin = builtinEvaluators[evaluator.use as BuiltinEvaluatorName];
  // A judge's calls go to its own baseUrl:, else that of defaults.judge, else OPENAI_BASE_URL
  // (else OpenAI's API, which the plan leaves unsaid as it does for a model target).
  const baseUrl = evaluator.judge?.baseUrl ?? defaultBaseUrl;
  const callsTo =
    builtin.calls === undefined
      ? undefined
      : baseUrl !== undefined
        ? `at ${shownUrl(baseUrl)}`
        : envBaseUrl !== undefined
          ? fromEnv(envBaseUrl)
          : undefined;
  const declared = builtin.callsPerCase ?? 1;
  const callsPerCase =
    builtin.calls === undefined
      ? 0
      : typeof declared === 'function'
        ? declared(evaluator.with)
        : declared;
  return {
    id: evaluator.id,
    use: evaluator.use,
    ...(callsTo !== undefined ? { callsTo } : {}),
    callsPerCase,
  };
}

/** The model calls of one case execution at most, and what they leave uncounted. */
function modelCalls(
  suite: SuiteConfig,
  evaluators: readonly PlannedEvaluator[],
  scrub: ((text: string) => string) | undefined,
): SuitePlan['modelCalls'] {
  const target = suite.target;
  const perCase =
    evaluators.reduce((sum, e) => sum + (e.callsPerCase ?? 0), 0) +
    (target.kind === 'model' ? 1 : 0);
  // Code, an endpoint or a command may call models too; how often is theirs to say.
  const opaque =
    target.kind === 'http'
      ? `the endpoint ${describeTarget(target, scrub)}`
      : target.kind === 'function' || target.kind === 'command'
        ? `the ${describeTarget(target, scrub)}`
        : null;
  const unknown = [
    ...(opaque === null ? [] : [opaque]),
    ...evaluators.filter((e) => e.callsPerCase === null).map((e) => `evaluator ${e.id}`),
  ];
  return { perCase, unknown };
}

function selectGrid(
  config: LoadedConfig,
  suite: SuiteConfig,
  filter: Record<string, string[]> | undefined,
): { ok: true; points: Params[] } | { ok: false; issue: Issue } {
  const points = expandGrid(suite.grid);
  if (!filter) return { ok: true, points };
  const keys = Object.keys(filter).filter((k) => Object.hasOwn(suite.grid, k));
  const kept = points.filter((p) => keys.every((k) => filter[k]?.includes(gridValueText(p[k]))));
  if (kept.length > 0) return { ok: true, points: kept };
  const wanted = keys.map((k) => `${k}=${filter[k]?.join('|')}`).join(' ');
  const offered = keys
    .map((k) => `${k}: ${(suite.grid[k] ?? []).map(gridValueText).join(', ')}`)
    .join('; ');
  return {
    ok: false,
    issue: {
      ...suiteIssueAt(config, suite)('grid'),
      code: 'cli.grid-no-match',
      message: `no grid point matches --grid ${wanted} (the grid has ${offered})`,
    },
  };
}

/**
 * Filters naming a suite or a grid parameter the config does not have; with `--resume`, first a
 * config other than the one that wrote the partial, alone: the rest would be checked against the
 * wrong config (and the suites taken from the partial reported as if the user had named them).
 */
export function checkFilters(config: LoadedConfig, filters: RunFilters): Issue[] {
  if (filters.resume) {
    const { from, ...written } = filters.resume;
    const other = otherConfig(from, written, config);
    if (other !== undefined) {
      return [{ code: 'resume.mismatch', file: from, line: 0, col: 0, path: '', message: other }];
    }
  }
  const issues: Issue[] = [];
  const ids = config.suites.map((s) => s.id);
  for (const id of filters.suites ?? []) {
    if (!ids.includes(id)) {
      issues.push(
        cliIssue(
          'cli.unknown-suite',
          `--suite ${shownValue(id)}: no such suite in ${config.file} (suites: ${ids.join(', ')})`,
        ),
      );
    }
  }
  // Every grid key of the config, in order, to name the one meant, as --suite lists the suites.
  const gridKeys = [...new Set(config.suites.flatMap((s) => Object.keys(s.grid)))];
  for (const key of Object.keys(filters.grid ?? {})) {
    if (!config.suites.some((s) => Object.hasOwn(s.grid, key))) {
      const near = closestMatch(key, gridKeys);
      const known =
        gridKeys.length === 0
          ? 'no suite has a grid'
          : `${near === undefined ? '' : `did you mean ${near}? `}grid parameters: ${gridKeys.join(', ')}`;
      issues.push(
        cliIssue(
          'cli.unknown-grid-key',
          `--grid ${key}=…: no suite has a grid parameter "${key}" (${known})`,
        ),
      );
    }
  }
  return issues;
}

function cliIssue(code: string, message: string): Issue {
  return { code, file: '', line: 0, col: 0, path: '', message };
}

/**
 * The case executions a suite's plan has left to run: its cases in every run (grid point), less
 * those an interrupted run already finished (`--resume`), times its trials. What `validate` and
 * `run --dry-run` count.
 */
export function caseExecutionsToRun(suite: SuitePlan): number {
  const cases = suite.runs.reduce((sum, run) => sum + run.cases.length - (run.done?.size ?? 0), 0);
  return cases * suite.trials;
}

/**
 * The suites whose runs will fail for having no case to run (an empty testset, or `--tag`
 * filters that select none of its rows), as the gate judges them (`evaluateRunGate`): unless
 * the suite allows it (`allowEmpty`) or the plan is one shard (a shard may get none of a small
 * suite). `validate` and `run --dry-run` say so before anything runs.
 */
export function suitesWithoutCases(plan: RunPlan): SuitePlan[] {
  if (plan.shard !== null) return [];
  return plan.suites.filter(
    (suite) => suite.gate.allowEmpty !== true && suite.runs.every((run) => run.cases.length === 0),
  );
}

/** What `suitesWithoutCases` means for one suite, in the words the gate's failure uses. */
export const NO_CASES_NOTE =
  'no cases, so its run fails (allowEmpty: true on the suite accepts this)';
