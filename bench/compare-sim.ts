/**
 * The seeded simulation of pull requests behind `npm run sim` and its short version in
 * `test/compare-sim.test.ts`: each pull request is a BASE and a HEAD results artifact generated
 * in memory (one suite, a grid of points, noisy evaluators with thresholds), compared in-process
 * with `compareArtifacts` and gated as `gate: { regressions: block }` gates a run. No CLI start
 * per pull request, so hundreds of them take seconds.
 *
 * The model of a noisy evaluation: every case has its own difficulty per evaluator (shared by
 * both sides, which is what pairing exploits), and each run re-draws every score around it, as a
 * re-asked judge does. Scores are clamped to [0, 1] and pass at ≥ 0.5; a case passes when every
 * evaluator passes. HEAD's scores are BASE's process shifted by `shift` (0 for a pull request
 * that changes nothing).
 */
import { compareArtifacts } from '../src/compare/compare.ts';
import { adjustFamily } from '../src/compare/family.ts';
import { regressionCondition } from '../src/compare/gate.ts';
import { mulberry32, type Random } from '../src/compare/sign-flip.ts';
import type { Comparison } from '../src/types/comparison.ts';
import type {
  CaseResult,
  EvaluationResult,
  EvaluatorSummary,
  ResultsArtifact,
  RunResult,
} from '../src/types/index.ts';

/** The shape of every simulated pull request. */
export interface SimShape {
  cases: number;
  gridPoints: number;
  evaluators: number;
  /** Standard deviation of a score around its case's difficulty, drawn anew by every run. */
  noise: number;
  /** Sign vectors per row (`compareArtifacts`' `resamples`); its default when absent. */
  resamples?: number;
}

/** The issue's scenario: 100 cases, 4 grid points, 5 evaluators, re-drawn scores. */
export const ISSUE_SHAPE: SimShape = { cases: 100, gridPoints: 4, evaluators: 5, noise: 0.15 };

/** One simulated pull request, compared and gated. */
export interface SimulatedPr {
  comparison: Comparison;
  /** Some run's `regressions` condition failed: the pull request is blocked. */
  blocked: boolean;
  /** What the gate did before the family spanned the comparison: Holm within each run. */
  blockedHolmPerRun: boolean;
  /** What an uncorrected gate would do: some row regressed at its own 5%. */
  blockedUncorrected: boolean;
}

/** Generates, compares and gates one pull request. */
export function simulatePr(seed: number, shape: SimShape, shift: number): SimulatedPr {
  const { base, head } = simulatedArtifacts(seed, shape, shift);
  const options = shape.resamples === undefined ? {} : { resamples: shape.resamples };
  const comparison = compareArtifacts(base, head, options);
  const blocked = comparison.runs.some((r) => !regressionCondition(r).passed);
  const rowsOf = (r: Comparison['runs'][number]) =>
    [r.passRate, ...r.evaluators].filter((row) => row.pValue !== null);
  const blockedHolmPerRun = comparison.runs.some((r) => {
    const rows = rowsOf(r);
    const { holm } = adjustFamily(rows.map((row) => row.pValue ?? 1));
    return rows.some((row, i) => row.label === 'regressed' && (holm[i] ?? 1) < 0.05);
  });
  const blockedUncorrected = comparison.runs.some((r) =>
    rowsOf(r).some((row) => row.label === 'regressed'),
  );
  return { comparison, blocked, blockedHolmPerRun, blockedUncorrected };
}

/** BASE and HEAD of one simulated pull request, as results artifacts. */
export function simulatedArtifacts(
  seed: number,
  shape: SimShape,
  shift: number,
): { base: ResultsArtifact; head: ResultsArtifact } {
  const random = mulberry32(seed);
  const gauss = normals(random);
  const base: RunResult[] = [];
  const head: RunResult[] = [];
  for (let point = 0; point < shape.gridPoints; point++) {
    const difficulty = Array.from({ length: shape.cases }, () =>
      Array.from({ length: shape.evaluators }, () => 0.2 + 0.6 * random()),
    );
    const draw = (by: number): number[][] =>
      difficulty.map((row) => row.map((d) => clamp(d + by + shape.noise * gauss())));
    base.push(run(point, draw(0)));
    head.push(run(point, draw(shift)));
  }
  return { base: simArtifact(base), head: simArtifact(head) };
}

/** What a batch of pull requests came to. */
export interface SimSummary {
  prs: number;
  blocked: number;
  /** Blocked by Holm within each run only, and by no correction at all (for comparison). */
  blockedHolmPerRun: number;
  blockedUncorrected: number;
  /** Score rows (not pass rates) with raw p < 0.05, and how many score rows there were. */
  rowsFlagged: number;
  rows: number;
  /** Raw p-values of every score row, for the uniformity check. */
  pValues: number[];
  /** Pass-rate rows with raw p < 0.05, and how many there were. */
  passRatesFlagged: number;
  passRates: number;
}

/** Simulates `prs` pull requests with seeds `firstSeed`, `firstSeed + 1`, … */
export function simulate(
  prs: number,
  firstSeed: number,
  shape: SimShape,
  shift: number,
): SimSummary {
  const summary: SimSummary = {
    prs,
    blocked: 0,
    blockedHolmPerRun: 0,
    blockedUncorrected: 0,
    rowsFlagged: 0,
    rows: 0,
    pValues: [],
    passRatesFlagged: 0,
    passRates: 0,
  };
  for (let i = 0; i < prs; i++) {
    const pr = simulatePr(firstSeed + i, shape, shift);
    if (pr.blocked) summary.blocked++;
    if (pr.blockedHolmPerRun) summary.blockedHolmPerRun++;
    if (pr.blockedUncorrected) summary.blockedUncorrected++;
    for (const r of pr.comparison.runs) {
      for (const row of r.evaluators) {
        if (row.pValue === null) continue;
        summary.rows++;
        summary.pValues.push(row.pValue);
        if (row.pValue < 0.05) summary.rowsFlagged++;
      }
      if (r.passRate.pValue !== null) {
        summary.passRates++;
        if (r.passRate.pValue < 0.05) summary.passRatesFlagged++;
      }
    }
  }
  return summary;
}

/**
 * The Kolmogorov–Smirnov distance between `values` and the uniform distribution on [0, 1]:
 * sup |F_n(x) − x|.
 */
export function ksUniform(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  let distance = 0;
  for (const [i, x] of sorted.entries()) {
    distance = Math.max(distance, (i + 1) / n - x, x - i / n);
  }
  return distance;
}

/** KS critical distance at α = 0.01 for `n` values (asymptotic: 1.628 / √n). */
export function ksCritical01(n: number): number {
  return 1.6276 / Math.sqrt(n);
}

/** Standard normal draws (Box–Muller) from a seeded stream. */
function normals(random: Random): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** A run of one grid point from its scores, `scores[case][evaluator]`. */
function run(point: number, scores: number[][]): RunResult {
  const evaluators: Record<string, EvaluatorSummary> = {};
  const cases = scores.map((row, i): CaseResult => {
    const evaluations = row.map((score, e): EvaluationResult => ({
      evaluator: `e${e}`,
      score,
      threshold: { gte: 0.5 },
      passed: score >= 0.5,
      metadata: null,
      error: null,
      durationMs: 0,
    }));
    for (const evaluation of evaluations) {
      const summary = (evaluators[evaluation.evaluator] ??= {
        count: 0,
        mean: null,
        passed: 0,
        failed: 0,
        errors: 0,
        passRate: null,
      });
      summary.count++;
      if (evaluation.passed) summary.passed++;
      else summary.failed++;
    }
    return {
      id: `case-${i}`,
      contentId: `content-${i}`,
      source: null,
      data: {},
      output: null,
      error: null,
      durationMs: 0,
      passed: evaluations.every((evaluation) => evaluation.passed === true),
      evaluations,
    };
  });
  const passed = cases.filter((c) => c.passed).length;
  return {
    suite: 'sim',
    params: { point },
    testset: { path: 'sim.csv', ref: null, commit: null, revision: 'sim', cases: cases.length },
    verdict: 'pass',
    gate: { conditions: [] },
    summary: {
      cases: cases.length,
      passed,
      failed: cases.length - passed,
      errored: 0,
      passRate: passed / cases.length,
      evaluators,
    },
    plan: {
      evaluators: Object.keys(evaluators),
      trials: 1,
      gate: { regressions: 'block' },
    },
    cases,
  };
}

/** A results artifact holding `runs`, as the simulations compare them. */
export function simArtifact(runs: RunResult[]): ResultsArtifact {
  return {
    schemaVersion: 1,
    tool: { name: 'evalgate', version: 'sim' },
    config: 'evals.yaml',
    configHash: 'sim',
    git: null,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 0,
    interrupted: false,
    verdict: 'pass',
    runs,
  };
}
