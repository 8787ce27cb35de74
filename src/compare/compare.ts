/**
 * BASE against HEAD: matches runs and cases, runs the paired statistics and labels every row.
 * Pure: two artifacts in, a `Comparison` out; the same inputs give the same comparison.
 */
import { UsageError, type Issue } from '../shared/errors.ts';
import { runKey } from '../shared/run-key.ts';
export { comparableCase } from './comparable.ts';
import { ARTIFACT_SCHEMA_VERSION, validateArtifact } from '../artifact/schema.ts';
import type { CaseResult, ResultsArtifact, RunResult } from '../types/index.ts';
import {
  DEFAULT_BOOTSTRAP_ITERATIONS,
  DEFAULT_BOOTSTRAP_SEED,
  mcnemarExact,
  pairedBootstrap,
} from './stats.ts';
import type {
  ArtifactInfo,
  CaseChanges,
  CaseRef,
  ChangeCounts,
  ChangeLabel,
  Comparison,
  ComparisonSettings,
  EvaluatorChange,
  PassRateChange,
  RunComparison,
  RunRef,
} from '../types/comparison.ts';

/** Options of `compareArtifacts`. */
export interface CompareOptions {
  /** Bootstrap seed; the default is fixed, so output never varies between calls. */
  seed?: number;
  /** Bootstrap resamples per row; 2000 by default. */
  iterations?: number;
  /** Rows with fewer paired cases are labelled `too few cases`; 10 by default. */
  minPaired?: number;
}

/** Rows with fewer paired cases than this get no verdict. */
export const DEFAULT_MIN_PAIRED = 10;

/** Every interval is 95%, and the pass rate's McNemar test uses the matching α = 0.05. */
export const COMPARISON_CONFIDENCE = 0.95;

/**
 * Compares HEAD with BASE. Runs match by suite and params (deep-equal, whatever the key order);
 * cases within a run by `id`, and only when their `contentId` is also equal: a case whose testset
 * row was edited is listed as `contentChanged` and kept out of the statistics, since its score
 * moved with the question. Runs and evaluators found on one side only are listed, never dropped.
 *
 * Every row's bootstrap uses the same seed, so a row's interval depends only on its own data:
 * adding an evaluator or a run never moves the numbers of the others.
 *
 * Expects artifacts that passed `validateComparable`.
 */
export function compareArtifacts(
  base: ResultsArtifact,
  head: ResultsArtifact,
  options: CompareOptions = {},
): Comparison {
  const settings: ComparisonSettings = {
    confidence: COMPARISON_CONFIDENCE,
    iterations: options.iterations ?? DEFAULT_BOOTSTRAP_ITERATIONS,
    seed: options.seed ?? DEFAULT_BOOTSTRAP_SEED,
    minPaired: options.minPaired ?? DEFAULT_MIN_PAIRED,
  };

  const { pairs, onlyInBase, onlyInHead } = matchRuns(base.runs, head.runs);
  const runs = pairs.map(([baseRun, headRun]) => compareRuns(baseRun, headRun, settings));

  const counts: ChangeCounts = { improved: 0, regressed: 0, unchanged: 0, tooFewCases: 0 };
  for (const run of runs) {
    for (const label of [run.passRate.label, ...run.evaluators.map((row) => row.label)]) {
      if (label === 'too few cases') counts.tooFewCases++;
      else counts[label]++;
    }
  }

  return {
    settings,
    base: artifactInfo(base),
    head: artifactInfo(head),
    counts,
    hasRegression: counts.regressed > 0,
    runs,
    onlyInBase: onlyInBase.map(runRef),
    onlyInHead: onlyInHead.map(runRef),
  };
}

/**
 * Checks that two parsed JSON values can be compared, and returns them typed. Collects every
 * problem before throwing one `UsageError` (exit code 2): a value that is not a results artifact,
 * one of another `schemaVersion`, and two artifacts with no case in common. `names` are how the
 * user named the inputs (file paths), used in the messages.
 */
export function validateComparable(
  base: unknown,
  head: unknown,
  names: { base: string; head: string },
): { base: ResultsArtifact; head: ResultsArtifact } {
  const issues = [...artifactIssues(base, names.base), ...artifactIssues(head, names.head)];
  if (issues.length > 0) throw new UsageError(issues);

  const valid = { base: base as ResultsArtifact, head: head as ResultsArtifact };
  requireCommonCases(valid.base, valid.head, names);
  return valid;
}

/**
 * Throws a `UsageError` when no run of `head` shares a case id with the matching run of `base`:
 * such a comparison would be empty. The part of {@link validateComparable} for artifacts already
 * known to be valid (a run and the baseline it read case by case).
 */
export function requireCommonCases(
  base: ResultsArtifact,
  head: ResultsArtifact,
  names: { base: string; head: string },
): void {
  const valid = { base, head };
  const { pairs } = matchRuns(valid.base.runs, valid.head.runs);
  const shared = pairs.some(([baseRun, headRun]) => {
    const ids = new Set(baseRun.cases.map((result) => result.id));
    return headRun.cases.some((result) => ids.has(result.id));
  });
  if (!shared) {
    const why =
      pairs.length === 0
        ? `no run of ${names.head} (${describeRuns(valid.head.runs)}) has the suite and params of a run of ${names.base} (${describeRuns(valid.base.runs)})`
        : `${pairs.length === 1 ? 'the matching run shares' : `the ${pairs.length} matching runs share`} no case id`;
    const message = `no common cases between ${names.base} and ${names.head}: the runs match by suite and params, cases by id; ${why}`;
    throw new UsageError([issue('compare.no-common-cases', '', message)], message);
  }
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

/** How many schema problems of one file are quoted; the first few say what is wrong. */
const LISTED_PROBLEMS = 3;

function artifactIssues(value: unknown, file: string): Issue[] {
  const problems = validateArtifact(value);
  if (problems.length === 0) return [];
  const record =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  const version = record?.schemaVersion;
  if (version !== undefined && version !== ARTIFACT_SCHEMA_VERSION) {
    return [
      issue(
        'compare.schema-version',
        file,
        `results of schemaVersion ${JSON.stringify(version)}: this evalgate reads schemaVersion ${ARTIFACT_SCHEMA_VERSION} (compare results written by the same major version)`,
      ),
    ];
  }
  // Something else entirely (a config, package.json, an array): say what was expected rather
  // than list every missing property.
  if (record === null || (version === undefined && !('runs' in record))) {
    return [
      issue(
        'compare.not-results',
        file,
        `not an evalgate results artifact: expected the JSON object \`evals run -o FILE\` writes (schemaVersion ${ARTIFACT_SCHEMA_VERSION}, runs, …), found ${describeKind(value)}`,
      ),
    ];
  }
  const listed = problems.slice(0, LISTED_PROBLEMS).join('; ');
  const more =
    problems.length > LISTED_PROBLEMS ? ` (and ${problems.length - LISTED_PROBLEMS} more)` : '';
  return [issue('compare.invalid-results', file, `not a valid results artifact: ${listed}${more}`)];
}

function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const keys = Object.keys(value).slice(0, 5);
  return keys.length === 0
    ? 'an empty object'
    : `an object with ${keys.map((key) => JSON.stringify(key)).join(', ')}${Object.keys(value).length > keys.length ? ', …' : ''}`;
}

function issue(code: string, file: string, message: string): Issue {
  return { code, file, line: 0, col: 0, path: '', message };
}

/** `qa · model=small, capitals` — at most a few, for the no-common-runs message. */
function describeRuns(runs: readonly RunResult[]): string {
  if (runs.length === 0) return 'no runs';
  const shown = runs.slice(0, 3).map((run) => {
    const params = Object.entries(run.params)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ');
    return params ? `${run.suite} · ${params}` : run.suite;
  });
  return `${shown.join(', ')}${runs.length > shown.length ? `, … ${runs.length - shown.length} more` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------------------------

interface RunMatch {
  pairs: [RunResult, RunResult][];
  onlyInBase: RunResult[];
  onlyInHead: RunResult[];
}

/**
 * Pairs runs by suite and params. Should an artifact hold the same run twice, occurrences pair
 * up in order and any left over is listed as one-sided, so nothing disappears.
 */
function matchRuns(baseRuns: readonly RunResult[], headRuns: readonly RunResult[]): RunMatch {
  const waiting = new Map<string, RunResult[]>();
  for (const run of baseRuns) {
    const key = runKey(run);
    const list = waiting.get(key);
    if (list) list.push(run);
    else waiting.set(key, [run]);
  }
  const pairs: [RunResult, RunResult][] = [];
  const onlyInHead: RunResult[] = [];
  const paired = new Set<RunResult>();
  for (const run of headRuns) {
    const match = waiting.get(runKey(run))?.shift();
    if (match) {
      pairs.push([match, run]);
      paired.add(match);
    } else {
      onlyInHead.push(run);
    }
  }
  return { pairs, onlyInBase: baseRuns.filter((run) => !paired.has(run)), onlyInHead };
}

function runRef(run: RunResult): RunRef {
  return { suite: run.suite, params: run.params };
}

function artifactInfo(artifact: ResultsArtifact): ArtifactInfo {
  return {
    config: artifact.config,
    git: artifact.git === null ? null : { sha: artifact.git.sha, ref: artifact.git.ref },
    startedAt: artifact.startedAt,
  };
}

// ---------------------------------------------------------------------------------------------
// One run
// ---------------------------------------------------------------------------------------------

function compareRuns(
  baseRun: RunResult,
  headRun: RunResult,
  settings: ComparisonSettings,
): RunComparison {
  const baseById = firstById(baseRun.cases);
  const headById = firstById(headRun.cases);

  const paired: [CaseResult, CaseResult][] = [];
  const cases: CaseChanges = {
    newlyFailing: [],
    fixed: [],
    added: [],
    removed: [],
    contentChanged: [],
    flaky: [],
  };
  for (const head of headById.values()) {
    const base = baseById.get(head.id);
    if (base === undefined) cases.added.push(caseRef(head));
    else if (base.contentId !== head.contentId) cases.contentChanged.push(caseRef(head));
    else {
      paired.push([base, head]);
      if (base.passed && !head.passed) cases.newlyFailing.push(caseRef(head));
      if (!base.passed && head.passed) cases.fixed.push(caseRef(head));
    }
    if (head.flaky === true) {
      cases.flaky.push({ ...caseRef(head), trialPassRate: head.trialPassRate ?? null });
    }
  }
  for (const base of baseById.values()) {
    if (!headById.has(base.id)) cases.removed.push(caseRef(base));
  }

  const baseEvaluators = evaluatorIds(baseRun);
  const headEvaluators = evaluatorIds(headRun);
  const evaluators = headEvaluators
    .filter((id) => baseEvaluators.includes(id))
    .map((id) => compareEvaluator(id, paired, settings));

  return {
    suite: headRun.suite,
    params: headRun.params,
    passRate: comparePassRate(paired, cases, settings),
    evaluators,
    evaluatorsOnlyInBase: baseEvaluators.filter((id) => !headEvaluators.includes(id)),
    evaluatorsOnlyInHead: headEvaluators.filter((id) => !baseEvaluators.includes(id)),
    cases,
  };
}

/** Case ids are unique in a run the engine wrote; should one repeat, its first case counts. */
function firstById(cases: readonly CaseResult[]): Map<string, CaseResult> {
  const byId = new Map<string, CaseResult>();
  for (const result of cases) if (!byId.has(result.id)) byId.set(result.id, result);
  return byId;
}

function caseRef(result: CaseResult): CaseRef {
  return {
    id: result.id,
    source: result.source === null ? null : { file: result.source.file, line: result.source.line },
  };
}

/**
 * The run's evaluators in configuration order: the summary's, then any that only cases mention
 * (an artifact assembled by hand), so an evaluator is never silently missing from the report.
 */
function evaluatorIds(run: RunResult): string[] {
  const ids = new Set(Object.keys(run.summary.evaluators));
  for (const result of run.cases) {
    for (const evaluation of result.evaluations) ids.add(evaluation.evaluator);
  }
  return [...ids];
}

function comparePassRate(
  paired: readonly [CaseResult, CaseResult][],
  cases: CaseChanges,
  settings: ComparisonSettings,
): PassRateChange {
  const n = paired.length;
  const passToFail = cases.newlyFailing.length;
  const failToPass = cases.fixed.length;
  let basePassed = 0;
  for (const [base] of paired) if (base.passed) basePassed++;
  const headPassed = basePassed - passToFail + failToPass;
  const pValue = mcnemarExact(passToFail, failToPass);

  const alpha = 1 - settings.confidence;
  let label: ChangeLabel = 'unchanged';
  if (n < settings.minPaired) label = 'too few cases';
  else if (pValue < alpha) label = failToPass > passToFail ? 'improved' : 'regressed';

  return {
    paired: n,
    baseRate: n === 0 ? null : basePassed / n,
    headRate: n === 0 ? null : headPassed / n,
    delta: n === 0 ? null : (headPassed - basePassed) / n,
    passToFail,
    failToPass,
    pValue,
    label,
  };
}

function compareEvaluator(
  evaluator: string,
  paired: readonly [CaseResult, CaseResult][],
  settings: ComparisonSettings,
): EvaluatorChange {
  const diffs: number[] = [];
  let baseTotal = 0;
  let headTotal = 0;
  for (const [base, head] of paired) {
    const before = scoreOf(base, evaluator);
    const after = scoreOf(head, evaluator);
    // Pairwise exclusion: a case errored or unscored on either side says nothing about a change.
    if (before === null || after === null) continue;
    diffs.push(after - before);
    baseTotal += before;
    headTotal += after;
  }
  const n = diffs.length;
  if (n === 0) {
    return {
      evaluator,
      paired: 0,
      baseMean: null,
      headMean: null,
      delta: null,
      ci: null,
      pValue: null,
      label: 'too few cases',
    };
  }
  const result = pairedBootstrap(diffs, settings);
  return {
    evaluator,
    paired: n,
    baseMean: baseTotal / n,
    headMean: headTotal / n,
    delta: result.mean,
    ci: { low: result.low, high: result.high },
    pValue: result.pValue,
    label: labelFromInterval(n, result.low, result.high, settings.minPaired),
  };
}

/**
 * The label follows from the interval alone, so a row is never called regressed (or improved)
 * while its interval still contains 0.
 */
function labelFromInterval(n: number, low: number, high: number, minPaired: number): ChangeLabel {
  if (n < minPaired) return 'too few cases';
  if (low > 0) return 'improved';
  if (high < 0) return 'regressed';
  return 'unchanged';
}

/** The case's score for an evaluator; `null` when absent, errored or not a finite number. */
function scoreOf(result: CaseResult, evaluator: string): number | null {
  for (const evaluation of result.evaluations) {
    if (evaluation.evaluator !== evaluator) continue;
    if (evaluation.error !== null || evaluation.score === null) return null;
    return Number.isFinite(evaluation.score) ? evaluation.score : null;
  }
  return null;
}
