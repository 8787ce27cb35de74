/**
 * The artifact's case writer (src/report/case-json.ts) writes what `JSON.stringify` writes: for
 * every case the engine produces, and, through `stringifyCase`'s fallback, for values it does not
 * handle itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EvaluationError } from '../src/errors.ts';
import { caseJson, NOT_PLAIN } from '../src/report/case-json.ts';
import { stringifyCase } from '../src/report/artifact.ts';
import { runSuites } from '../src/run/engine.ts';
import type { SuiteSpec } from '../src/run/types.ts';
import type { CaseResult, EngineEvaluator, Threshold, Usage } from '../src/types.ts';
import { preparedCases, suiteSpec } from './helpers/cases.ts';
import { oneSuiteProject, preparedSuites } from './helpers/cli.ts';

type Row = Record<string, unknown>;

const usage: Usage = {
  calls: 1,
  cacheHits: 0,
  promptTokens: 12,
  completionTokens: 3,
  cost: 0.0015,
  latencyMs: 41.25,
};

/** Every kind of evaluation result: thresholds set or returned or none, metadata, errors, usage. */
const evaluators: EngineEvaluator[] = [
  {
    id: 'exact',
    threshold: { gte: 1 },
    evaluateTestCase: ({ testCase }) => ({ score: testCase.i === 1 ? 0 : 1 }),
  },
  {
    id: 'own "threshold"\n',
    evaluateTestCase: ({ testCase }) => ({
      score: 0.25 * ((testCase.i as number) % 4),
      threshold: { gt: 0.3, lte: 1 },
      metadata: { note: 'naïve ✓ 𝄞', nested: { list: [1, null, 'x'] } },
      usage,
    }),
  },
  { id: 'reported', evaluateTestCase: () => ({ score: 1 / 3 }) },
  {
    id: 'judge',
    evaluateTestCase: ({ testCase }) => {
      if ((testCase.i as number) % 3 === 0) {
        throw new EvaluationError('the judge answered "maybe"', {
          metadata: { raw: 'maybe' },
          usage,
        });
      }
      return { score: 2 }; // out of [0, 1]: kept, with an error
    },
  },
];

function suite(overrides: Partial<SuiteSpec>): SuiteSpec {
  const rows: Row[] = Array.from({ length: 8 }, (_, i) => ({
    i,
    text: `row ${i} "quoted"\t\u2028`,
  }));
  return suiteSpec(rows, {
    id: 'json',
    fn: ({ testCase }) => {
      const i = testCase.i as number;
      if (i === 5) throw new Error('no answer\nfor row 5');
      // Outputs of every JSON shape, and none at all.
      return [
        `answer ${i}`,
        { text: 'a', n: -0, big: 1e21, tiny: 5e-324 },
        42.5,
        null,
        undefined,
        [1, [2, {}]],
        true,
      ][i % 7];
    },
    evaluators,
    ...overrides,
  });
}

async function casesOf(spec: SuiteSpec): Promise<CaseResult[]> {
  let tick = 0;
  // A clock that makes durations of every kind: whole, thousandths, long, and not on the microsecond.
  const clock = [0, 0.001, 0.004, 3, 20_000.125, 0.0004, 7.3333333];
  const { runs } = await runSuites([spec], { now: () => clock[tick++ % clock.length] as number });
  return runs.flatMap((run) => run.cases);
}

describe('caseJson', () => {
  it('writes every case a run produces as JSON.stringify does, without falling back', async () => {
    const cases = [
      ...(await casesOf(suite({}))),
      ...(await casesOf(suite({ trials: 3 }))),
      // Cases from a source-less testset (given in code).
      ...(await casesOf(
        suite({ cases: preparedCases([{ i: 2 }]).map((c) => ({ ...c, source: null })) }),
      )),
    ];
    assert.ok(cases.some((c) => c.trials !== undefined && c.flaky !== undefined));
    assert.ok(cases.some((c) => c.evaluations.some((e) => e.usage !== undefined)));
    assert.ok(cases.some((c) => c.error !== null));
    const first = cases[0]!;
    // Optional members: present, or present but undefined (which JSON leaves out).
    const optional: CaseResult[] = [
      { ...first, index: 12 },
      { ...first, trials: undefined, flaky: undefined, index: undefined },
      { ...first, evaluations: first.evaluations.map((e) => ({ ...e, usage: undefined })) },
    ];
    for (const c of [...cases, ...optional]) {
      assert.equal(caseJson(c), JSON.stringify(c));
    }
  });

  it('follows a threshold that changes under the same evaluator id', async () => {
    const [first] = await casesOf(suite({}));
    assert.ok(first);
    const rethreshold = (
      c: CaseResult,
      threshold: CaseResult['evaluations'][number]['threshold'],
    ) => ({
      ...c,
      evaluations: c.evaluations.map((e) => ({ ...e, threshold })),
    });
    for (const c of [
      rethreshold(first, { lt: 0.5 }),
      rethreshold(first, null),
      rethreshold(first, { gte: 0.9 }),
      first,
    ]) {
      assert.equal(caseJson(c), JSON.stringify(c));
    }
  });

  it('writes the threshold of each case as it is then, when an evaluator changes one object', async () => {
    const [first] = await casesOf(suite({}));
    assert.ok(first);
    const shared: Threshold = { gte: 0.5 };
    const c: CaseResult = {
      ...first,
      evaluations: first.evaluations.map((e) => ({ ...e, threshold: shared })),
    };
    assert.equal(caseJson(c), JSON.stringify(c));
    shared.gte = 0.75;
    shared.lt = 1;
    assert.equal(caseJson(c), JSON.stringify(c));
  });

  it('gets a frozen threshold object per configured evaluator, whose JSON it may keep', async () => {
    const dir = oneSuiteProject('q\na\n', [
      'evaluators:',
      '  - { id: set, use: contains, with: { values: [a] }, threshold: { lte: 1, gt: 0.5 } }',
      '  - { id: default, use: is-equals, with: { expected: a } }',
    ]);
    const suites = await preparedSuites(dir);
    const thresholds = suites[0]?.evaluators.map((e) => e.threshold);
    assert.deepEqual(thresholds, [{ lte: 1, gt: 0.5 }, { gte: 1 }]);
    assert.ok(thresholds.every((t) => Object.isFrozen(t)));
  });

  it('writes durations and other numbers as JSON does', async () => {
    const [first] = await casesOf(suite({}));
    assert.ok(first);
    for (const durationMs of [
      0,
      -0,
      0.001,
      0.016,
      16.383,
      16.384,
      1e-7,
      123456.789,
      0.1 + 0.2,
      NaN,
      Infinity,
    ]) {
      const c: CaseResult = {
        ...first,
        durationMs,
        trialPassRate: 2 / 3,
        evaluations: first.evaluations.map((e) => ({
          ...e,
          durationMs,
          score: e.score === null ? null : -Infinity,
        })),
      };
      assert.equal(caseJson(c), JSON.stringify(c), `durationMs ${durationMs}`);
    }
  });

  it('leaves what it cannot write exactly to JSON.stringify, through stringifyCase', async () => {
    const [first] = await casesOf(suite({}));
    assert.ok(first);
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    const odd: CaseResult[] = [
      // toJSON is called with the member's name, which only JSON.stringify knows.
      { ...first, output: { toJSON: (key: string) => `key ${key}` } },
      { ...first, output: new Date(0) },
      // A member JSON leaves out.
      { ...first, output: undefined },
      { ...first, data: () => 1 },
      {
        ...first,
        evaluations: first.evaluations.map((e) => ({
          ...e,
          metadata: undefined as unknown as null,
        })),
      },
    ];
    for (const c of odd) {
      assert.throws(
        () => caseJson(c),
        (e) => e === NOT_PLAIN,
      );
      assert.equal(stringifyCase(c), JSON.stringify(c));
    }
    // A bigint and a cycle throw from inside; stringifyCase writes them as JSON.stringify's safe path.
    const withBigint = { ...first, output: { n: 10n } };
    assert.throws(() => caseJson(withBigint), TypeError);
    assert.deepEqual((JSON.parse(stringifyCase(withBigint)) as CaseResult).output, { n: '10' });
    const withCycle = { ...first, output: cycle };
    assert.throws(() => caseJson(withCycle), TypeError);
    assert.deepEqual((JSON.parse(stringifyCase(withCycle)) as CaseResult).output, {
      a: 1,
      self: '[Circular]',
    });
  });
});
