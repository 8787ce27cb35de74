/**
 * Results artifacts built from scores for the comparison tests (`test/compare-*.test.ts`): cases
 * from scores, runs from cases, artifacts from runs, and a seeded noisy BASE/HEAD pair.
 */
import { mulberry32 } from '../../src/compare/sign-flip.ts';
import type {
  CaseResult,
  EvaluationResult,
  EvaluatorSummary,
  Params,
  ResultsArtifact,
  RunResult,
} from '../../src/types/index.ts';

/** One case of a run, described by its scores. */
export interface CaseSpec {
  id: string;
  /** Score per evaluator; `null`: the evaluator errored. */
  scores: Record<string, number | null>;
  /** Defaults to every score ≥ 0.5. */
  passed?: boolean;
  contentId?: string;
  flaky?: boolean;
  trialPassRate?: number;
}

/** The case result of `spec`, at testset line `line`; every evaluator has threshold ≥ 0.5. */
function caseResult(spec: CaseSpec, line: number): CaseResult {
  const evaluations = Object.entries(spec.scores).map(([evaluator, score]): EvaluationResult => ({
    evaluator,
    score,
    threshold: { gte: 0.5 },
    passed: score !== null && score >= 0.5,
    metadata: null,
    error: score === null ? 'boom' : null,
    durationMs: 1,
  }));
  const result: CaseResult = {
    id: spec.id,
    contentId: spec.contentId ?? `content-${spec.id}`,
    source: { file: 'testsets/qa.csv', line },
    data: { question: spec.id },
    output: 'answer',
    error: null,
    durationMs: 1,
    passed: spec.passed ?? evaluations.every((evaluation) => evaluation.passed === true),
    evaluations,
  };
  if (spec.flaky !== undefined) result.flaky = spec.flaky;
  if (spec.trialPassRate !== undefined) result.trialPassRate = spec.trialPassRate;
  return result;
}

/** A run of `suite` at grid point `params` over the cases of `specs`, with its summary. */
export function run(suite: string, params: Params, specs: readonly CaseSpec[]): RunResult {
  const cases = specs.map((spec, index) => caseResult(spec, index + 2));
  const evaluators: Record<string, EvaluatorSummary> = {};
  for (const result of cases) {
    for (const evaluation of result.evaluations) {
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
      if (evaluation.error !== null) summary.errors++;
    }
  }
  const passed = cases.filter((result) => result.passed).length;
  return {
    suite,
    params,
    testset: { path: 'testsets/qa.csv', ref: null, commit: null, revision: 'rev', cases: 0 },
    verdict: 'pass',
    gate: { conditions: [] },
    summary: {
      cases: cases.length,
      passed,
      failed: cases.length - passed,
      errored: 0,
      passRate: cases.length === 0 ? 1 : passed / cases.length,
      evaluators,
    },
    cases,
  };
}

/** A passing results artifact of `runs`, at commit `sha` on main. */
export function artifact(runs: RunResult[], sha = 'a'.repeat(40)): ResultsArtifact {
  return {
    schemaVersion: 1,
    tool: { name: 'evalgate', version: '0.1.0' },
    config: 'evals.yaml',
    configHash: 'hash',
    git: { sha, ref: 'main' },
    startedAt: '2024-05-01T12:00:00.000Z',
    durationMs: 1000,
    interrupted: false,
    verdict: 'pass',
    runs,
  };
}

/** Standard normal draws from a seeded stream (Box–Muller). */
function normals(seed: number): () => number {
  const random = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

const clamp = (value: number): number => Math.min(1, Math.max(0, value));

/**
 * BASE and HEAD over `n` cases from one noisy process: each case has its own difficulty (shared
 * by both sides, which is what pairing exploits) plus independent noise on each side; HEAD's
 * scores are shifted by `shift`. Evaluator `quality` is continuous, `exact` is 0/1.
 */
export function noisyPair(
  seed: number,
  n: number,
  shift: number,
): [ResultsArtifact, ResultsArtifact] {
  const gauss = normals(seed);
  const random = mulberry32(seed ^ 0x9e3779b9);
  const baseCases: CaseSpec[] = [];
  const headCases: CaseSpec[] = [];
  for (let i = 0; i < n; i++) {
    const difficulty = 0.25 + 0.5 * random();
    const id = `case-${i}`;
    const base = clamp(difficulty + 0.1 * gauss());
    const head = clamp(difficulty + shift + 0.1 * gauss());
    baseCases.push({ id, scores: { quality: base, exact: random() < base ? 1 : 0 } });
    headCases.push({ id, scores: { quality: head, exact: random() < head ? 1 : 0 } });
  }
  return [
    artifact([run('qa', { model: 'small' }, baseCases)]),
    artifact([run('qa', { model: 'small' }, headCases)], 'b'.repeat(40)),
  ];
}
