/**
 * `trials: N` in the engine: each case runs N times; the case's result folds the trials (mean
 * scores, majority verdict, flaky marker) and keeps every one of them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSuites } from '../src/run/engine.ts';
import type { EngineListener, SuiteSpec } from '../src/run/types.ts';
import type { CaseResult, RunResult, TestFn } from '../src/types/index.ts';
import { callCounter, suite, threshold } from './helpers/trials-suite.ts';

/** A function that throws on the 2nd call of each case and echoes the call number otherwise. */
function failsSecondCall(): TestFn {
  const count = callCounter();
  return ({ testCase }) => {
    const n = count(testCase);
    if (n === 2) throw new Error(`call ${n} failed`);
    return { call: n };
  };
}

async function onlyRun(spec: SuiteSpec): Promise<RunResult> {
  const { runs } = await runSuites([spec], { now: () => 0 });
  assert.equal(runs.length, 1);
  return runs[0]!;
}

function onlyCase(run: RunResult): CaseResult {
  assert.equal(run.cases.length, 1);
  return run.cases[0]!;
}

describe('trials in the engine', () => {
  it('a case failing its 2nd of 3 trials is flaky, passes 2/3 and keeps every trial', async () => {
    const run = await onlyRun(suite({ fn: failsSecondCall() }));
    const result = onlyCase(run);
    assert.equal(result.passed, true);
    assert.equal(result.flaky, true);
    assert.equal(result.trialPassRate, 2 / 3);
    assert.deepEqual(
      result.trials?.map((t) => [t.passed, t.error, t.output]),
      [
        [true, null, { call: 1 }],
        [false, 'call 2 failed', null],
        [true, null, { call: 3 }],
      ],
    );
    // A passed case shows a passing trial, never an error.
    assert.equal(result.error, null);
    assert.deepEqual(result.output, { call: 1 });
    assert.deepEqual(run.summary, {
      cases: 1,
      passed: 1,
      failed: 0,
      errored: 0,
      passRate: 1,
      flaky: 1,
      evaluators: {},
    });
  });

  it('a case failing every trial is failed and not flaky', async () => {
    const run = await onlyRun(
      suite({
        fn: () => 'wrong',
        evaluators: [
          { id: 'exact', threshold: threshold(1), evaluateTestCase: () => ({ score: 0 }) },
        ],
      }),
    );
    const result = onlyCase(run);
    assert.equal(result.passed, false);
    assert.equal(result.flaky, false);
    assert.equal(result.trialPassRate, 0);
    assert.equal(result.trials?.length, 3);
    assert.equal(run.summary.failed, 1);
    assert.equal(run.summary.flaky, 0);
    assert.equal(run.verdict, 'fail');
  });

  it('a case errored in the majority of its trials is errored, with the first failing error', async () => {
    const count = callCounter();
    const run = await onlyRun(
      suite({
        fn: ({ testCase }) => {
          const n = count(testCase);
          if (n > 1) throw new Error(`call ${n} failed`);
          return 'ok';
        },
      }),
    );
    const result = onlyCase(run);
    assert.equal(result.passed, false);
    assert.equal(result.flaky, true);
    assert.equal(result.error, 'call 2 failed');
    assert.equal(result.output, null);
    assert.deepEqual([run.summary.passed, run.summary.failed, run.summary.errored], [0, 0, 1]);
  });

  it('half of the trials is not a majority', async () => {
    const count = callCounter();
    const run = await onlyRun(
      suite({
        trials: 4,
        fn: ({ testCase }) => count(testCase),
        evaluators: [
          {
            id: 'odd',
            threshold: threshold(1),
            evaluateTestCase: ({ output }) => ({ score: (output as number) % 2 }),
          },
        ],
      }),
    );
    const result = onlyCase(run);
    assert.equal(result.trialPassRate, 0.5);
    assert.equal(result.flaky, true);
    assert.equal(result.passed, false);
  });

  it('averages scores per case and summarises the per-case means', async () => {
    const count = callCounter();
    // Case 0 scores 1, 0.5, 0 over its trials; case 1 scores 1, 1, 1.
    const scores: Record<number, number[]> = { 0: [1, 0.5, 0], 1: [1, 1, 1] };
    const run = await onlyRun(
      suite({
        rows: [{ i: 0 }, { i: 1 }],
        fn: ({ testCase }) => ({ i: testCase.i, call: count(testCase) }),
        evaluators: [
          {
            id: 'graded',
            threshold: threshold(0.4),
            evaluateTestCase: ({ output }) => {
              const { i, call } = output as { i: number; call: number };
              return { score: scores[i]![call - 1]!, metadata: { call } };
            },
          },
          {
            id: 'sometimes-errors',
            evaluateTestCase: ({ output }) => {
              const { call } = output as { call: number };
              if (call === 3) throw new Error('judge timed out');
              return { score: call === 1 ? 0.2 : 0.4 };
            },
          },
          {
            id: 'always-errors',
            threshold: threshold(0.5),
            evaluateTestCase: ({ output }) => {
              throw new Error(`judge down (call ${(output as { call: number }).call})`);
            },
          },
        ],
        pass: 'any',
      }),
    );
    const [first, second] = run.cases;
    assert.deepEqual(first?.evaluations, [
      {
        evaluator: 'graded',
        score: 0.5,
        threshold: { gte: 0.4 },
        passed: true,
        metadata: { trials: 3, scored: 3, passedTrials: 2 },
        error: null,
        durationMs: 0,
      },
      {
        evaluator: 'sometimes-errors',
        // (0.2 + 0.4) / 2, a mean without its float noise (shared/float-noise.ts)
        score: 0.3,
        threshold: null,
        passed: null,
        metadata: { trials: 3, scored: 2, passedTrials: 0, erroredTrials: 1 },
        error: null,
        durationMs: 0,
      },
      {
        evaluator: 'always-errors',
        score: null,
        threshold: { gte: 0.5 },
        passed: false,
        metadata: { trials: 3, scored: 0, passedTrials: 0 },
        error: 'judge down (call 1)',
        durationMs: 0,
      },
    ]);
    // The trials keep their own evaluations, metadata included.
    assert.deepEqual(
      first?.trials?.map((t) => t.evaluations[0]?.score),
      [1, 0.5, 0],
    );
    assert.deepEqual(first?.trials?.[1]?.evaluations[0]?.metadata, { call: 2 });
    assert.equal(second?.evaluations[0]?.score, 1);

    const graded = run.summary.evaluators.graded!;
    assert.equal(graded.count, 2, 'one evaluation per case, not per trial');
    assert.equal(graded.mean, (0.5 + 1) / 2);
    assert.equal(graded.passRate, 1);
    assert.equal(run.summary.evaluators['sometimes-errors']!.errors, 0);
    // Its errored trials are bounded by the gate: (0.2 + 0.4) / 2 moves to 0.2 or 0.53 at 0 or 1.
    assert.deepEqual(run.summary.evaluators['sometimes-errors']!.erroredTrials, {
      trials: 2,
      down: -0.2,
      up: 0.466666666666667,
    });
    assert.equal(run.summary.evaluators['always-errors']!.errors, 2);
  });

  it('a failing pass condition is folded like an evaluator, so the case still says why', async () => {
    const run = await onlyRun(
      suite({
        pass: () => {
          throw new Error('no verdict');
        },
      }),
    );
    const result = onlyCase(run);
    assert.equal(result.passed, false);
    assert.deepEqual(
      result.evaluations.map((e) => [e.evaluator, e.error, e.passed]),
      [['pass', 'no verdict', false]],
    );
  });

  it('with one trial the case and summary are exactly as without trials', async () => {
    for (const trials of [1, undefined]) {
      const run = await onlyRun(
        suite({
          trials,
          evaluators: [{ id: 'one', evaluateTestCase: () => ({ score: 1 }) }],
        }),
      );
      const result = onlyCase(run);
      assert.deepEqual(Object.keys(result), [
        'id',
        'contentId',
        'source',
        'data',
        'output',
        'error',
        'durationMs',
        'passed',
        'evaluations',
      ]);
      assert.equal(result.evaluations[0]?.metadata, null);
      assert.equal('flaky' in run.summary, false);
    }
  });

  it('each trial holds a suite slot: the limit stays exact, and trials of a case overlap', async () => {
    for (const [concurrency, cases, globalConcurrency, peak] of [
      [4, 10, undefined, 4],
      [3, 1, undefined, 3],
      [8, 10, 2, 2],
    ] as const) {
      let current = 0;
      let highest = 0;
      const spec = suite({
        rows: Array.from({ length: cases }, (_, i) => ({ i })),
        concurrency,
        fn: async ({ testCase }) => {
          current++;
          highest = Math.max(highest, current);
          await new Promise((resolve) => setImmediate(resolve));
          return testCase;
        },
        evaluators: [
          {
            id: 'done',
            evaluateTestCase: async () => {
              await new Promise((resolve) => setImmediate(resolve));
              current--;
              return { score: 1 };
            },
          },
        ],
      });
      const { runs } = await runSuites(
        [spec],
        globalConcurrency === undefined ? {} : { globalConcurrency },
      );
      assert.equal(highest, peak, `concurrency ${concurrency}, global ${globalConcurrency}`);
      assert.equal(current, 0);
      assert.equal(runs[0]?.cases.length, cases);
      assert.ok(runs[0]?.cases.every((c) => c.trials?.length === 3));
    }
  });

  it('the listener counts a case once, when its last trial finished', async () => {
    const events: string[] = [];
    const listener: EngineListener = {
      onStart: ({ total }) => events.push(`start ${total}`),
      onCaseDone: ({ params, result }) =>
        events.push(`${String(params.k)}:${result.id} ${result.trials?.length}`),
    };
    await runSuites([suite({ rows: [{ i: 0 }, { i: 1 }], grid: [{ k: 'a' }, { k: 'b' }] })], {
      listener,
    });
    assert.deepEqual(events, ['start 4', 'a:c0 3', 'a:c1 3', 'b:c0 3', 'b:c1 3']);
  });

  it('an interrupt drops a case whose trials did not all finish', async () => {
    const controller = new AbortController();
    const count = callCounter();
    const spec = suite({
      rows: [{ i: 0 }, { i: 1 }],
      concurrency: 6,
      fn: ({ testCase }) => {
        // Case 1's last trial never settles; the test interrupts once the rest are done.
        if (testCase.i === 1 && count(testCase) === 3) return new Promise<never>(() => {});
        return testCase;
      },
    });
    let finished = 0;
    const { runs, interrupted } = await runSuites([spec], {
      signal: controller.signal,
      listener: {
        onCaseDone: () => {
          if (++finished === 1) setImmediate(() => controller.abort());
        },
      },
    });
    assert.equal(interrupted, true);
    assert.deepEqual(
      runs[0]?.cases.map((c) => c.id),
      ['c0'],
    );
    assert.equal(runs[0]?.verdict, 'fail');
  });

  it('rejects a trials count that is not a positive integer', async () => {
    for (const trials of [0, 1.5, Number.NaN]) {
      await assert.rejects(runSuites([suite({ trials })]), {
        name: 'RangeError',
        message: new RegExp(`suite "trials": trials must be a positive integer`),
      });
    }
  });
});
