/**
 * The SDK findings of QA round 5 that gave false verdicts or lost data: a class field named
 * `threshold` (or `when`, `agreement`, `timeoutMs`) read as a setting (D1), a NaN or unknown
 * threshold bound (D3, D8), outputs JSON drops or empties (D2, D7) and BigInts in cases and
 * grids (D4). Each runs `runTestSuite` from src/, reads the artifact it wrote, and shows it with
 * `evals show` in-process.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { BaseTestEvaluator } from '../src/evaluators/base.ts';
import { BaseIsEquals } from '../src/evaluators/sdk/logic.ts';
import { canonicalJson } from '../src/shared/canonical-json.ts';
import type { Evaluation, Threshold } from '../src/types/index.ts';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

interface C {
  q: string;
  critical?: boolean;
}

interface RecordedCase {
  data: Record<string, unknown>;
  output?: unknown;
  passed: boolean;
  evaluations: {
    score: number | null;
    threshold: unknown;
    passed: boolean;
    error: string | null;
  }[];
}

/** Runs a suite into an artifact; returns its cases (every run) and `evals show`'s exit code. */
async function recorded(
  args: Omit<Parameters<typeof runTestSuite<C, unknown>>[0], 'id' | 'output'>,
): Promise<{ cases: RecordedCase[]; show: number; showText: string; verdict: string }> {
  const dir = scratch();
  const result = await runTestSuite<C, unknown>({
    id: 's',
    output: join(dir, 'r.json'),
    quiet: true,
    setExitCode: false,
    ...args,
  });
  const artifact = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
    runs: { cases: RecordedCase[] }[];
  };
  const show = await runInProcess(['show', 'r.json'], dir);
  return {
    cases: artifact.runs.flatMap((run) => run.cases),
    show: show.code,
    showText: show.stdout + show.stderr,
    verdict: result.verdict,
  };
}

describe('D1: only id, maxConcurrency and evaluateTestCase are read from an evaluator class', () => {
  it('a threshold field does not replace the threshold the evaluation returns', async () => {
    class Quality extends BaseTestEvaluator<C, unknown> {
      id = 'quality';
      threshold: Threshold = { gte: 0.5 }; // a lenient default kept on the class
      evaluateTestCase({ testCase }: { testCase: C }): Evaluation {
        return {
          score: 0.7,
          threshold: testCase.critical === true ? { gte: 0.9 } : this.threshold,
        };
      }
    }
    const run = await recorded({
      testCases: [{ q: 'a', critical: true }, { q: 'b' }],
      testCaseHash: ['q'],
      fn: ({ testCase }) => testCase.q,
      evaluators: [new Quality()],
    });
    assert.deepEqual(
      run.cases.map((c) => [c.evaluations[0]?.threshold, c.passed]),
      [
        [{ gte: 0.9 }, false],
        [{ gte: 0.5 }, true],
      ],
    );
    assert.equal(run.verdict, 'fail');
    assert.equal(run.show, 0, run.showText);
  });

  it('a number field named threshold (JavaScript) neither decides nor breaks the artifact', async () => {
    class Strict extends BaseTestEvaluator<C, unknown> {
      id = 'strict';
      threshold = 0.8;
      evaluateTestCase(): Evaluation {
        return { score: 0.5, threshold: { gte: this.threshold } };
      }
    }
    const run = await recorded({
      testCases: [{ q: 'a' }],
      testCaseHash: ['q'],
      fn: () => 'x',
      evaluators: [new Strict()],
    });
    assert.deepEqual(run.cases[0]?.evaluations[0]?.threshold, { gte: 0.8 });
    assert.equal(run.cases[0]?.passed, false);
    assert.equal(run.show, 0, run.showText);
  });

  for (const [field, value] of [
    ['when', 'always'],
    ['when', { tags: ['x'] }],
    ['agreement', 0.8],
    ['timeoutMs', 0],
  ] as const) {
    it(`a field ${field} = ${JSON.stringify(value)} is the class's own state`, async () => {
      class Scored extends BaseTestEvaluator<C, unknown> {
        id = 'scored';
        constructor() {
          super();
          Object.assign(this, { [field]: value });
        }
        evaluateTestCase(): Evaluation {
          return { score: 0.2, threshold: { gte: 0.5 } };
        }
      }
      const run = await recorded({
        testCases: [{ q: 'a' }],
        testCaseHash: ['q'],
        fn: () => 'x',
        evaluators: [new Scored()],
      });
      assert.deepEqual(
        run.cases.map((c) => c.evaluations.map((e) => [e.score, e.passed])),
        [[[0.2, false]]],
      );
      assert.equal(run.verdict, 'fail');
    });
  }

  it("an out-of-box class's threshold field still replaces its default", async () => {
    class Equal extends BaseIsEquals<C, unknown> {
      id = 'equal';
      threshold = { lt: 1 }; // passes only a mismatch: proves the field is applied
      testCaseMapper({ testCase }: { testCase: C }): string {
        return testCase.q;
      }
      outputMapper({ output }: { output: unknown }): string {
        return String(output);
      }
    }
    const run = await recorded({
      testCases: [{ q: 'a' }, { q: 'b' }],
      testCaseHash: ['q'],
      fn: ({ testCase }) => (testCase.q === 'a' ? 'a' : 'z'),
      evaluators: [new Equal()],
    });
    assert.deepEqual(
      run.cases.map((c) => [c.evaluations[0]?.threshold, c.passed]),
      [
        [{ lt: 1 }, false],
        [{ lt: 1 }, true],
      ],
    );
  });

  it('a plain object evaluator keeps its threshold and timeoutMs settings', async () => {
    const run = await recorded({
      testCases: [{ q: 'a' }],
      testCaseHash: ['q'],
      fn: () => 'x',
      evaluators: [
        { id: 'set', threshold: { gte: 0.9 }, evaluateTestCase: () => ({ score: 0.5 }) },
        {
          id: 'slow',
          timeoutMs: 20,
          evaluateTestCase: () =>
            new Promise<Evaluation>((resolve) => setTimeout(() => resolve({ score: 1 }), 300)),
        },
      ],
    });
    const [set, slow] = run.cases[0]?.evaluations ?? [];
    assert.deepEqual([set?.threshold, set?.passed], [{ gte: 0.9 }, false]);
    assert.match(slow?.error ?? '', /timed out after 20 ms/);
  });

  it('a plain object evaluator with a bad threshold is refused before the run', async () => {
    await assert.rejects(
      runTestSuite<C, string>({
        id: 's',
        testCases: [{ q: 'a' }],
        testCaseHash: ['q'],
        fn: () => 'x',
        evaluators: [
          { id: 'e', threshold: { gte: Number.NaN }, evaluateTestCase: () => ({ score: 1 }) },
        ],
        quiet: true,
      }),
      /evaluators\[0\]\.threshold\.gte must be a finite number, got NaN/,
    );
  });
});

describe('D3, D8: a returned threshold is finite numbers under lt, lte, gt, gte', () => {
  const bad: [string, unknown, RegExp][] = [
    ['NaN', { gte: Number.NaN }, /threshold\.gte must be a finite number, got NaN/],
    ['Infinity', { lte: Infinity }, /threshold\.lte must be a finite number, got Infinity/],
    ['-Infinity', { gt: -Infinity }, /threshold\.gt must be a finite number, got -Infinity/],
    [
      'ge',
      { ge: 0.9 },
      /threshold has an unknown bound "ge" \(the bounds are lt, lte, gt and gte\)/,
    ],
    ['min', { min: 0.9, gte: 0.1 }, /threshold has an unknown bound "min"/],
  ];
  for (const [name, threshold, message] of bad) {
    it(`${name}: the evaluation errors, fails, and the artifact reads`, async () => {
      const run = await recorded({
        testCases: [{ q: 'a' }],
        testCaseHash: ['q'],
        fn: () => 'x',
        evaluators: [
          { id: 'e', evaluateTestCase: () => ({ score: 0.95, threshold }) as Evaluation },
        ],
      });
      const evaluation = run.cases[0]?.evaluations[0];
      assert.match(evaluation?.error ?? '', message);
      assert.equal(evaluation?.passed, false);
      assert.equal(evaluation?.threshold, null);
      assert.equal(run.cases[0]?.passed, false);
      assert.equal(run.show, 0, run.showText);
    });
  }

  it('a null bound is refused, not taken as absent (it would pass every score)', async () => {
    const run = await recorded({
      testCases: [{ q: 'a' }],
      testCaseHash: ['q'],
      fn: () => 'x',
      evaluators: [
        {
          id: 'e',
          evaluateTestCase: () =>
            ({ score: 0.95, threshold: { gte: 0.9, lt: null } }) as unknown as Evaluation,
        },
      ],
    });
    const evaluation = run.cases[0]?.evaluations[0];
    assert.equal(evaluation?.error, 'threshold.lt is null: give a number, or leave the key out');
    assert.equal(evaluation?.passed, false);
    assert.equal(run.cases[0]?.passed, false);
  });
});

describe('D2, D7: every output and case value is recorded, in a readable form', () => {
  class Empty {}
  function answer(): string {
    return 'x';
  }
  const outputs: [string, unknown, unknown][] = [
    ['a named function', answer, '[function answer]'],
    ['an anonymous function', [() => 1][0], '[function]'],
    ['a Symbol', Symbol('stream'), '[Symbol(stream)]'],
    [
      'a Map',
      new Map([
        ['person', 'Ada'],
        ['place', 'London'],
      ]),
      { person: 'Ada', place: 'London' },
    ],
    ['a Map with other keys', new Map<unknown, unknown>([[1, 'one']]), [[1, 'one']]],
    ['a Set', new Set(['a', 'b']), ['a', 'b']],
    ['an Error', new TypeError('bad answer'), { name: 'TypeError', message: 'bad answer' }],
    ['a nested Map', { found: new Map([['k', 1]]) }, { found: { k: 1 } }],
    ['a class instance with no fields', new Empty(), '[object Empty]'],
    ['a RegExp', /a+/g, '/a+/g'],
    ['plain data', { a: [1, { b: {} }] }, { a: [1, { b: {} }] }],
  ];
  it('outputs JSON would drop or write as {}', async () => {
    const run = await recorded({
      testCases: outputs.map(([q]) => ({ q })),
      testCaseHash: ['q'],
      fn: ({ testCase }) => outputs.find(([q]) => q === testCase.q)?.[1],
    });
    assert.deepEqual(
      run.cases.map((c) => c.output),
      outputs.map(([, , written]) => written),
    );
    assert.equal(run.show, 0, run.showText);
    assert.match(run.showText, /\[function answer\]/);
    assert.match(run.showText, /"person":"Ada"|person/);
  });

  it('case data holding a Map, a Set or an Error', async () => {
    const run = await recorded({
      testCases: [
        { q: 'a', tags: new Set(['x']), seen: new Map([['k', 'v']]) } as C,
        { q: 'b', problem: new Error('no') } as C,
      ],
      testCaseHash: ['q'],
      fn: () => 'x',
    });
    assert.deepEqual(
      run.cases.map((c) => c.data),
      [
        { q: 'a', tags: ['x'], seen: { k: 'v' } },
        { q: 'b', problem: { name: 'Error', message: 'no' } },
      ],
    );
    assert.equal(run.show, 0, run.showText);
  });

  it('outputs in every trial', async () => {
    const run = await recorded({
      testCases: [{ q: 'a' }],
      testCaseHash: ['q'],
      fn: () => new Map([['k', 1]]),
      trials: 2,
    });
    const trials = (run.cases[0] as unknown as { trials: { output: unknown }[] }).trials;
    assert.deepEqual(
      trials.map((t) => t.output),
      [{ k: 1 }, { k: 1 }],
    );
    assert.equal(run.show, 0, run.showText);
  });
});

describe('D4: BigInts in test cases and grids', () => {
  it('hash apart from numbers and strings', () => {
    const texts = [{ n: 1n }, { n: 1 }, { n: '1' }, [1n], 1n].map((v) => canonicalJson(v));
    assert.equal(new Set(texts).size, texts.length, texts.join(' '));
    assert.notEqual(canonicalJson({ m: new Map([['a', 1]]) }), canonicalJson({ m: new Map() }));
  });

  it('run, recorded as digits, in cases and grid points', async () => {
    const run = await recorded({
      testCases: [{ q: 'a', amount: 1n } as C, { q: 'b', amount: 1 } as C],
      testCaseHash: (testCase) => testCase.q,
      fn: ({ params }) => params.seed,
      gridSearchParams: { seed: [42n, 7n] },
    });
    assert.deepEqual(
      run.cases.map((c) => [c.data.amount, c.output]),
      [
        ['1', '42'],
        [1, '42'],
        ['1', '7'],
        [1, '7'],
      ],
    );
    assert.match(run.showText, /seed=42/);
    assert.equal(run.show, 0, run.showText);
  });

  it('cases that differ only in a BigInt are two cases', async () => {
    const { runs } = await runTestSuite<{ n: unknown }, string>({
      id: 's',
      testCases: [{ n: 1n }, { n: 1 }, { n: '1' }],
      testCaseHash: ['n'],
      fn: () => 'x',
      quiet: true,
      setExitCode: false,
    });
    assert.equal(runs[0]?.cases.length, 3);
  });
});
