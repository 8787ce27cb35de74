/**
 * Verdicts the engine must not get wrong (issue 22): a synchronous call over its time limit,
 * durations that are the call's own, results that cannot be written as JSON, a run of zero
 * cases, trials whose per-evaluator fields agree with the case, and calls that never settle.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { stringifyCase } from '../src/artifact/artifact.ts';
import { RunControl } from '../src/run/control.ts';
import { NEVER_SETTLED, runSuites } from '../src/run/engine.ts';
import type { CaseResult, EngineEvaluator } from '../src/types/index.ts';
import { suiteSpec } from './helpers/cases.ts';

const encode = (value: unknown): string => stringifyCase(value as CaseResult);

/** A clock that only moves when a test says so: "busy" synchronous work advances it. */
function fakeClock(): { now: () => number; spend: (ms: number) => void } {
  let t = 0;
  return { now: () => t, spend: (ms) => (t += ms) };
}

describe('a synchronous call over its time limit', () => {
  it('is timed out, and its duration is its own, not the time others blocked it', async () => {
    const clock = fakeClock();
    const suite = suiteSpec([{ ms: 3000 }, { ms: 3000 }, { ms: 100 }], {
      concurrency: 3,
      timeoutMs: 500,
      fn: ({ testCase }) => {
        clock.spend((testCase as { ms: number }).ms);
        return 'done';
      },
    });
    const { runs } = await runSuites([suite], { now: clock.now });
    const cases = runs[0]!.cases;
    assert.deepEqual(
      cases.map((c) => [c.passed, c.durationMs]),
      [
        [false, 3000],
        [false, 3000],
        [true, 100],
      ],
      'each call measures itself: 3000 ms each, not 6000 for the second',
    );
    assert.match(cases[0]!.error ?? '', /timed out after 500 ms/);
    assert.match(cases[0]!.error ?? '', /synchronous code cannot be stopped in-process/);
  });

  it('is timed out when the work comes after an await and settles before the timer fires', async () => {
    const clock = fakeClock();
    const suite = suiteSpec([{ a: 1 }], {
      timeoutMs: 500,
      fn: async () => {
        await Promise.resolve();
        clock.spend(800);
        return 'done';
      },
    });
    const { runs } = await runSuites([suite], { now: clock.now });
    const result = runs[0]!.cases[0]!;
    assert.equal(result.passed, false);
    assert.equal(result.error, 'timed out after 500 ms (it settled after 800 ms)');
    assert.equal(result.durationMs, 800);
  });

  it("is not timed out when another case's synchronous work held up its settling", async () => {
    // `fast` answers at once (its promise is settled when the call returns), then `heavy`, started
    // next, blocks for 1500 ms: `fast`'s settling is seen only after that, but it was on time.
    const clock = fakeClock();
    const suite = suiteSpec([{ q: 'fast' }, { q: 'heavy' }, { q: 'next' }], {
      concurrency: 3,
      timeoutMs: 1000,
      // A promise, settled when the call returns.
      fn: ({ testCase }) => {
        const { q } = testCase as { q: string };
        if (q === 'heavy') clock.spend(1500);
        return Promise.resolve(q);
      },
    });
    const { runs } = await runSuites([suite], { now: clock.now });
    const [fast, heavy, next] = runs[0]!.cases;
    assert.equal(fast!.error, null, 'fast was on time');
    assert.equal(fast!.passed, true);
    assert.equal(next!.error, null, 'next was on time');
    assert.match(heavy!.error ?? '', /timed out after 1000 ms \(it ran 1500 ms/);
  });

  it('holds for evaluators too', async () => {
    const clock = fakeClock();
    const slow: EngineEvaluator = {
      id: 'slow',
      timeoutMs: 50,
      evaluateTestCase: () => {
        clock.spend(80);
        return { score: 1 };
      },
    };
    const { runs } = await runSuites([suiteSpec([{ a: 1 }], { evaluators: [slow] })], {
      now: clock.now,
    });
    const evaluation = runs[0]!.cases[0]!.evaluations[0]!;
    assert.equal(evaluation.passed, false);
    assert.equal(evaluation.durationMs, 80);
    assert.match(evaluation.error ?? '', /timed out after 50 ms/);
    assert.equal(runs[0]!.cases[0]!.passed, false);
  });
});

describe('a result that cannot be written as JSON', () => {
  const throwing = (): never => {
    throw new Error('boom');
  };
  const outputs: [string, unknown][] = [
    ['a throwing toJSON', { toJSON: throwing }],
    ['a throwing getter', Object.defineProperty({}, 'x', { get: throwing, enumerable: true })],
  ];
  for (const [what, output] of outputs) {
    it(`errors only its case: an output with ${what}`, async () => {
      const suite = suiteSpec([{ bad: true }, { bad: false }], {
        fn: ({ testCase }) => ((testCase as { bad: boolean }).bad ? output : 'fine'),
      });
      const { runs } = await runSuites([suite], { encode });
      const [bad, good] = runs[0]!.cases;
      assert.equal(bad?.passed, false);
      assert.equal(bad?.output, null);
      assert.match(bad?.error ?? '', /cannot be written as JSON \(output: boom\)/);
      assert.equal(good?.passed, true, 'the run goes on');
      assert.doesNotThrow(() => encode(bad));
    });
  }

  it('errors its case: evaluator metadata that throws, and a score getter that throws', async () => {
    const evaluators: EngineEvaluator[] = [
      { id: 'meta', evaluateTestCase: () => ({ score: 1, metadata: { toJSON: throwing } }) },
      {
        id: 'score',
        evaluateTestCase: () => Object.defineProperty({}, 'score', { get: throwing }) as never,
      },
    ];
    const { runs } = await runSuites([suiteSpec([{ a: 1 }], { evaluators })], { encode });
    const result = runs[0]!.cases[0]!;
    assert.equal(result.passed, false);
    assert.match(result.error ?? '', /evaluator "meta": boom/);
    const score = result.evaluations.find((e) => e.evaluator === 'score');
    assert.equal(score?.error, 'reading what it returned threw: boom');
    assert.doesNotThrow(() => encode(result));
  });

  it('errors its case: a thrown error whose message getter throws', async () => {
    const error = new Error('x');
    Object.defineProperty(error, 'message', { get: throwing });
    const suite = suiteSpec([{ a: 1 }], {
      fn: () => {
        throw error;
      },
    });
    const { runs } = await runSuites([suite], { encode });
    assert.equal(runs[0]!.cases[0]!.error, 'it threw a value whose message cannot be read: boom');
  });
});

describe('a run of zero cases', () => {
  it('fails through runTestSuite with testCases: [], unless allowEmpty', async () => {
    const empty = {
      id: 'empty',
      testCases: [] as { q: string }[],
      testCaseHash: ['q'] as 'q'[],
      fn: () => 'x',
      quiet: true,
      setExitCode: false,
    };
    const failed = await runTestSuite(empty);
    assert.equal(failed.verdict, 'fail');
    assert.ok(failed.runs[0]!.gate.conditions.some((c) => c.name === 'cases' && !c.passed));
    const allowed = await runTestSuite({ ...empty, allowEmpty: true });
    assert.equal(allowed.verdict, 'pass');
  });
});

describe('trials', () => {
  it('a case that passes most trials lists the evaluator that passed them as passed', async () => {
    const scores = [1, 1, 0];
    let call = 0;
    const exact: EngineEvaluator = {
      id: 'exact',
      threshold: { gte: 1 },
      evaluateTestCase: () => ({ score: scores[call++ % 3]! }),
    };
    const { runs } = await runSuites([
      suiteSpec([{ a: 1 }], { trials: 3, concurrency: 1, evaluators: [exact] }),
    ]);
    const result = runs[0]!.cases[0]!;
    assert.equal(result.passed, true, '2 of 3 trials passed');
    const evaluation = result.evaluations[0]!;
    assert.equal(evaluation.passed, true, 'its evaluation agrees with the case under pass: all');
    // The mean to 15 significant digits, as every derived mean (shared/float-noise.ts).
    assert.equal(evaluation.score, 0.666666666666667, 'the score is still the mean');
    assert.deepEqual(evaluation.metadata, { trials: 3, scored: 3, passedTrials: 2 });
  });
});

describe('a call that never settles', () => {
  it('is errored as never settled when the edge says nothing else can happen', async () => {
    const control = new RunControl();
    const suite = suiteSpec([{ hang: true }, { hang: false }], {
      fn: ({ testCase }) =>
        (testCase as { hang: boolean }).hang ? new Promise<never>(() => {}) : 'done',
    });
    const running = runSuites([suite], { control });
    // What the CLI does on `beforeExit`; here the test is the only one who knows.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(control.neverSettled(), 1);
    const { runs } = await running;
    assert.deepEqual(
      runs[0]!.cases.map((c) => [c.passed, c.error]),
      [
        [false, NEVER_SETTLED],
        [true, null],
      ],
    );
    assert.equal(control.neverSettled(), 0, 'detached once the run is over');
  });
});
