/**
 * Stopping and resuming the engine: interrupts before, during and after cases, an observer that
 * throws, invalid concurrency settings, and resumed cases replayed instead of run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSuites } from '../src/run/engine.ts';
import type { EngineStart } from '../src/run/types.ts';
import type { CaseResult } from '../src/types/index.ts';
import { evaluator, index, makeSuite, never, rows } from './helpers/engine-suite.ts';

void test('interrupt: no new cases, in-flight calls aborted and dropped, partial results returned', async () => {
  const controller = new AbortController();
  const started: number[] = [];
  const hanging: AbortSignal[] = [];
  const suite = makeSuite({
    rows: rows(10),
    concurrency: 2,
    timeoutMs: null,
    fn: ({ testCase, signal }) => {
      const i = index(testCase);
      started.push(i);
      if (i < 2) return Promise.resolve(i);
      // From the third case on, calls never settle and ignore their signal.
      hanging.push(signal);
      if (hanging.length === 2) setImmediate(() => controller.abort());
      return never();
    },
  });
  const { runs, interrupted } = await runSuites([suite], { signal: controller.signal });
  assert.equal(interrupted, true);
  assert.deepEqual(started, [0, 1, 2, 3]);
  assert.ok(hanging.every((signal) => signal.aborted));
  const run = runs[0]!;
  assert.deepEqual(
    run.cases.map((c) => c.id),
    ['c0', 'c1'],
  );
  assert.equal(run.summary.cases, 2);
  assert.equal(run.testset.cases, 10, 'the testset size, not the cases that ran');
  // Both finished cases passed, but a run cut short never passes.
  assert.equal(run.verdict, 'fail');
  assert.deepEqual(run.gate.conditions.at(-1), {
    name: 'complete',
    expected: '10 cases',
    actual: '2 finished (interrupted)',
    passed: false,
  });
});

void test('synchronous user code lets the event loop in: a timer can interrupt the run', async () => {
  // Every call returns a plain value after ~1 ms of work, so the cases run back to back in
  // microtasks; the abort comes from a timer, which only fires if the workers pause for the
  // event loop (without the pauses the whole 2,000 ms run would finish first).
  const controller = new AbortController();
  let calls = 0;
  let callsWhenTimerFired: number | null = null;
  const busy = (ms: number): void => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  };
  const suite = makeSuite({
    rows: rows(2000),
    concurrency: 8,
    fn: ({ testCase }) => {
      if (calls++ === 0) {
        setTimeout(() => {
          callsWhenTimerFired = calls;
          controller.abort();
        }, 0);
      }
      busy(1);
      return testCase;
    },
    evaluators: [evaluator('sync', () => ({ score: 1 }))],
  });
  const { runs, interrupted } = await runSuites([suite], { signal: controller.signal });
  assert.equal(interrupted, true);
  assert.ok(callsWhenTimerFired !== null && callsWhenTimerFired < 2000, `${callsWhenTimerFired}`);
  assert.equal(calls, callsWhenTimerFired, 'no case starts after the interrupt');
  assert.equal(runs[0]!.cases.length, calls);
});

void test('interrupt during evaluation drops the case; evaluators not yet started never run', async () => {
  const controller = new AbortController();
  let limitedCalls = 0;
  const suite = makeSuite({
    rows: rows(3),
    concurrency: 3,
    evaluators: [
      evaluator('hangs', ({ signal }) => {
        setImmediate(() => controller.abort());
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      }),
    ],
  });
  // Three cases queue on one evaluator slot held by a call that never settles.
  const queued = makeSuite({
    id: 'queued',
    rows: rows(3),
    evaluators: [
      evaluator(
        'limited',
        () => {
          limitedCalls++;
          return never();
        },
        { maxConcurrency: 1 },
      ),
    ],
  });
  const { runs, interrupted } = await runSuites([suite, queued], { signal: controller.signal });
  assert.equal(interrupted, true);
  assert.deepEqual(
    runs.map((r) => r.cases.length),
    [0, 0],
  );
  // The queued calls were released by the interrupt but never reached user code.
  assert.equal(limitedCalls, 1);
});

void test('an already aborted signal runs nothing', async () => {
  let calls = 0;
  const suite = makeSuite({
    rows: rows(5),
    fn: () => {
      calls++;
      return 1;
    },
  });
  const { runs, interrupted } = await runSuites([suite], { signal: AbortSignal.abort() });
  assert.equal(calls, 0);
  assert.equal(interrupted, true);
  assert.deepEqual(runs[0]!.cases, []);
});

void test('an abort after the last case finished does not mark the run interrupted', async () => {
  const controller = new AbortController();
  const suite = makeSuite({ rows: rows(3) });
  const result = await runSuites([suite], {
    signal: controller.signal,
    listener: {
      onCaseDone: ({ result: done }) => {
        if (done.id === 'c2') controller.abort();
      },
    },
  });
  assert.equal(result.interrupted, false);
  assert.equal(result.runs[0]!.cases.length, 3);
});

void test('an observer that throws rejects the run, after every case settled', async () => {
  let finished = 0;
  const suite = makeSuite({
    rows: rows(4),
    concurrency: 1,
    fn: ({ testCase }) => Promise.resolve(testCase),
  });
  await assert.rejects(
    runSuites([suite], {
      listener: {
        onCaseDone: () => {
          finished++;
          if (finished === 1) throw new Error('reporter bug');
        },
      },
    }),
    /reporter bug/,
  );
  assert.equal(finished, 4);
});

void test('invalid concurrency settings are rejected before anything runs', async () => {
  let calls = 0;
  const fn = (): number => ++calls;
  await assert.rejects(
    runSuites([makeSuite({ id: 'x', concurrency: 0, fn })]),
    /suite "x": concurrency must be a positive integer, got 0/,
  );
  await assert.rejects(
    runSuites([makeSuite({ fn })], { globalConcurrency: 1.5 }),
    /globalConcurrency must be a positive integer, got 1.5/,
  );
  assert.equal(calls, 0);
});

void test('resumed cases are recorded as they were, not run, and the listener hears they are', async () => {
  const calls: number[] = [];
  const suite = makeSuite({
    rows: rows(5),
    grid: [{ k: 1 }, { k: 2 }],
    fn: ({ testCase }) => {
      calls.push(index(testCase));
      return testCase;
    },
  });
  const earlier = (i: number): CaseResult => ({
    id: `c${i}`,
    contentId: `content-${i}`,
    source: { file: 'cases.jsonl', line: i + 1 },
    data: { i },
    output: 'from before',
    error: null,
    durationMs: 7,
    passed: false,
    evaluations: [],
  });
  const [first] = suite.runs;
  assert.ok(first);
  // Run 1 had finished cases 1 and 3; run 2 had finished none.
  suite.runs[0] = {
    ...first,
    resumed: {
      positions: new Set([1, 3]),
      results: () => [1, 3].map((index) => ({ index, result: earlier(index) })),
    },
  };
  const heard: string[] = [];
  let start: EngineStart | undefined;
  const { runs, interrupted } = await runSuites([suite], {
    listener: {
      onStart: (info) => (start = info),
      onCaseDone: ({ run, index: at, replayed }) =>
        heard.push(`${run}:${at}${replayed ? ' r' : ''}`),
    },
  });
  assert.equal(interrupted, false);
  assert.deepEqual(calls.sort(), [0, 0, 1, 2, 2, 3, 4, 4]);
  assert.equal(start?.total, 8);
  assert.deepEqual(
    start?.runs.map((r) => r.finished),
    [2, 0],
  );
  // Replayed first, before any case ran.
  assert.deepEqual(heard.slice(0, 2), ['0:1 r', '0:3 r']);
  assert.equal(heard.length, 10);
  assert.deepEqual(
    runs[0]!.cases.map((c) => c.output),
    [{ i: 0 }, 'from before', { i: 2 }, 'from before', { i: 4 }],
  );
  assert.equal(runs[0]!.summary.cases, 5);
  assert.equal(runs[0]!.summary.failed, 2);
  assert.equal(runs[1]!.summary.passed, 5);
});

void test('resumed results that do not match their positions are refused', async () => {
  const suite = makeSuite({ rows: rows(3) });
  const result: CaseResult = {
    id: 'c0',
    contentId: 'content-0',
    source: null,
    data: {},
    output: null,
    error: null,
    durationMs: 0,
    passed: true,
    evaluations: [],
  };
  suite.runs[0] = {
    ...suite.runs[0]!,
    resumed: { positions: new Set([0, 1]), results: () => [{ index: 0, result }] },
  };
  await assert.rejects(runSuites([suite]), /gave 1 results for 2 positions/);
  suite.runs[0] = {
    ...suite.runs[0],
    resumed: { positions: new Set([0]), results: () => [{ index: 2, result }] },
  };
  await assert.rejects(runSuites([suite]), /position 2, not among the run's resumed/);
});
