/**
 * Seeded simulated pull requests for `bench/stats-false-alarm.ts` and
 * `test/stats-false-alarm.test.ts`: how often a whole pull request is reported as a regression
 * when nothing changed (A/A), and how often a real drop is caught (A/B).
 *
 * Only the data is simulated. Every step after it is evalgate's own code: a case's trials are
 * folded by the engine's `aggregateTrials`, a run is summarised by `summarizeRun`, a threshold
 * is judged by `meetsThreshold`, the two artifacts are compared by `compareArtifacts`, the gate
 * condition is `regressionCondition`, the label a reader sees is `shownLabel`, and whether a
 * newly failing list is shown as an alarm is what `caseLists` tells every report.
 *
 * The model: every case has its own difficulty per evaluator, shared by BASE and HEAD (which is
 * what pairing exploits), and every run re-draws each trial around it, as a re-asked model or
 * judge does. A/A draws both sides from the same process, so any reported change is noise.
 *
 * - `binary`: an evaluator's score is 0 or 1. Case i passes evaluator e with its own
 *   probability q ~ Beta(2p, 2(1 − p)) (mean p, strongly case-dependent); a drop of δ scales q
 *   by (p − δ) / p, so that evaluator's pass rate falls by δ exactly, in expectation.
 * - `continuous`: a score is clamp(d + 0.15·Z) with the case's d ~ U(0.2, 0.8), passing at
 *   ≥ 0.5; a drop of δ lowers d by δ.
 *
 * A case passes a trial when every evaluator passes it; with trials, when more than half of
 * its trials pass (the engine's rule), so the pass-rate row is one more row per run.
 */
import { compareArtifacts } from '../src/compare/compare.ts';
import { simArtifact } from './compare-sim.ts';
import { regressionCondition, significantRegressions } from '../src/compare/gate.ts';
import { mulberry32, type Random } from '../src/compare/sign-flip.ts';
import { betaDraw, mix, normals } from './stats-draws.ts';
import { caseLists } from '../src/report/comparison-case-lists.ts';
import { shownLabel } from '../src/report/shown-label.ts';
import { summarizeRun } from '../src/run/summary.ts';
import { meetsThreshold } from '../src/run/threshold.ts';
import { aggregateTrials } from '../src/run/trials.ts';
import type { Comparison } from '../src/types/comparison.ts';
import type {
  CaseResult,
  EvaluationResult,
  PreparedCase,
  RunResult,
  Threshold,
  TrialResult,
} from '../src/types/index.ts';

export { mix, tailAtLeast, upper95 } from './stats-draws.ts';

/** One shape of pull request: every suite × grid point runs the same evaluators on `cases`. */
export interface Scenario {
  name: string;
  kind: 'binary' | 'continuous';
  /** `binary`: each evaluator's expected pass rate. Ignored for `continuous`. */
  passRate: number;
  cases: number;
  suites: number;
  gridPoints: number;
  evaluators: number;
  /** HEAD's trials per case. */
  trials: number;
  /** BASE's, when it differs (a pull request that changes `trials`). */
  baseTrials?: number;
}

/** Where a real drop is put: one suite × grid point (every evaluator of it), or every run. */
export type DropWhere = 'one run' | 'every run';

/** A real change: each affected evaluator's pass rate (or score) falls by `delta`. */
export interface Drop {
  delta: number;
  where: DropWhere;
}

const THRESHOLD: Threshold = { gte: 0.5 };
const NOISE = 0.15;
/** Concentration of the Beta a case's pass probability is drawn from. */
const CONCENTRATION = 2;

/** What one compared pull request came to, as each reader of it would see it. */
export interface PrOutcome {
  /** `regressions: block` fails some run: the corrected regression the verdict names. */
  blocked: boolean;
  /** Some row changed significantly after the correction, either way. */
  anySignificant: boolean;
  /**
   * Some row is shown `regressed` or `possible regression` (`shownLabel`: Holm p < 0.05, or a
   * q-value below 0.05): what a reader of the PR comment takes as a warning.
   */
  anyWarning: boolean;
  /**
   * Some row's own test calls it `regressed` (p < 0.05, uncorrected): how often a warning showed
   * when "possible regression" was read off the row's own p (before; not what ships).
   */
  anyRegressedP: boolean;
  /** Some row regressed with a q-value below 0.10: the warning at a looser level (not shipped). */
  anyRegressedQ10: boolean;
  /**
   * Some grid point lists newly failing cases: before they followed the statistics, each such
   * list was shown as an alarm (bold, red, open in the PR comment).
   */
  anyNewlyFailing: boolean;
  /** Some grid point's newly failing cases are shown as an alarm (`caseLists`): what ships. */
  newlyFailingAlarm: boolean;
  /**
   * Grid points whose newly failing cases are folded, and of them those said to show no drop
   * (`within the noise`, or with one trial a case `a drop of 10.0 pp ruled out`).
   */
  foldedLists: number;
  noiseWorded: number;
  /** A grid point with a real drop has its newly failing cases folded as showing no drop. */
  droppedWordedNoise: boolean;
  /** Rows in the family (what Holm divides by). */
  familyRows: number;
  /**
   * Rows of the family whose own p is at most Holm's first threshold, 0.05 / F: nothing blocks
   * unless one is. With valid p-values their expected number is at most 0.05 a pull request
   * whatever F (and so, by Bonferroni's inequality, is the chance that any row reaches it).
   */
  tailRows: number;
  /** The rows that block, by kind: `pass rate`, or an evaluator's id. */
  blockingRows: string[];
}

/** Generates, compares and gates one pull request (`drop` absent: A/A). */
export function simulatePr(seed: number, scenario: Scenario, drop?: Drop): PrOutcome {
  return outcome(simulateComparison(seed, scenario, drop), drop);
}

/** Generates and compares one pull request: the comparison its reports are made from. */
export function simulateComparison(seed: number, scenario: Scenario, drop?: Drop): Comparison {
  const random = mulberry32(seed);
  const gauss = normals(random);
  const base: RunResult[] = [];
  const head: RunResult[] = [];
  for (let suite = 0; suite < scenario.suites; suite++) {
    for (let point = 0; point < scenario.gridPoints; point++) {
      const cases = Array.from({ length: scenario.cases }, () =>
        Array.from({ length: scenario.evaluators }, () => difficulty(scenario, random)),
      );
      const headCases =
        drop !== undefined && isDropped(drop, suiteName(suite), point)
          ? cases.map((row) => row.map((d) => lower(scenario, d, drop)))
          : cases;
      const draw = { scenario, random, gauss };
      base.push(run(suite, point, cases, scenario.baseTrials ?? scenario.trials, draw));
      head.push(run(suite, point, headCases, scenario.trials, draw));
    }
  }
  return compareArtifacts(simArtifact(base), simArtifact(head));
}

/** Whether `drop` lowers `suite` at grid point `point`: the first one, or every one. */
function isDropped(drop: Drop | undefined, suite: string, point: unknown): boolean {
  return (
    drop !== undefined && (drop.where === 'every run' || (suite === suiteName(0) && point === 0))
  );
}

function suiteName(index: number): string {
  return `suite${index}`;
}

/** What the reports and the gate make of a comparison (`drop`: the change it was made with). */
export function outcome(comparison: Comparison, drop?: Drop): PrOutcome {
  let anyWarning = false;
  let anyRegressedP = false;
  let anyRegressedQ10 = false;
  for (const run of comparison.runs) {
    for (const row of [run.passRate, ...run.evaluators, ...run.agreement]) {
      const shown = shownLabel(row);
      if (shown === 'regressed' || shown === 'possible regression') anyWarning = true;
      if (row.label === 'regressed') anyRegressedP = true;
      if (row.label === 'regressed' && (row.qValue ?? 1) < 0.1) anyRegressedQ10 = true;
    }
  }
  const lists = comparison.runs.flatMap(caseLists).filter((l) => l.title === 'newly failing');
  // What the folded headings claim, read as a reader reads them: their words.
  let foldedLists = 0;
  let noiseWorded = 0;
  let droppedWordedNoise = false;
  for (const run of comparison.runs) {
    const list = caseLists(run).find((l) => l.title === 'newly failing');
    if (list === undefined || list.alarm === true) continue;
    foldedLists++;
    // The claim that no drop of minDetectableEffect happened: `within the noise`, or with one
    // trial a case (which cannot tell noise from a change) `a drop of 10.0 pp ruled out`.
    const aside = list.aside ?? '';
    if (!aside.includes('within the noise') && !aside.includes('ruled out')) continue;
    noiseWorded++;
    if (isDropped(drop, run.suite, run.params.point)) droppedWordedNoise = true;
  }
  const { family } = comparison;
  let tailRows = 0;
  for (const run of comparison.runs) {
    for (const row of [run.passRate, ...run.evaluators, ...run.agreement]) {
      if (row.adjustedP !== null && (row.pValue ?? 1) <= 0.05 / family.rows) tailRows++;
    }
  }
  return {
    blocked: comparison.runs.some((r) => !regressionCondition(r).passed),
    anySignificant: family.regressions + family.improvements > 0,
    anyWarning,
    anyRegressedP,
    anyRegressedQ10,
    anyNewlyFailing: lists.length > 0,
    newlyFailingAlarm: lists.some((list) => list.alarm === true),
    foldedLists,
    noiseWorded,
    droppedWordedNoise,
    familyRows: family.rows,
    tailRows,
    blockingRows: comparison.runs.flatMap((r) => significantRegressions(r).map((b) => b.row)),
  };
}

/** Rates over a batch of pull requests. */
export interface BatchResult {
  prs: number;
  blocked: number;
  /** Blocked by a pass-rate row (possibly an evaluator row too). */
  blockedByPassRate: number;
  anySignificant: number;
  /** Pull requests with some row shown `regressed` or `possible regression`. */
  anyWarning: number;
  anyRegressedP: number;
  anyRegressedQ10: number;
  /** Pull requests listing newly failing cases (all shown as an alarm, before). */
  anyNewlyFailing: number;
  /** Pull requests showing newly failing cases as an alarm (now). */
  newlyFailingAlarm: number;
  /** Folded newly failing lists over every pull request, and those worded `within the noise`. */
  foldedLists: number;
  noiseWorded: number;
  /** Pull requests where a dropped grid point's list is folded as `within the noise`. */
  droppedWordedNoise: number;
  familyRows: number;
  /** Rows tested over every pull request, and those of them at or below 0.05 / F. */
  rowsTested: number;
  tailRows: number;
}

/** A batch of `prs` pull requests with nothing counted yet. */
export function emptyBatch(prs = 0): BatchResult {
  return {
    prs,
    blocked: 0,
    blockedByPassRate: 0,
    anySignificant: 0,
    anyWarning: 0,
    anyRegressedP: 0,
    anyRegressedQ10: 0,
    anyNewlyFailing: 0,
    newlyFailingAlarm: 0,
    foldedLists: 0,
    noiseWorded: 0,
    droppedWordedNoise: 0,
    familyRows: 0,
    rowsTested: 0,
    tailRows: 0,
  };
}

/** Adds `batch`'s counts to `total`'s (the largest family stays the largest). */
export function addBatch(total: BatchResult, batch: BatchResult): void {
  total.prs += batch.prs;
  total.blocked += batch.blocked;
  total.blockedByPassRate += batch.blockedByPassRate;
  total.anySignificant += batch.anySignificant;
  total.anyWarning += batch.anyWarning;
  total.anyRegressedP += batch.anyRegressedP;
  total.anyRegressedQ10 += batch.anyRegressedQ10;
  total.anyNewlyFailing += batch.anyNewlyFailing;
  total.newlyFailingAlarm += batch.newlyFailingAlarm;
  total.foldedLists += batch.foldedLists;
  total.noiseWorded += batch.noiseWorded;
  total.droppedWordedNoise += batch.droppedWordedNoise;
  total.familyRows = Math.max(total.familyRows, batch.familyRows);
  total.rowsTested += batch.rowsTested;
  total.tailRows += batch.tailRows;
}

/**
 * Simulates `prs` pull requests of one scenario. Pull request k draws from seed
 * `mix(seed, stream, k)`, so a batch is the same whatever runs before it.
 */
export function simulateBatch(
  scenario: Scenario,
  prs: number,
  seed: number,
  stream: number,
  drop?: Drop,
): BatchResult {
  const result = emptyBatch(prs);
  for (let k = 0; k < prs; k++) {
    const pr = simulatePr(mix(seed, stream, k), scenario, drop);
    if (pr.blocked) result.blocked++;
    if (pr.blockingRows.includes('pass rate')) result.blockedByPassRate++;
    if (pr.anySignificant) result.anySignificant++;
    if (pr.anyWarning) result.anyWarning++;
    if (pr.anyRegressedP) result.anyRegressedP++;
    if (pr.anyRegressedQ10) result.anyRegressedQ10++;
    if (pr.anyNewlyFailing) result.anyNewlyFailing++;
    if (pr.newlyFailingAlarm) result.newlyFailingAlarm++;
    result.foldedLists += pr.foldedLists;
    result.noiseWorded += pr.noiseWorded;
    if (pr.droppedWordedNoise) result.droppedWordedNoise++;
    result.familyRows = Math.max(result.familyRows, pr.familyRows);
    result.rowsTested += pr.familyRows;
    result.tailRows += pr.tailRows;
  }
  return result;
}

/** Rows a scenario tests together at most: a pass rate and every evaluator, per run. */
export function rowsOf(scenario: Scenario): number {
  return scenario.suites * scenario.gridPoints * (1 + scenario.evaluators);
}

interface Draw {
  scenario: Scenario;
  random: Random;
  gauss: () => number;
}

function difficulty(scenario: Scenario, random: Random): number {
  if (scenario.kind === 'continuous') return 0.2 + 0.6 * random();
  const p = scenario.passRate;
  return betaDraw(CONCENTRATION * p, CONCENTRATION * (1 - p), random);
}

function lower(scenario: Scenario, d: number, drop: Drop): number {
  if (scenario.kind === 'continuous') return d - drop.delta;
  return (d * (scenario.passRate - drop.delta)) / scenario.passRate;
}

/** One trial's score for a case of difficulty `d`. */
function score(d: number, { scenario, random, gauss }: Draw): number {
  if (scenario.kind === 'binary') return random() < d ? 1 : 0;
  return Math.min(1, Math.max(0, d + NOISE * gauss()));
}

function trial(row: readonly number[], draw: Draw): TrialResult {
  const evaluations = row.map((d, e): EvaluationResult => {
    const value = score(d, draw);
    return {
      evaluator: `e${e}`,
      score: value,
      threshold: THRESHOLD,
      passed: meetsThreshold(value, THRESHOLD),
      metadata: null,
      error: null,
      durationMs: 0,
    };
  });
  return {
    output: null,
    error: null,
    durationMs: 0,
    passed: evaluations.every((evaluation) => evaluation.passed === true),
    evaluations,
  };
}

function caseResult(i: number, row: readonly number[], trials: number, draw: Draw): CaseResult {
  const prepared: PreparedCase = {
    id: `case-${i}`,
    contentId: `content-${i}`,
    source: null,
    data: {},
    meta: {},
    index: i,
  };
  const done = Array.from({ length: trials }, () => trial(row, draw));
  if (trials > 1) return aggregateTrials(prepared, done);
  const only = done[0] as TrialResult;
  return {
    id: prepared.id,
    contentId: prepared.contentId,
    source: null,
    data: {},
    output: only.output,
    error: only.error,
    durationMs: only.durationMs,
    passed: only.passed,
    evaluations: only.evaluations,
  };
}

function run(
  suite: number,
  point: number,
  rows: readonly (readonly number[])[],
  trials: number,
  draw: Draw,
): RunResult {
  const cases = rows.map((row, i) => caseResult(i, row, trials, draw));
  const evaluators = Array.from({ length: draw.scenario.evaluators }, (_, e) => `e${e}`);
  return {
    suite: suiteName(suite),
    params: { point },
    testset: { path: 'sim.csv', ref: null, commit: null, revision: 'sim', cases: cases.length },
    verdict: 'pass',
    gate: { conditions: [] },
    summary: summarizeRun(cases, evaluators, { trials }),
    plan: { evaluators, trials, gate: { regressions: 'block' } },
    cases,
  };
}
