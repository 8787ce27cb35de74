import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSuites } from '../src/run/engine.ts';
import { PASS_CONDITION_EVALUATOR } from '../src/shared/reserved-ids.ts';
import type { EngineListener, EngineStart, SuiteSpec } from '../src/run/types.ts';
import type {
  CaseResult,
  EngineEvaluator,
  Evaluation,
  EvaluatorArgs,
  FnArgs,
  Params,
  Target,
  TargetOutput,
} from '../src/types/index.ts';
import { suiteSpec, type SuiteOverrides } from './helpers/cases.ts';

type Row = Record<string, unknown>;

function makeSuite(overrides: SuiteOverrides & { rows?: Row[] } = {}): SuiteSpec {
  const { rows = [{ i: 0 }], ...rest } = overrides;
  return suiteSpec(rows, rest);
}

function evaluator(
  id: string,
  evaluate: (args: EvaluatorArgs) => Evaluation | Promise<Evaluation>,
  extra: Partial<EngineEvaluator> = {},
): EngineEvaluator {
  return { id, evaluateTestCase: evaluate, ...extra };
}

/** Rows `{ i: 0 } … { i: n-1 }`. */
function rows(n: number): Row[] {
  return Array.from({ length: n }, (_, i) => ({ i }));
}

function index(testCase: Row): number {
  return testCase.i as number;
}

/** A promise that never settles and ignores every signal: the worst user code there is. */
function never(): Promise<never> {
  return new Promise<never>(() => {});
}

function countTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

void test('a case records its identity, data, output and evaluations', async () => {
  const suite = makeSuite({
    rows: [{ country: 'France', capital: 'Paris' }],
    fn: ({ testCase }) => ({ answer: testCase.capital }),
    evaluators: [
      evaluator('exact', ({ testCase, output }) => ({
        score: (output as Row).answer === testCase.capital ? 1 : 0,
        threshold: { gte: 1 },
        metadata: { compared: 'answer' },
      })),
    ],
  });
  const { runs, interrupted } = await runSuites([suite], { now: () => 0 });
  assert.equal(interrupted, false);
  assert.equal(runs.length, 1);
  const run = runs[0]!;
  assert.equal(run.suite, 'suite');
  assert.deepEqual(run.params, {});
  assert.deepEqual(run.testset, {
    path: 'cases.jsonl',
    ref: null,
    commit: null,
    revision: 'rev',
    cases: 1,
  });
  assert.equal(run.verdict, 'pass');
  assert.deepEqual(run.cases, [
    {
      id: 'c0',
      contentId: 'content-0',
      source: { file: 'cases.jsonl', line: 1 },
      data: { country: 'France', capital: 'Paris' },
      output: { answer: 'Paris' },
      error: null,
      durationMs: 0,
      passed: true,
      evaluations: [
        {
          evaluator: 'exact',
          score: 1,
          threshold: { gte: 1 },
          passed: true,
          metadata: { compared: 'answer' },
          error: null,
          durationMs: 0,
        },
      ],
    },
  ]);
  assert.deepEqual(run.summary.evaluators.exact, {
    count: 1,
    mean: 1,
    passed: 1,
    failed: 0,
    errors: 0,
    passRate: 1,
  });
});

void test('the function gets the case, the params and a live signal; durations use the injected clock', async () => {
  let clock = 0;
  const seen: { params: Params; aborted: boolean; isSignal: boolean }[] = [];
  const evaluatorDurations: number[] = [];
  const suite = makeSuite({
    rows: rows(2),
    grid: [{ model: 'small' }, { model: 'large' }],
    fn: ({ params, signal }) => {
      seen.push({ params, aborted: signal.aborted, isSignal: signal instanceof AbortSignal });
      return undefined;
    },
    evaluators: [
      evaluator('e', ({ durationMs }) => {
        evaluatorDurations.push(durationMs);
        return { score: 1 };
      }),
    ],
  });
  const { runs } = await runSuites([suite], { now: () => (clock += 10) });
  assert.deepEqual(
    seen.map((s) => s.params),
    [{ model: 'small' }, { model: 'small' }, { model: 'large' }, { model: 'large' }],
  );
  assert.ok(seen.every((s) => s.isSignal && !s.aborted));
  assert.deepEqual(
    runs.map((r) => r.params),
    [{ model: 'small' }, { model: 'large' }],
  );
  // Each call reads the clock before and after: 10 ms apart.
  assert.ok(runs.every((r) => r.cases.every((c) => c.durationMs === 10)));
  assert.deepEqual(evaluatorDurations, [10, 10, 10, 10]);
  // A function that returns nothing records null.
  assert.ok(runs.every((r) => r.cases.every((c) => c.output === null && c.error === null)));
});

void test('a synchronous call is timed from its start to its end, whatever runs beside it', async () => {
  let reads = 0;
  const suite = makeSuite({
    rows: rows(3),
    concurrency: 2,
    fn: () => 'x',
    evaluators: ['a', 'b', 'c'].map((id) => evaluator(id, () => ({ score: 1 }))),
  });
  const { runs } = await runSuites([suite], { now: () => ++reads * 10 });
  // The function's start and end, then each evaluator's start and end.
  assert.equal(reads, 3 * 8);
  for (const c of runs[0]!.cases) {
    assert.equal(c.durationMs, 10);
    assert.deepEqual(
      c.evaluations.map((e) => e.durationMs),
      [10, 10, 10],
    );
  }
});

void test('a function that throws, rejects or times out errors its case and the run goes on', async () => {
  const timedOutSignals: AbortSignal[] = [];
  let evaluatorCalls = 0;
  const suite = makeSuite({
    rows: rows(7),
    timeoutMs: 20,
    fn: ({ testCase, signal }) => {
      switch (index(testCase)) {
        case 0:
          throw new Error('boom');
        case 1:
          return Promise.reject(new TypeError('bad input'));
        // Non-Error throwables are what this case is about.
        case 2:
          // eslint-disable-next-line @typescript-eslint/only-throw-error
          throw 'a plain string';
        case 3:
          // eslint-disable-next-line @typescript-eslint/only-throw-error
          throw { code: 42 };
        case 4:
          // Ignores its signal on purpose: the engine must stop waiting on its own.
          timedOutSignals.push(signal);
          return never();
        default:
          return Promise.resolve(`ok ${index(testCase)}`);
      }
    },
    evaluators: [
      evaluator('e', () => {
        evaluatorCalls++;
        return { score: 1 };
      }),
    ],
  });
  const before = countTimers();
  const { runs } = await runSuites([suite]);
  assert.equal(countTimers(), before, 'every timer is cleared');
  const cases = runs[0]!.cases;
  assert.deepEqual(
    cases.map((c) => c.error),
    ['boom', 'bad input', 'a plain string', '{"code":42}', 'timed out after 20 ms', null, null],
  );
  for (const errored of cases.slice(0, 5)) {
    assert.equal(errored.output, null);
    assert.equal(errored.passed, false);
    assert.deepEqual(errored.evaluations, []);
  }
  assert.deepEqual(
    cases.slice(5).map((c) => [c.output, c.passed]),
    [
      ['ok 5', true],
      ['ok 6', true],
    ],
  );
  assert.equal(evaluatorCalls, 2, 'evaluators only run on cases whose function succeeded');
  assert.equal(timedOutSignals[0]!.aborted, true);
  assert.equal((timedOutSignals[0]!.reason as DOMException).name, 'TimeoutError');
  assert.deepEqual(
    [runs[0]!.summary.passed, runs[0]!.summary.failed, runs[0]!.summary.errored],
    [2, 0, 5],
  );
  assert.equal(runs[0]!.verdict, 'fail');
});

void test('timers of async calls that settle in time are cleared', async () => {
  const suite = makeSuite({
    rows: rows(20),
    timeoutMs: 60_000,
    fn: ({ testCase }) => Promise.resolve(index(testCase)),
    evaluators: [evaluator('e', () => Promise.resolve({ score: 1 }))],
  });
  const before = countTimers();
  const { runs } = await runSuites([suite]);
  assert.equal(runs[0]!.summary.passed, 20);
  assert.equal(countTimers(), before);
});

void test('evaluator failures become evaluations with an error and passed: false', async () => {
  // One row per failure mode: evaluator, what it does, what gets recorded.
  // prettier-ignore
  const cases: [string, (args: EvaluatorArgs) => unknown, { score: number | null; error: string }][] =
    [
      ['throws', () => { throw new Error('evaluator blew up'); }, { score: null, error: 'evaluator blew up' }],
      ['rejects', () => Promise.reject(new Error('async nope')), { score: null, error: 'async nope' }],
      ['nan', () => ({ score: Number.NaN }), { score: null, error: 'score is NaN' }],
      ['high', () => ({ score: 1.4 }), { score: 1.4, error: 'score 1.4 is outside [0, 1]' }],
      ['low', () => ({ score: -0.1 }), { score: -0.1, error: 'score -0.1 is outside [0, 1]' }],
      ['infinite', () => ({ score: Infinity }), { score: null, error: 'score Infinity is outside [0, 1]' }],
      ['missing', () => ({ metadata: {} }), { score: null, error: 'the evaluation has no score' }],
      ['text', () => ({ score: '0.5' }), { score: null, error: 'score must be a number, got "0.5"' }],
      // Returning nothing skips the case instead (test/sdk-behaviour.test.ts).
      ['hangs', () => never(), { score: null, error: 'timed out after 20 ms' }],
    ];
  const suite = makeSuite({
    timeoutMs: 5_000,
    evaluators: cases.map(([id, evaluate]) =>
      evaluator(id, evaluate as EngineEvaluator['evaluateTestCase'], {
        ...(id === 'hangs' ? { timeoutMs: 20 } : {}),
        threshold: { gte: 0 },
      }),
    ),
  });
  const { runs } = await runSuites([suite]);
  const result = runs[0]!.cases[0]!;
  assert.equal(result.error, null, 'evaluator failures never error the case');
  assert.equal(result.passed, false);
  assert.deepEqual(
    result.evaluations.map((e) => ({ id: e.evaluator, score: e.score, error: e.error })),
    cases.map(([id, , expected]) => ({ id, ...expected })),
  );
  assert.ok(result.evaluations.every((e) => e.passed === false));
  assert.ok(result.evaluations.every((e) => e.metadata === null || e.evaluator === 'missing'));
  assert.deepEqual(runs[0]!.summary.evaluators.high, {
    count: 1,
    mean: null,
    passed: 0,
    failed: 1,
    errors: 1,
    passRate: 0,
  });
});

void test('an evaluator timeout aborts its own signal and not its siblings', async () => {
  const signals: Record<string, AbortSignal> = {};
  const suite = makeSuite({
    evaluators: [
      evaluator(
        'slow',
        ({ signal }) => {
          signals.slow = signal;
          return never();
        },
        { timeoutMs: 10 },
      ),
      evaluator('fast', async ({ signal }) => {
        signals.fast = signal;
        await new Promise((resolve) => setTimeout(resolve, 30));
        return { score: 1 };
      }),
    ],
  });
  const { runs } = await runSuites([suite]);
  const [slow, fast] = runs[0]!.cases[0]!.evaluations;
  assert.equal(slow!.error, 'timed out after 10 ms');
  assert.equal(fast!.error, null);
  assert.equal(signals.slow!.aborted, true);
  assert.equal(signals.fast!.aborted, false);
});

void test('threshold precedence: evaluator threshold, then the evaluation’s, else passed is null', async () => {
  const suite = makeSuite({
    evaluators: [
      evaluator('override', () => ({ score: 0.6, threshold: { gte: 0.9 } }), {
        threshold: { gte: 0.5 },
      }),
      evaluator('own', () => ({ score: 0.6, threshold: { gte: 0.9 } })),
      evaluator('none', () => ({ score: 0.6 })),
      evaluator('configured', () => ({ score: 0.2 }), { threshold: { lt: 0.3 } }),
    ],
  });
  const { runs } = await runSuites([suite]);
  assert.deepEqual(
    runs[0]!.cases[0]!.evaluations.map((e) => [e.evaluator, e.threshold, e.passed, e.metadata]),
    [
      ['override', { gte: 0.5 }, true, null],
      ['own', { gte: 0.9 }, false, null],
      ['none', null, null, null],
      ['configured', { lt: 0.3 }, true, null],
    ],
  );
  // `own` failed, so under `all` the case fails.
  assert.equal(runs[0]!.cases[0]!.passed, false);
});

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

// Keep the FnArgs type honest: the engine's argument object satisfies it at run time too.
void test('the argument objects expose exactly the documented fields', async () => {
  let fnKeys: string[] = [];
  let evaluatorKeys: string[] = [];
  const suite = makeSuite({
    fn: (args: FnArgs) => {
      fnKeys = Object.keys(args).concat('signal' in args ? ['signal'] : []);
      return 1;
    },
    evaluators: [
      evaluator('e', (args) => {
        evaluatorKeys = Object.keys(args).concat('signal' in args ? ['signal'] : []);
        return { score: 1 };
      }),
    ],
  });
  await runSuites([suite]);
  assert.deepEqual(fnKeys.sort(), ['params', 'signal', 'testCase']);
  assert.deepEqual(evaluatorKeys.sort(), ['durationMs', 'output', 'params', 'signal', 'testCase']);
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

void test('a target is what produces the output: what it returns, its usage recorded with the case', async () => {
  const usage = {
    calls: 1,
    cacheHits: 0,
    promptTokens: 12,
    completionTokens: 3,
    cost: 0.01,
    latencyMs: 40,
  };
  const target: Target = {
    description: 'a fake model',
    call: ({ testCase }) =>
      index(testCase) === 2
        ? ({ nothing: true } as unknown as TargetOutput)
        : Promise.resolve({ output: `answer ${index(testCase)}`, usage }),
  };
  const { runs } = await runSuites([makeSuite({ rows: rows(3), target })]);
  const [a, b, c] = runs[0]!.cases;
  assert.equal(a?.output, 'answer 0');
  assert.deepEqual(a?.usage, usage);
  assert.equal(b?.output, 'answer 1');
  assert.match(c?.error ?? '', /^the target returned .*; expected \{ output \}/);
  assert.equal(c?.usage, undefined);
  assert.deepEqual(runs[0]!.summary.usage, {
    ...usage,
    calls: 2,
    promptTokens: 24,
    completionTokens: 6,
    cost: 0.02,
    latencyMs: 80,
  });
});
