import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSuites } from '../src/run/engine.ts';
import type { SuiteSpec } from '../src/run/types.ts';
import type { EngineEvaluator } from '../src/types/index.ts';
import { suiteSpec, type SuiteOverrides } from './helpers/cases.ts';

/** Counts how many units of work are in flight at once, and the most there ever were. */
class Gauge {
  current = 0;
  peak = 0;
  enter(): void {
    this.current++;
    this.peak = Math.max(this.peak, this.current);
  }
  leave(): void {
    this.current--;
  }
}

/** Yields to the event loop so that every other ready case gets to start meanwhile. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A suite whose in-flight cases are counted by `gauge` from the start of the function to the
 * end of the (async) evaluator: the whole span a case holds a concurrency slot.
 */
function countedSuite(
  id: string,
  cases: number,
  gauge: Gauge,
  overrides: SuiteOverrides = {},
): SuiteSpec {
  return suiteSpec([], {
    id,
    cases: Array.from({ length: cases }, (_, i) => ({
      id: `${id}-${i}`,
      contentId: `${id}-${i}`,
      source: null,
      data: { i },
      meta: {},
      index: i,
    })),
    fn: async ({ testCase }: { testCase: unknown }) => {
      gauge.enter();
      await turn();
      return testCase;
    },
    evaluators: [
      {
        id: 'done',
        evaluateTestCase: async () => {
          await turn();
          gauge.leave();
          return { score: 1 };
        },
      },
    ],
    grid: [{}],
    concurrency: 1,
    timeoutMs: 10_000,
    pass: 'all',
    gate: {},
    testset: { path: null, ref: null, commit: null, revision: 'rev' },
    ...overrides,
  });
}

void test('suite concurrency bounds cases in flight, function and evaluators included', async () => {
  const gauge = new Gauge();
  const { runs } = await runSuites([countedSuite('s', 50, gauge, { concurrency: 5 })]);
  assert.equal(gauge.peak, 5);
  assert.equal(gauge.current, 0);
  assert.equal(runs[0]!.summary.passed, 50);
});

void test('suite concurrency is shared by all grid points of the suite', async () => {
  const gauge = new Gauge();
  const suite = countedSuite('s', 10, gauge, {
    concurrency: 4,
    grid: [{ model: 'a' }, { model: 'b' }, { model: 'c' }],
  });
  const { runs } = await runSuites([suite]);
  assert.equal(gauge.peak, 4);
  assert.deepEqual(
    runs.map((r) => r.summary.passed),
    [10, 10, 10],
  );
});

void test('an evaluator with maxConcurrency has one limit across the grid', async () => {
  const cases = new Gauge();
  const calls = new Gauge();
  const limited: EngineEvaluator = {
    id: 'limited',
    maxConcurrency: 2,
    evaluateTestCase: async () => {
      calls.enter();
      await turn();
      await turn();
      calls.leave();
      return { score: 1 };
    },
  };
  const suite = countedSuite('s', 20, cases, { concurrency: 10, grid: [{ k: 1 }, { k: 2 }] });
  suite.evaluators.push(limited);
  const { runs } = await runSuites([suite]);
  assert.equal(calls.peak, 2);
  assert.equal(cases.peak, 10, 'cases still run 10 at a time');
  assert.ok(runs.every((r) => r.summary.evaluators.limited!.passed === 0));
  assert.ok(runs.every((r) => r.summary.evaluators.limited!.count === 20));
});

void test('suites run concurrently, each within its own limit', async () => {
  const gauge = new Gauge();
  await runSuites([
    countedSuite('a', 30, gauge, { concurrency: 10 }),
    countedSuite('b', 30, gauge, { concurrency: 10 }),
  ]);
  assert.equal(gauge.peak, 20);
});

void test('globalConcurrency caps cases in flight across suites', async () => {
  const gauge = new Gauge();
  const { runs } = await runSuites(
    [
      countedSuite('a', 30, gauge, { concurrency: 10 }),
      countedSuite('b', 30, gauge, { concurrency: 10 }),
    ],
    { globalConcurrency: 3 },
  );
  assert.equal(gauge.peak, 3);
  assert.deepEqual(
    runs.map((r) => r.summary.passed),
    [30, 30],
  );
});

void test('globalConcurrency above the suite limits changes nothing', async () => {
  const gauge = new Gauge();
  await runSuites([countedSuite('a', 30, gauge, { concurrency: 4 })], { globalConcurrency: 100 });
  assert.equal(gauge.peak, 4);
});
