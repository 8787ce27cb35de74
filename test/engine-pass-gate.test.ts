/**
 * How the engine decides: pass conditions (all, any, a function), the order of results and runs
 * and what the listener hears, suites with no cases, and the gate's verdict for each run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSuites } from '../src/run/engine.ts';
import { PASS_CONDITION_EVALUATOR } from '../src/shared/reserved-ids.ts';
import type { EngineListener, SuiteSpec } from '../src/run/types.ts';
import type { CaseResult } from '../src/types/index.ts';
import { evaluator, index, makeSuite, rows } from './helpers/engine-suite.ts';

/** A suite of one case whose evaluations have the given pass statuses, under `pass`. */
async function passWith(
  pass: SuiteSpec['pass'],
  statuses: (boolean | null)[],
): Promise<CaseResult> {
  const suite = makeSuite({
    pass,
    evaluators: statuses.map((status, i) =>
      evaluator(`e${i}`, () => ({
        score: status === false ? 0 : 1,
        ...(status === null ? {} : { threshold: { gte: 1 } }),
      })),
    ),
  });
  const { runs } = await runSuites([suite]);
  return runs[0]!.cases[0]!;
}

void test('pass condition all: no evaluation failed', async () => {
  assert.equal((await passWith('all', [true, null, true])).passed, true);
  assert.equal((await passWith('all', [true, false])).passed, false);
  assert.equal((await passWith('all', [null, null])).passed, true);
  assert.equal((await passWith('all', [])).passed, true);
});

void test('pass condition any: one evaluation passed, or none was judged', async () => {
  assert.equal((await passWith('any', [false, true])).passed, true);
  assert.equal((await passWith('any', [false, null])).passed, false);
  assert.equal((await passWith('any', [false, false])).passed, false);
  assert.equal((await passWith('any', [null, null])).passed, true);
  assert.equal((await passWith('any', [])).passed, true);
});

void test('pass condition function: sync or async, sees the evaluations', async () => {
  const seen: unknown[] = [];
  const result = await passWith(
    ({ testCase, output, params, evaluations }) => {
      seen.push({ testCase, output, params, statuses: evaluations.map((e) => e.passed) });
      return true;
    },
    [false, null],
  );
  assert.equal(result.passed, true);
  assert.deepEqual(seen, [
    { testCase: { i: 0 }, output: { i: 0 }, params: {}, statuses: [false, null] },
  ]);
  assert.equal((await passWith(() => Promise.resolve(false), [true])).passed, false);
});

void test('a failing pass condition fails the case and records a synthetic evaluation', async () => {
  const thrown = await passWith(() => {
    throw new Error('pass blew up');
  }, [true]);
  assert.equal(thrown.passed, false);
  assert.equal(thrown.error, null, 'the function under test did not fail');
  assert.equal(thrown.evaluations.length, 2);
  assert.deepEqual(thrown.evaluations[1], {
    evaluator: PASS_CONDITION_EVALUATOR,
    score: null,
    threshold: null,
    passed: false,
    metadata: null,
    error: 'pass blew up',
    durationMs: thrown.evaluations[1]!.durationMs,
  });

  const rejected = await passWith(() => Promise.reject(new Error('later')), []);
  assert.deepEqual(
    rejected.evaluations.map((e) => [e.evaluator, e.error]),
    [['pass', 'later']],
  );

  const notBoolean = await passWith((() => 'yes') as unknown as SuiteSpec['pass'], []);
  assert.equal(notBoolean.passed, false);
  assert.equal(
    notBoolean.evaluations[0]!.error,
    'the pass condition returned "yes"; expected true or false',
  );
});

void test('a pass condition is not consulted for errored cases', async () => {
  let calls = 0;
  const suite = makeSuite({
    fn: () => {
      throw new Error('nope');
    },
    pass: () => {
      calls++;
      return true;
    },
  });
  const { runs } = await runSuites([suite]);
  assert.equal(calls, 0);
  assert.equal(runs[0]!.cases[0]!.passed, false);
});

void test('results keep testset order when cases finish in reverse', async () => {
  const n = 6;
  const release: (() => void)[] = [];
  const finished: string[] = [];
  const suite = makeSuite({
    rows: rows(n),
    concurrency: n,
    fn: ({ testCase }) =>
      new Promise<number>((resolve) => {
        release.push(() => resolve(index(testCase)));
        // Once every case is in flight, let them finish last-started first.
        if (release.length === n) {
          setImmediate(() => {
            for (const done of [...release].reverse()) done();
          });
        }
      }),
  });
  const { runs } = await runSuites([suite], {
    listener: { onCaseDone: ({ result }) => finished.push(result.id) },
  });
  assert.deepEqual(finished, ['c5', 'c4', 'c3', 'c2', 'c1', 'c0']);
  assert.deepEqual(
    runs[0]!.cases.map((c) => c.id),
    ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'],
  );
});

void test('runs come in suite order then grid order; the listener sees every case once', async () => {
  const events: string[] = [];
  let startInfo: unknown;
  const listener: EngineListener = {
    onStart: (info) => {
      events.push('start');
      startInfo = info;
    },
    onCaseDone: ({ suite, params, result }) =>
      events.push(`${suite}/${typeof params.k === 'number' ? params.k : '-'}/${result.id}`),
  };
  const a = makeSuite({ id: 'a', rows: rows(3), grid: [{ k: 1 }, { k: 2 }] });
  const b = makeSuite({ id: 'b', rows: rows(2), fn: ({ testCase }) => Promise.resolve(testCase) });
  const { runs } = await runSuites([a, b], { listener });
  assert.deepEqual(
    runs.map((r) => [r.suite, r.params, r.cases.length, r.testset.cases]),
    [
      ['a', { k: 1 }, 3, 3],
      ['a', { k: 2 }, 3, 3],
      ['b', {}, 2, 2],
    ],
  );
  assert.deepEqual(startInfo, {
    total: 8,
    runs: [
      { suite: 'a', params: { k: 1 }, cases: 3, finished: 0 },
      { suite: 'a', params: { k: 2 }, cases: 3, finished: 0 },
      { suite: 'b', params: {}, cases: 2, finished: 0 },
    ],
  });
  assert.equal(events[0], 'start');
  assert.equal(events.filter((e) => e === 'start').length, 1);
  assert.deepEqual(events.slice(1).sort(), [
    'a/1/c0',
    'a/1/c1',
    'a/1/c2',
    'a/2/c0',
    'a/2/c1',
    'a/2/c2',
    'b/-/c0',
    'b/-/c1',
  ]);
});

void test('a suite with no cases fails, unless it allows it or the run is a shard', async () => {
  const { runs } = await runSuites([makeSuite({ rows: [] })]);
  assert.equal(runs[0]!.verdict, 'fail', 'a gate that checked nothing does not pass');
  assert.deepEqual(
    runs[0]!.gate.conditions.map((c) => [c.name, c.actual, c.passed]),
    [
      ['all cases pass', 'no cases ran', true],
      ['cases', 'no cases matched (allowEmpty: true on the suite accepts this)', false],
    ],
  );
  const allowed = await runSuites([makeSuite({ rows: [], gate: { allowEmpty: true } })]);
  assert.equal(allowed.runs[0]!.verdict, 'pass');
  const shard = await runSuites([makeSuite({ rows: [] })], { shard: true });
  assert.equal(shard.runs[0]!.verdict, 'pass', 'a shard may get none of a small suite');
  assert.deepEqual(await runSuites([]), { runs: [], interrupted: false });
});

void test('the gate decides each run’s verdict', async () => {
  const suite = makeSuite({
    rows: rows(10),
    fn: ({ testCase }) => index(testCase),
    evaluators: [
      evaluator('small', ({ output }) => ({ score: (output as number) < 9 ? 1 : 0 }), {
        threshold: { gte: 1 },
      }),
    ],
    grid: [{}],
    gate: { minPassRate: 0.9, evaluators: { small: { mean: { gte: 0.95 } } } },
  });
  const { runs } = await runSuites([suite]);
  assert.equal(runs[0]!.verdict, 'fail');
  assert.deepEqual(
    runs[0]!.gate.conditions.map((c) => [c.name, c.actual, c.passed]),
    [
      ['minPassRate', '0.9 (9 of 10 cases)', true],
      ['evaluators.small.mean', '0.9', false],
    ],
  );
});
