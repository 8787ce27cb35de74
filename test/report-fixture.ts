/**
 * Shared results for the report tests: one passing run and one failing run of a suite with a
 * grid, covering every kind of case (passed, failed on a threshold, evaluator error, function
 * error, no source) and every nullable field of the artifact.
 */
import type {
  CaseResult,
  EvaluationResult,
  RunResult,
  Threshold,
  TrialResult,
} from '../src/types/index.ts';

/** One trial of a case run with `trials:`, passed or not, with nothing else to show. */
export function trialResult(passed: boolean): TrialResult {
  return { output: 'x', error: null, durationMs: 1, passed, evaluations: [] };
}

/** An evaluation with defaults; `passed` follows from score and threshold unless given. */
export function evaluation(
  evaluator: string,
  score: number | null,
  threshold: Threshold | null,
  extra: Partial<EvaluationResult> = {},
): EvaluationResult {
  const passed =
    threshold === null || score === null
      ? score === null
        ? false
        : null
      : score >= (threshold.gte ?? 0);
  return {
    evaluator,
    score,
    threshold,
    passed,
    metadata: null,
    error: null,
    durationMs: 0.2,
    ...extra,
  };
}

/** A case at `line` of `testsets/capitals.csv` with a 64-hex-like id. */
export function caseResult(n: number, extra: Partial<CaseResult> = {}): CaseResult {
  return {
    id: `${String(n).repeat(4)}abcdef0123456789`.slice(0, 64),
    contentId: `c${n}`.padEnd(64, '0'),
    source: { file: 'testsets/capitals.csv', line: n + 1 },
    data: { country: `Country ${n}`, capital: `Capital ${n}` },
    output: { answer: `Capital ${n}` },
    error: null,
    durationMs: 40 + n,
    passed: true,
    evaluations: [evaluation('exact', 1, { gte: 1 }), evaluation('tone', 0.8, null)],
    ...extra,
  };
}

/** Run 1 passes everything; run 2 has one pass, three failures, one error and fails its gate. */
export function fixtureRuns(): RunResult[] {
  const passing: RunResult = {
    suite: 'capitals',
    params: { model: 'large', temperature: 0 },
    testset: { path: 'testsets/capitals.csv', ref: null, commit: null, revision: 'rev1', cases: 2 },
    verdict: 'pass',
    gate: { conditions: [{ name: 'minPassRate', expected: '≥ 0.5', actual: '1', passed: true }] },
    summary: {
      cases: 2,
      passed: 2,
      failed: 0,
      errored: 0,
      passRate: 1,
      evaluators: {
        exact: { count: 2, mean: 1, passed: 2, failed: 0, errors: 0, passRate: 1 },
        tone: { count: 2, mean: 0.8, passed: 0, failed: 0, errors: 0, passRate: null },
      },
    },
    cases: [caseResult(1), caseResult(2)],
  };
  const failing: RunResult = {
    suite: 'capitals',
    params: { model: 'small', temperature: 0 },
    testset: {
      path: 'testsets/capitals.csv',
      ref: 'main',
      commit: 'a'.repeat(40),
      revision: 'rev1',
      cases: 6,
    },
    verdict: 'fail',
    gate: {
      conditions: [
        { name: 'minPassRate', expected: '≥ 0.5', actual: '0.167', passed: false },
        { name: 'evaluators.tone.mean', expected: '≥ 0.5', actual: '0.6', passed: true },
      ],
    },
    summary: {
      cases: 6,
      passed: 1,
      failed: 4,
      errored: 1,
      passRate: 1 / 6,
      evaluators: {
        exact: { count: 5, mean: 0.4, passed: 2, failed: 3, errors: 0, passRate: 0.4 },
        tone: { count: 5, mean: null, passed: 0, failed: 1, errors: 1, passRate: null },
      },
    },
    cases: [
      caseResult(1),
      caseResult(2, {
        passed: false,
        output: { answer: 'Lyon' },
        evaluations: [
          evaluation('exact', 0, { gte: 1 }, { metadata: { expected: 'Paris', actual: 'Lyon' } }),
          evaluation('tone', 0.7, null),
        ],
      }),
      caseResult(3, {
        passed: false,
        evaluations: [
          evaluation('exact', 0.79996, { gte: 0.8 }),
          evaluation('tone', null, null, { error: 'judge timed out\nat line 2', passed: false }),
        ],
      }),
      caseResult(4, {
        passed: false,
        output: null,
        error: 'TypeError: boom\n    at answer (app/answer.ts:3:9)',
        evaluations: [],
      }),
      caseResult(5, { passed: false, source: null, evaluations: [evaluation('tone', 0.1, null)] }),
      caseResult(6, {
        passed: false,
        evaluations: [evaluation('exact', 0.2, { gt: 0.5, lt: 0.9 }, { passed: false })],
      }),
    ],
  };
  return [passing, failing];
}

/**
 * Case `n` (id `id`) scored by one `exact` evaluator: it answers `right n` and passes, or, given
 * `actual`, answers that and fails with the expected and actual text in the metadata.
 */
export function exactCase(
  n: number,
  id: string,
  actual: string | null,
  extra: Partial<CaseResult> = {},
): CaseResult {
  const failing = actual !== null;
  return caseResult(n, {
    id,
    data: { question: `Question ${n}` },
    output: failing ? actual : `right ${n}`,
    passed: !failing,
    evaluations: [
      evaluation(
        'exact',
        failing ? 0 : 1,
        { gte: 1 },
        failing ? { metadata: { expected: `right ${n}`, actual } } : {},
      ),
    ],
    ...extra,
  });
}
