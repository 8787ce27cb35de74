import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { MemoryCaseLog } from '../src/artifact/case-log.ts';
import { comparableCase } from '../src/compare/comparable.ts';
import { compareArtifacts } from '../src/compare/compare.ts';
import { validateComparable } from '../src/compare/validate-comparable.ts';
import { renderComparisonJson } from '../src/report/comparison.ts';
import { renderComparisonMarkdown } from '../src/report/comparison-markdown.ts';
import { renderComparisonText } from '../src/report/comparison-text.ts';
import { mulberry32 } from '../src/compare/sign-flip.ts';
import type { Comparison } from '../src/types/comparison.ts';
import { UsageError } from '../src/shared/errors.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import type {
  CaseResult,
  EvaluationResult,
  EvaluatorSummary,
  Params,
  ResultsArtifact,
  RunResult,
} from '../src/types/index.ts';

// ---------------------------------------------------------------------------------------------
// A small builder: cases from scores, runs from cases, artifacts from runs
// ---------------------------------------------------------------------------------------------

interface CaseSpec {
  id: string;
  /** Score per evaluator; `null`: the evaluator errored. */
  scores: Record<string, number | null>;
  /** Defaults to every score ≥ 0.5. */
  passed?: boolean;
  contentId?: string;
  flaky?: boolean;
  trialPassRate?: number;
}

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

function run(suite: string, params: Params, specs: readonly CaseSpec[]): RunResult {
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

function artifact(runs: RunResult[], sha = 'a'.repeat(40)): ResultsArtifact {
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
function noisyPair(seed: number, n: number, shift: number): [ResultsArtifact, ResultsArtifact] {
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

function labels(comparison: Comparison): string[] {
  return comparison.runs.flatMap((runComparison) => [
    `pass rate: ${runComparison.passRate.label}`,
    ...runComparison.evaluators.map((row) => `${row.evaluator}: ${row.label}`),
  ]);
}

// ---------------------------------------------------------------------------------------------

describe('the footnote of a comparison', () => {
  it('says how a block is decided over the rows tested, and says so when none changed', () => {
    const [base, head] = noisyPair(1, 200, 0);
    const tested = compareArtifacts(base, head);
    assert.ok(tested.family.rows > 0);
    assert.match(
      renderComparisonText(tested, { color: false }),
      new RegExp(`A block needs Holm p < 0\\.05 over all ${tested.family.rows} rows`),
    );
    // Nothing changed: no row is tested, so the family is empty.
    const untested = compareArtifacts(base, structuredClone(base));
    assert.equal(untested.family.rows, 0);
    const text = renderComparisonText(untested, { color: false });
    assert.match(text, /No row had a changed case to test, so nothing could block\./);
    assert.doesNotMatch(text, /over all 0 rows/);
  });
});

describe('compareArtifacts: statistics on synthetic data', () => {
  it('labels every row of two identical runs unchanged, with CI [0, 0] and p = 1', () => {
    const [base] = noisyPair(1, 200, 0);
    const comparison = compareArtifacts(base, structuredClone(base));
    assert.deepEqual(labels(comparison), [
      'pass rate: unchanged',
      'quality: unchanged',
      'exact: unchanged',
    ]);
    for (const row of comparison.runs[0]?.evaluators ?? []) {
      assert.equal(row.paired, 200);
      assert.deepEqual(row.ci, { low: 0, high: 0 });
      assert.equal(row.pValue, 1);
      assert.equal(row.delta, 0);
    }
    assert.equal(comparison.runs[0]?.passRate.pValue, 1);
    assert.deepEqual(comparison.counts, {
      improved: 0,
      regressed: 0,
      unchanged: 3,
      tooFewCases: 0,
      underpowered: 0,
    });
    assert.equal(comparison.hasRegression, false);
  });

  it('calls HEAD = BASE + 0.15 improved and − 0.15 regressed', () => {
    const [base, better] = noisyPair(2, 200, 0.15);
    const up = compareArtifacts(base, better);
    const quality = up.runs[0]?.evaluators.find((row) => row.evaluator === 'quality');
    assert.equal(quality?.label, 'improved');
    assert.ok(quality.ci !== null && quality.ci.low > 0);
    assert.ok(quality.ci.low < 0.15 && quality.ci.high > 0.1, JSON.stringify(quality.ci));
    assert.ok((quality.pValue ?? 1) < 0.001);
    assert.equal(up.hasRegression, false);

    const [base2, worse] = noisyPair(3, 200, -0.15);
    const down = compareArtifacts(base2, worse);
    const row = down.runs[0]?.evaluators.find((change) => change.evaluator === 'quality');
    assert.equal(row?.label, 'regressed');
    assert.ok(row.ci !== null && row.ci.high < 0);
    assert.equal(down.runs[0]?.passRate.label, 'regressed');
    assert.ok((down.runs[0]?.passRate.passToFail ?? 0) > (down.runs[0]?.passRate.failToPass ?? 0));
    assert.equal(down.hasRegression, true);
    assert.ok(down.counts.regressed >= 2);
  });

  it('flags at most ~5% of rows when BASE and HEAD come from the same process (200 seeds)', (t) => {
    const flagged = { quality: 0, exact: 0, 'pass rate': 0 };
    const seeds = 200;
    for (let seed = 1000; seed < 1000 + seeds; seed++) {
      const [base, head] = noisyPair(seed, 200, 0);
      const comparison = compareArtifacts(base, head);
      const runComparison = comparison.runs[0];
      assert.ok(runComparison);
      if (runComparison.passRate.label !== 'unchanged') flagged['pass rate']++;
      for (const row of runComparison.evaluators) {
        assert.ok(
          row.label === 'unchanged' || row.label === 'improved' || row.label === 'regressed',
        );
        if (row.label !== 'unchanged') flagged[row.evaluator as 'quality' | 'exact']++;
      }
    }
    for (const [row, count] of Object.entries(flagged)) {
      t.diagnostic(
        `${row}: ${count}/${seeds} null comparisons flagged (${((100 * count) / seeds).toFixed(1)}%)`,
      );
      // Nominal 5%; the binomial sampling error over 200 seeds is ±1.5%, so 8% is the bound.
      assert.ok(count / seeds <= 0.08, `${row}: ${count}/${seeds}`);
    }
  });

  it('says too few cases under 10 paired, however large the change', () => {
    const baseCases = Array.from({ length: 9 }, (_, i) => ({ id: `c${i}`, scores: { q: 0.1 } }));
    const headCases = Array.from({ length: 9 }, (_, i) => ({ id: `c${i}`, scores: { q: 0.9 } }));
    const comparison = compareArtifacts(
      artifact([run('s', {}, baseCases)]),
      artifact([run('s', {}, headCases)]),
    );
    const runComparison = comparison.runs[0];
    assert.equal(runComparison?.passRate.label, 'too few cases');
    assert.equal(runComparison.passRate.failToPass, 9);
    assert.equal(runComparison.evaluators[0]?.label, 'too few cases');
    assert.equal(runComparison.evaluators[0]?.paired, 9);
    assert.ok(Math.abs((runComparison.evaluators[0]?.delta ?? 0) - 0.8) < 1e-12);
    assert.deepEqual(comparison.counts, {
      improved: 0,
      regressed: 0,
      unchanged: 0,
      tooFewCases: 2,
      underpowered: 0,
    });

    // With the threshold lowered, the same data is a verdict.
    const lowered = compareArtifacts(
      artifact([run('s', {}, baseCases)]),
      artifact([run('s', {}, headCases)]),
      { minPaired: 5 },
    );
    assert.equal(lowered.runs[0]?.evaluators[0]?.label, 'improved');
    assert.equal(lowered.runs[0]?.passRate.label, 'improved');
    // 9 of 9 fail → pass: McNemar's exact p is 2 / 512; the sign flips estimate it from 4,999 draws.
    assert.ok(Math.abs((lowered.runs[0]?.passRate.pValue ?? 1) - 2 / 512) < 0.003);
  });

  it('excludes errored scores pairwise', () => {
    const base = Array.from({ length: 12 }, (_, i) => ({
      id: `c${i}`,
      scores: { q: i < 3 ? null : 0.5 },
    }));
    const head = Array.from({ length: 12 }, (_, i) => ({
      id: `c${i}`,
      scores: { q: i === 11 ? null : 0.5 },
    }));
    const row = compareArtifacts(artifact([run('s', {}, base)]), artifact([run('s', {}, head)]))
      .runs[0]?.evaluators[0];
    assert.equal(row?.paired, 8);
    assert.equal(row.label, 'too few cases');
    assert.equal(row.baseMean, 0.5);
  });
});

describe('compareArtifacts: matching and case lists', () => {
  it('matches runs by suite and params whatever the key order, and lists one-sided runs', () => {
    const cases = Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, scores: { q: 0.7 } }));
    const base = artifact([
      run('qa', { model: 'small', temperature: 0, extra: { a: 1, b: [1, 2] } }, cases),
      run('qa', { model: 'large' }, cases),
    ]);
    const head = artifact([
      run('qa', { extra: { b: [1, 2], a: 1 }, temperature: 0, model: 'small' }, cases),
      run('qa', { model: 'medium' }, cases),
      run('other', {}, cases),
    ]);
    const comparison = compareArtifacts(base, head);
    assert.equal(comparison.runs.length, 1);
    assert.equal(comparison.runs[0]?.params.model, 'small');
    assert.deepEqual(comparison.onlyInBase, [{ suite: 'qa', params: { model: 'large' } }]);
    assert.deepEqual(comparison.onlyInHead, [
      { suite: 'qa', params: { model: 'medium' } },
      { suite: 'other', params: {} },
    ]);
  });

  it('lists evaluators present on one side only', () => {
    const base = Array.from({ length: 10 }, (_, i) => ({
      id: `c${i}`,
      scores: { shared: 0.5, old: 0.5 },
    }));
    const head = Array.from({ length: 10 }, (_, i) => ({
      id: `c${i}`,
      scores: { fresh: 0.5, shared: 0.5 },
    }));
    const runComparison = compareArtifacts(
      artifact([run('s', {}, base)]),
      artifact([run('s', {}, head)]),
    ).runs[0];
    assert.deepEqual(
      runComparison?.evaluators.map((row) => row.evaluator),
      ['shared'],
    );
    assert.deepEqual(runComparison.evaluatorsOnlyInBase, ['old']);
    assert.deepEqual(runComparison.evaluatorsOnlyInHead, ['fresh']);
  });

  it('lists newly failing, fixed, added, removed, content-changed and flaky cases', () => {
    const base = run('s', {}, [
      { id: 'steady', scores: { q: 0.9 } },
      { id: 'breaks', scores: { q: 0.9 } },
      { id: 'heals', scores: { q: 0.1 } },
      { id: 'edited', scores: { q: 0.9 }, contentId: 'v1' },
      { id: 'gone', scores: { q: 0.9 } },
    ]);
    const head = run('s', {}, [
      { id: 'steady', scores: { q: 0.9 }, flaky: false, trialPassRate: 1 },
      { id: 'breaks', scores: { q: 0.1 }, flaky: true, trialPassRate: 0.4 },
      { id: 'heals', scores: { q: 0.9 } },
      { id: 'edited', scores: { q: 0.1 }, contentId: 'v2' },
      { id: 'new', scores: { q: 0.9 } },
    ]);
    const runComparison = compareArtifacts(artifact([base]), artifact([head])).runs[0];
    assert.ok(runComparison);
    const ids = (list: readonly { id: string }[]): string[] => list.map((ref) => ref.id);
    assert.deepEqual(ids(runComparison.cases.newlyFailing), ['breaks']);
    assert.deepEqual(ids(runComparison.cases.fixed), ['heals']);
    assert.deepEqual(ids(runComparison.cases.added), ['new']);
    assert.deepEqual(ids(runComparison.cases.removed), ['gone']);
    // The edited row went from pass to fail, but its question changed: not a newly failing case.
    assert.deepEqual(ids(runComparison.cases.contentChanged), ['edited']);
    assert.deepEqual(runComparison.cases.flaky, [
      { id: 'breaks', source: { file: 'testsets/qa.csv', line: 3 }, trialPassRate: 0.4 },
    ]);
    assert.deepEqual(runComparison.cases.removed[0]?.source, { file: 'testsets/qa.csv', line: 6 });
    // Only the three cases with the same id and content are paired.
    assert.equal(runComparison.passRate.paired, 3);
    assert.equal(runComparison.passRate.passToFail, 1);
    assert.equal(runComparison.passRate.failToPass, 1);
    assert.equal(runComparison.evaluators[0]?.paired, 3);
  });
});

describe('comparableCase', () => {
  const reduce = (artifact: ResultsArtifact): ResultsArtifact => ({
    ...artifact,
    runs: artifact.runs.map((r) => ({ ...r, cases: r.cases.map(comparableCase) })),
  });

  it('keeps everything a comparison reads: the same comparison as from full cases', () => {
    const [noisyBase, noisyHead] = noisyPair(7, 60, -0.1);
    const base = run('s', {}, [
      { id: 'steady', scores: { q: 0.9, r: 0.4 } },
      { id: 'breaks', scores: { q: 0.9, r: null } },
      { id: 'heals', scores: { q: 0.1, r: 0.7 } },
      { id: 'edited', scores: { q: 0.9, r: 0.9 }, contentId: 'v1' },
      { id: 'gone', scores: { q: 0.9, r: 0.9 } },
    ]);
    const head = run('s', {}, [
      { id: 'steady', scores: { q: 0.9, r: 0.6 }, flaky: false, trialPassRate: 1 },
      { id: 'breaks', scores: { q: 0.1, r: 0.2 }, flaky: true, trialPassRate: 0.4 },
      { id: 'heals', scores: { q: 0.9, r: null } },
      { id: 'edited', scores: { q: 0.1, r: 0.9 }, contentId: 'v2' },
      { id: 'new', scores: { q: 0.9, r: 0.9 } },
    ]);
    for (const [b, h] of [
      [artifact([base]), artifact([head])],
      [noisyBase, noisyHead],
    ] as const) {
      assert.deepEqual(compareArtifacts(reduce(b), reduce(h)), compareArtifacts(b, h));
    }
  });

  it('drops data, output, metadata, thresholds, durations and trials, and stays a valid case', () => {
    const full = run('s', {}, [{ id: 'a', scores: { q: 0.9 }, flaky: true, trialPassRate: 0.5 }])
      .cases[0];
    assert.ok(full);
    full.trials = [
      { output: 'x', error: null, durationMs: 3, passed: true, evaluations: full.evaluations },
    ];
    const reduced = comparableCase(full);
    assert.deepEqual(reduced, {
      id: 'a',
      contentId: 'content-a',
      source: { file: 'testsets/qa.csv', line: 2 },
      data: {},
      output: null,
      error: null,
      durationMs: 0,
      passed: true,
      evaluations: [
        {
          evaluator: 'q',
          score: 0.9,
          threshold: null,
          passed: true,
          metadata: null,
          error: null,
          durationMs: 0,
        },
      ],
      trialPassRate: 0.5,
      flaky: true,
    });
    const reducedArtifact = reduce(artifact([run('s', {}, [{ id: 'a', scores: { q: 0.9 } }])]));
    assert.deepEqual(validateArtifact(reducedArtifact), []);
  });
});

describe('MemoryCaseLog', () => {
  it("gives each run's finished cases in testset order, leaving out the unfinished", () => {
    const cases = run('s', {}, [
      { id: 'a', scores: { q: 0.9 } },
      { id: 'b', scores: { q: 0.1 } },
      { id: 'c', scores: { q: 0.5 } },
      { id: 'd', scores: { q: 0.7 } },
    ]).cases;
    const log = new MemoryCaseLog();
    log.open([{ cases: 4 }, { cases: 2 }]);
    // Out of order, as concurrent cases finish; case 1 of run 0 never finished (an interrupt).
    for (const index of [3, 0, 2]) log.record(0, index, cases[index]!);
    log.record(1, 1, cases[1]!);
    assert.deepEqual(log.cases(0), [cases[0], cases[2], cases[3]]);
    assert.deepEqual(log.cases(1), [cases[1]]);
    assert.deepEqual(log.cases(2), []);
    assert.throws(() => log.record(0, 4, cases[0]!), /no case 4 in run 0/);
  });
});

describe('rendering', () => {
  function mixedComparison(): Comparison {
    const [base, head] = noisyPair(7, 120, 0.15);
    const [base2, head2] = noisyPair(8, 120, -0.15);
    const rename = (a: ResultsArtifact, suite: string): RunResult[] =>
      a.runs.map((r) => ({ ...r, suite }));
    const extra = Array.from({ length: 4 }, (_, i) => ({ id: `x${i}`, scores: { quality: 0.5 } }));
    return compareArtifacts(
      artifact([
        ...rename(base, 'better'),
        ...rename(base2, 'worse'),
        run('tiny', {}, extra),
        run('gone', {}, extra),
      ]),
      artifact(
        [
          ...rename(head, 'better'),
          ...rename(head2, 'worse'),
          run('tiny', {}, extra),
          run('new', {}, extra),
        ],
        'b'.repeat(40),
      ),
    );
  }

  it('gives byte-identical text, markdown and JSON for identical inputs', () => {
    const first = mixedComparison();
    const second = mixedComparison();
    assert.equal(renderComparisonJson(first), renderComparisonJson(second));
    assert.equal(renderComparisonMarkdown(first), renderComparisonMarkdown(second));
    assert.equal(
      renderComparisonText(first, { color: false }),
      renderComparisonText(second, { color: false }),
    );
    assert.equal(
      renderComparisonText(first, { color: true }),
      renderComparisonText(second, { color: true }),
    );
    assert.deepEqual(JSON.parse(renderComparisonJson(first)), first);
  });

  it('puts regressions first, with the counts on top and the row format of the issue', () => {
    const comparison = mixedComparison();
    const markdown = renderComparisonMarkdown(comparison);
    const lines = markdown.split('\n');
    assert.match(
      lines[0] ?? '',
      /^Compared with `evals\.yaml` at `aaaaaaa` on `main` \(2024-05-01\): \*\*\d+ regressions?\*\* · \d+ improvements? · /,
    );
    const worse = markdown.indexOf('#### worse');
    const better = markdown.indexOf('#### better');
    assert.ok(worse !== -1 && better !== -1 && worse < better, 'the regressed run comes first');
    assert.match(
      markdown,
      /- 🟢 quality: 0\.\d\d → 0\.\d\d \(\+0\.1\d, 95% CI \+0\.\d\d…\+0\.\d\d\) improved · p < 0\.001/,
    );
    assert.match(
      markdown,
      /- 🔴 quality: 0\.\d\d → 0\.\d\d \(-0\.1\d, 95% CI -0\.\d\d…-0\.\d\d\) \*\*regressed\*\*/,
    );
    // Newly failing cases are a table: the case, its grid point, its source and why it fails.
    assert.match(
      markdown,
      /\*\*Newly failing \(\d+\):\*\*\n\n\| case \| grid point \| source \| why it fails now \|\n\| :-- \| :-- \| :-- \| :-- \|\n\| `case-\d+` \| worse · model=small \| `testsets\/qa\.csv:\d+` \| — \|/,
    );
    // One compact table of every grid point × row on top, regressions first.
    assert.match(
      markdown,
      /\n\| grid point \| row \| base → head \| Δ \| change \|\n\| :-- \| :-- \| --: \| --: \| :-- \|\n\| worse · model=small \| [^\n]* \| 🔴 \*\*regressed\*\* \|\n/,
    );
    assert.match(
      markdown,
      /quality: 0\.50 → 0\.50 \(0\.00, 95% CI 0\.00…0\.00\) too few cases · \(4 paired\)/,
    );
    assert.match(markdown, /\*\*Runs only in BASE \(not run in HEAD\):\*\*\n\n- gone/);
    assert.match(markdown, /\*\*Runs only in HEAD \(new, nothing to compare with\):\*\*\n\n- new/);
    // Within the regressed run, the regressed rows come before anything else.
    const section = markdown.slice(worse, better);
    const firstRow = section.split('\n').find((line) => line.startsWith('- '));
    assert.match(firstRow ?? '', /regressed/);

    const listed = (md: string): number =>
      (/\*\*Newly failing[^\n]*\n\n((?:\|[^\n]*\n)+)/.exec(md)?.[1] ?? '').split('\n').length - 3;
    assert.equal(listed(markdown), 10);
    assert.match(markdown, /\| — \|\n\n… \d+ more\n/);
    const short = renderComparisonMarkdown(comparison, { maxListedCases: 2 });
    assert.equal(listed(short), 2);

    const text = renderComparisonText(comparison, { color: false });
    assert.match(
      text,
      /^BASE evals\.yaml · aaaaaaa \(main\) · 2024-05-01\nHEAD evals\.yaml · bbbbbbb \(main\) · 2024-05-01\n\d+ regressions? · /,
    );
    assert.ok(text.indexOf('worse') < text.indexOf('better'));
    assert.match(text, /newly failing \(\d+\)\n {4}case-\d+ +testsets\/qa\.csv:\d+/);
    assert.ok(!text.includes('\x1b['));
    assert.ok(renderComparisonText(comparison, { color: true }).includes('\x1b[31m'));
  });

  it('escapes user text in markdown and terminal output', () => {
    const cases = Array.from({ length: 10 }, (_, i) => ({
      id: i === 0 ? 'a`b``c' : `c${i}`,
      scores: { '<b>x</b>|@team': 0.9 },
    }));
    const headCases = cases.map((spec, i) => ({
      ...spec,
      scores: { '<b>x</b>|@team': i === 0 ? 0.1 : 0.9 },
    }));
    const comparison = compareArtifacts(
      artifact([run('<img src=x>', { 'a|b': '#1 @me' }, cases)]),
      artifact([run('<img src=x>', { 'a|b': '#1 @me' }, headCases)]),
    );
    const markdown = renderComparisonMarkdown(comparison);
    assert.doesNotMatch(markdown, /<img|<b>/);
    assert.match(markdown, /&lt;img src=x&gt;/);
    assert.match(markdown, /&lt;b&gt;x&lt;\/b&gt;\\\|@\u200dteam/);
    assert.match(markdown, /```a`b``c```/);

    const terminal = compareArtifacts(
      artifact([run('evil\x1b[2J\nsuite', {}, cases)]),
      artifact([run('evil\x1b[2J\nsuite', {}, headCases)]),
    );
    const text = renderComparisonText(terminal, { color: false });
    assert.ok(!text.includes('\x1b'));
    assert.match(text, /evil\\u001b\[2J suite/);
  });
});

describe('validateComparable', () => {
  const cases = Array.from({ length: 3 }, (_, i) => ({ id: `c${i}`, scores: { q: 0.5 } }));
  const good = artifact([run('qa', { model: 'small' }, cases)]);
  const names = { base: 'base.json', head: 'head.json' };

  function usageError(fn: () => unknown): UsageError {
    try {
      fn();
    } catch (error) {
      assert.ok(error instanceof UsageError, String(error));
      assert.equal(error.exitCode, 2);
      return error;
    }
    assert.fail('expected a UsageError');
  }

  it('accepts two comparable artifacts and returns them typed', () => {
    assert.deepEqual(validateArtifact(good), []);
    const { base, head } = validateComparable(good, structuredClone(good), names);
    assert.equal(base.runs.length, 1);
    assert.equal(head.runs[0]?.suite, 'qa');
  });

  it('refuses JSON that is not a results artifact', () => {
    const error = usageError(() => validateComparable({ version: 1, suites: [] }, good, names));
    assert.equal(error.issues.length, 1);
    assert.equal(error.issues[0]?.code, 'compare.not-results');
    assert.equal(error.issues[0]?.file, 'base.json');
    assert.match(
      error.message,
      /^base\.json {2}not an evalgate results artifact: expected the JSON object `evals run -o FILE` writes .*found an object with "version", "suites"$/,
    );

    const both = usageError(() => validateComparable([1, 2], 'text', names));
    assert.deepEqual(
      both.issues.map((issue) => [issue.file, issue.code]),
      [
        ['base.json', 'compare.not-results'],
        ['head.json', 'compare.not-results'],
      ],
    );
    assert.match(both.message, /found an array/);
    assert.match(both.message, /found a string/);
  });

  it('refuses a broken artifact with the schema problems', () => {
    const broken = { ...structuredClone(good), verdict: 'maybe' };
    const error = usageError(() => validateComparable(good, broken, names));
    assert.equal(error.issues[0]?.code, 'compare.invalid-results');
    assert.match(
      error.message,
      /head\.json {2}not a valid results artifact: \/verdict: must be one of "pass", "fail"/,
    );
  });

  it('refuses another schemaVersion with its own message', () => {
    const future = { ...structuredClone(good), schemaVersion: 2 };
    const error = usageError(() => validateComparable(future, good, names));
    assert.equal(error.issues[0]?.code, 'compare.schema-version');
    assert.match(
      error.message,
      /base\.json {2}results of schemaVersion 2: this evalgate reads schemaVersion 1/,
    );
  });

  it('refuses artifacts with no common cases, saying how runs and cases match', () => {
    const otherSuite = artifact([run('chat', {}, cases)]);
    const noRuns = usageError(() => validateComparable(good, otherSuite, names));
    assert.equal(noRuns.issues[0]?.code, 'compare.no-common-cases');
    assert.match(
      noRuns.message,
      /^no common cases between base\.json and head\.json: the runs match by suite and params, cases by id; no suite and grid point of head\.json \(chat\) is in base\.json \(qa · model=small\)$/,
    );

    const otherIds = artifact([
      run(
        'qa',
        { model: 'small' },
        cases.map((spec) => ({ ...spec, id: `new-${spec.id}` })),
      ),
    ]);
    const noIds = usageError(() => validateComparable(good, otherIds, names));
    assert.match(
      noIds.message,
      /^no common cases between base\.json and head\.json: the runs match by suite and params, cases by id; the matching run shares no case id$/,
    );
  });
});
