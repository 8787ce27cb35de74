import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serializeArtifact } from '../src/artifact/artifact.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import { runSuites } from '../src/run/engine.ts';
import { SummaryAccumulator, summarizeRun } from '../src/run/summary.ts';
import { aggregateTrials } from '../src/run/trials.ts';
import type { SuiteSpec } from '../src/run/types.ts';
import type {
  CaseResult,
  EvaluationResult,
  ResultsArtifact,
  RunResult,
  Usage,
} from '../src/types/index.ts';
import { artifactOf } from './report-fixture-large.ts';
import { suiteSpec } from './helpers/cases.ts';

function usage(calls: number, cost: number | null = calls / 100): Usage {
  return {
    calls,
    cacheHits: 1,
    promptTokens: 10 * calls,
    completionTokens: 2 * calls,
    cost,
    latencyMs: 5 * calls,
  };
}

function evaluation(evaluator: string, spent?: Usage): EvaluationResult {
  return {
    evaluator,
    score: 1,
    threshold: null,
    passed: null,
    metadata: null,
    error: null,
    durationMs: 1,
    ...(spent ? { usage: spent } : {}),
  };
}

function testCase(id: string, evaluations: EvaluationResult[]): CaseResult {
  return {
    id,
    contentId: id,
    source: null,
    data: {},
    output: 'out',
    error: null,
    durationMs: 1,
    passed: true,
    evaluations,
  };
}

describe('usage in summaries', () => {
  it('sums per evaluator and per run, and leaves it out where nothing was called', () => {
    const cases = [
      testCase('a', [evaluation('judge', usage(1)), evaluation('exact')]),
      testCase('b', [evaluation('judge', usage(2)), evaluation('exact'), evaluation('other')]),
      testCase('c', [evaluation('judge'), evaluation('rag', usage(4))]),
    ];
    const summary = summarizeRun(cases, ['judge', 'exact', 'rag']);
    assert.deepEqual(summary.evaluators.judge?.usage, {
      calls: 3,
      cacheHits: 2,
      promptTokens: 30,
      completionTokens: 6,
      cost: 0.03,
      latencyMs: 15,
    });
    assert.equal('usage' in summary.evaluators.exact!, false);
    assert.deepEqual(summary.usage, {
      calls: 7,
      cacheHits: 3,
      promptTokens: 70,
      completionTokens: 14,
      cost: 0.07,
      latencyMs: 35,
    });
    // `other` is not one of the run's evaluators, so its spending is not the run's either.
    assert.equal(summarizeRun([cases[1]!], ['exact']).usage, undefined);
    assert.equal('usage' in summarizeRun([cases[1]!], ['exact']), false);
  });

  it('a null cost (an unpriced model) makes every sum above it null', () => {
    const summary = summarizeRun(
      [
        testCase('a', [evaluation('judge', usage(1, null))]),
        testCase('b', [evaluation('judge', usage(1))]),
      ],
      ['judge'],
    );
    assert.equal(summary.evaluators.judge?.usage?.cost, null);
    assert.equal(summary.usage?.cost, null);
  });

  it('is the same fold case by case, in any order', () => {
    const cases = [1, 2, 3, 4].map((n) => testCase(`c${n}`, [evaluation('judge', usage(n))]));
    const accumulator = new SummaryAccumulator(['judge']);
    for (const result of [...cases].reverse()) accumulator.add(result);
    assert.deepEqual(accumulator.summary(), summarizeRun(cases, ['judge']));
    assert.equal(accumulator.cases, 4);
  });

  it('sums the trials of a case: usage is spending, not a mean', () => {
    const prepared = { id: 'x', contentId: 'x', source: null, data: {}, meta: {}, index: 0 };
    const trial = (spent?: Usage) => ({
      output: 'o',
      error: null,
      durationMs: 1,
      passed: true,
      evaluations: [evaluation('judge', spent), evaluation('exact')],
    });
    const result = aggregateTrials(prepared, [trial(usage(1)), trial(), trial(usage(3))]);
    const [judge, exact] = result.evaluations;
    assert.deepEqual(judge?.usage, {
      calls: 4,
      cacheHits: 2,
      promptTokens: 40,
      completionTokens: 8,
      cost: 0.04,
      latencyMs: 20,
    });
    assert.equal(exact !== undefined && 'usage' in exact, false);
    // The target's usage is the trials' sum too; trials that spent nothing add nothing.
    const spentByTarget = aggregateTrials(prepared, [
      { ...trial(), usage: usage(1) },
      trial(),
      { ...trial(), usage: usage(3) },
    ]);
    assert.deepEqual(spentByTarget.usage, judge?.usage);
    assert.equal('usage' in aggregateTrials(prepared, [trial(), trial()]), false);
  });

  it('flows from evaluators through trials to the run and the artifact, which validates', async () => {
    const spec: SuiteSpec = suiteSpec([], {
      id: 'judged',
      cases: [0, 1, 2].map((i) => ({
        id: `c${i}`,
        contentId: `c${i}`,
        source: null,
        data: { i },
        meta: {},
        index: i,
      })),
      evaluators: [
        { id: 'judge', evaluateTestCase: () => ({ score: 1, usage: usage(1, 0.5) }) },
        { id: 'exact', evaluateTestCase: () => ({ score: 1 }) },
      ],
      grid: [{ model: 'a' }, { model: 'b' }],
      concurrency: 2,
      timeoutMs: null,
      trials: 2,
      pass: 'all',
      gate: {},
      testset: { path: null, ref: null, commit: null, revision: 'rev' },
    });
    const { runs } = await runSuites([spec]);
    const first = runs[0]!;
    assert.deepEqual(first.cases[0]?.evaluations[0]?.usage, {
      calls: 2,
      cacheHits: 2,
      promptTokens: 20,
      completionTokens: 4,
      cost: 1,
      latencyMs: 10,
    });
    assert.equal(first.summary.evaluators.judge?.usage?.calls, 6);
    assert.equal(first.summary.usage?.cost, 3);

    const artifact = artifactOf(runs);
    assert.equal(artifact.usage?.calls, 12);
    assert.equal(artifact.usage?.cost, 6);
    assert.deepEqual(validateArtifact(JSON.parse(serializeArtifact(artifact))), []);
  });

  it('the artifact has no usage when no evaluator called a model', () => {
    const run = runOf(summarizeRun([testCase('a', [evaluation('exact')])], ['exact']));
    const artifact = artifactOf([run]);
    assert.equal('usage' in artifact, false);
    assert.deepEqual(validateArtifact(JSON.parse(serializeArtifact(artifact))), []);
  });

  it('the schema checks usage wherever it may appear', () => {
    const cases = [testCase('a', [evaluation('judge', usage(1))])];
    const artifact = artifactOf([runOf(summarizeRun(cases, ['judge']), cases)]);
    const text = serializeArtifact(artifact);
    assert.deepEqual(validateArtifact(JSON.parse(text)), []);
    // Each place usage may appear, found in a parsed copy of the artifact.
    const places: ((artifact: ResultsArtifact) => Usage | undefined)[] = [
      (a) => a.usage,
      (a) => a.runs[0]?.summary.usage,
      (a) => a.runs[0]?.summary.evaluators.judge?.usage,
      (a) => a.runs[0]?.cases[0]?.evaluations[0]?.usage,
    ];
    for (const place of places) {
      const extra = JSON.parse(text) as ResultsArtifact;
      Object.assign(place(extra) ?? assert.fail('no usage there'), { dollars: 1 });
      assert.match(validateArtifact(extra).join('\n'), /unexpected property "dollars"/);
      const missing = JSON.parse(text) as ResultsArtifact;
      const spent: Partial<Usage> = place(missing) ?? assert.fail('no usage there');
      delete spent.calls;
      assert.notDeepEqual(validateArtifact(missing), []);
    }
  });
});

function runOf(summary: RunResult['summary'], cases: CaseResult[] = []): RunResult {
  return {
    suite: 's',
    params: {},
    testset: { path: null, ref: null, commit: null, revision: 'rev', cases: cases.length },
    verdict: 'pass',
    gate: { conditions: [] },
    summary,
    cases,
  };
}
