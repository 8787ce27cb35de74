/**
 * What the engine records for a case: its identity, data, output and evaluations; durations;
 * functions and evaluators that throw, reject or time out; thresholds; the arguments user code
 * gets; and a target's output and usage.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSuites } from '../src/run/engine.ts';
import type {
  EngineEvaluator,
  EvaluatorArgs,
  FnArgs,
  Params,
  Target,
  TargetOutput,
} from '../src/types/index.ts';
import { evaluator, index, makeSuite, never, rows, type Row } from './helpers/engine-suite.ts';

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
    // Long enough that a loaded machine cannot stall a rejection past it (CI136 saw 21 ms):
    // only the case that never settles may time out.
    timeoutMs: 1000,
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
    ['boom', 'bad input', 'a plain string', '{"code":42}', 'timed out after 1000 ms', null, null],
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
    scored: 0,
    passRate: 0,
  });
});

void test('a threshold an evaluator returns that no score can meet is an error, as in evals.yaml', async () => {
  const suite = makeSuite({
    evaluators: [
      evaluator('narrow', () => ({ score: 0.5, threshold: { gt: 0.8, lt: 0.2 } })),
      evaluator('fine', () => ({ score: 0.5, threshold: { gte: 0.5 } })),
    ],
  });
  const { runs } = await runSuites([suite]);
  const [narrow, fine] = runs[0]!.cases[0]!.evaluations;
  assert.equal(narrow?.error, 'impossible threshold: no score in [0, 1] is > 0.8 and < 0.2');
  assert.equal(narrow?.score, 0.5);
  assert.equal(narrow?.passed, false);
  assert.equal(fine?.error, null);
  assert.equal(fine?.passed, true);
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
  // Under a loaded machine the evaluator's synchronous start can itself outlast 10 ms; the
  // engine then says so after the same words (src/run/call.ts), and aborts the signal just the same.
  assert.match(slow!.error ?? '', /^timed out after 10 ms(?: \(it ran \d+ ms|$)/);
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
