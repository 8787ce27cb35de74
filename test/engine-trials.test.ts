/**
 * `trials: N`: each case runs N times; the case's result folds the trials (mean scores, majority
 * verdict, flaky marker) and keeps every one of them. Engine first, then reports, then the CLI.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { cli } from '../src/cli/main.ts';
import type { CommandContext } from '../src/pipeline/context.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import { renderJUnit } from '../src/report/junit.ts';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import { renderSummary } from '../src/report/summary-table.ts';
import { runSuites } from '../src/run/engine.ts';
import type { EngineListener, SuiteSpec } from '../src/run/types.ts';
import type {
  CaseResult,
  EngineEvaluator,
  ResultsArtifact,
  RunResult,
  TestFn,
} from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { reported, suiteSpec, type SuiteOverrides } from './helpers/cases.ts';
import { artifactOf } from './report-fixture-large.ts';

type Row = Record<string, unknown>;

function suite(overrides: SuiteOverrides & { rows?: Row[] } = {}): SuiteSpec {
  const { rows = [{ i: 0 }], ...rest } = overrides;
  return suiteSpec(rows, { id: 'trials', trials: 3, ...rest });
}

/** Counts calls per case (by `testCase.i`): the n-th call of a case gets `n` (1-based). */
function callCounter(): (testCase: Row) => number {
  const calls = new Map<unknown, number>();
  return (testCase) => {
    const n = (calls.get(testCase.i) ?? 0) + 1;
    calls.set(testCase.i, n);
    return n;
  };
}

/** A function that throws on the 2nd call of each case and echoes the call number otherwise. */
function failsSecondCall(): TestFn {
  const count = callCounter();
  return ({ testCase }) => {
    const n = count(testCase);
    if (n === 2) throw new Error(`call ${n} failed`);
    return { call: n };
  };
}

const threshold = (gte: number): EngineEvaluator['threshold'] => ({ gte });

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
        score: (0.2 + 0.4) / 2,
        threshold: null,
        passed: null,
        metadata: { trials: 3, scored: 2, passedTrials: 0 },
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

describe('runTestSuite({ trials })', () => {
  it('runs each case N times and rejects a bad count', async () => {
    const count = callCounter();
    const { runs } = await runTestSuite({
      id: 'api',
      testCases: [{ i: 0 }],
      testCaseHash: ['i'],
      fn: ({ testCase }) => count(testCase),
      evaluators: [
        {
          id: 'odd',
          threshold: { gte: 1 },
          evaluateTestCase: ({ output }) => ({ score: output % 2 }),
        },
      ],
      trials: 3,
      quiet: true,
      setExitCode: false,
    });
    assert.deepEqual(
      runs[0]?.cases.map((c) => [c.passed, c.flaky, c.trialPassRate]),
      [[true, true, 2 / 3]],
    );
    await assert.rejects(
      runTestSuite({
        id: 'api',
        testCases: [{ i: 0 }],
        testCaseHash: ['i'],
        fn: () => 1,
        trials: 0,
        quiet: true,
      }),
      /runTestSuite\(api\): trials must be a whole number of at least 1, got 0/,
    );
  });
});

describe('trials in the reports', () => {
  async function artifact(): Promise<ResultsArtifact> {
    const count = callCounter();
    const { runs } = await runSuites([
      suite({
        rows: [{ i: 0 }, { i: 1 }, { i: 2 }],
        fn: ({ testCase }) => ({ i: testCase.i, call: count(testCase) }),
        evaluators: [
          {
            id: 'exact',
            threshold: threshold(1),
            // Case 0: fails the 2nd trial (flaky pass); case 1: passes only the 2nd (flaky fail);
            // case 2: always passes.
            evaluateTestCase: ({ output }) => {
              const { i, call } = output as { i: number; call: number };
              const pass = i === 2 || (i === 0 ? call !== 2 : call === 2);
              return { score: pass ? 1 : 0 };
            },
          },
        ],
      }),
    ]);
    return artifactOf(runs);
  }

  it('the artifact with trials matches the results schema', async () => {
    const built = await artifact();
    assert.deepEqual(validateArtifact(JSON.parse(JSON.stringify(built))), []);
    assert.equal(built.runs[0]?.summary.flaky, 2);
  });

  it('the terminal summary shows the flaky count and marks flaky cases', async () => {
    const text = renderSummary((await artifact()).runs, { color: false });
    assert.match(text, /pass rate {2}flaky\n.*66\.7% {4,}2\n/);
    assert.match(text, /✗ c1 {2}cases\.jsonl:2 {2}flaky 1\/3 {2}exact 0\.333 \(needs ≥ 1\)/);
    assert.match(
      text,
      /cases that passed but are flaky:\n {4}~ c0 {2}cases\.jsonl:1 {2}flaky 2\/3\n/,
    );
  });

  it('JUnit marks flaky cases in the failure message or in system-out', async () => {
    const xml = renderJUnit(await artifact());
    assert.match(xml, /<failure message="flaky 1\/3; exact 0\.333 \(needs ≥ 1\)"/);
    assert.match(xml, /<system-out>flaky 2\/3 trials passed<\/system-out>/);
    assert.match(xml, /name="c2" classname="trials" time="[\d.]+" file="cases\.jsonl" line="3"\/>/);
  });

  it('the markdown report lists flaky cases with their trials passed', async () => {
    const md = renderMarkdownReport(reported(await artifact()), {
      title: 'evals',
      marker: '',
      maxChars: 65_536,
      sourceRoot: '',
      baseline: null,
    });
    assert.match(
      md,
      /\*\*2 flaky cases\*\* \(passed some trials, failed others; trials passed\): `c0` 2\/3 · `c1` 1\/3/,
    );
    assert.match(md, /`c1` · `cases\.jsonl:2` · \*\*failed\*\* · flaky 1\/3/);
  });
});

describe('evals run --trials', () => {
  function context(cwd: string): { ctx: CommandContext; out: () => string; err: () => string } {
    let out = '';
    let err = '';
    return {
      ctx: {
        cwd,
        env: { NO_COLOR: '1' },
        stdout: { write: (text: string) => (out += text) },
        stderr: { write: (text: string) => (err += text) },
      },
      out: () => out,
      err: () => err,
    };
  }

  /** A project whose function fails the 2nd call of every case, with `trials: 2` in the config. */
  function project(): string {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': `version: 1
suites:
  - id: flaky
    trials: 2
    function: ./fn.ts#answer
    testset:
      cases:
        - { __dedup_id__: a, word: one }
        - { __dedup_id__: b, word: two }
    evaluators:
      - use: is-equals
        with: { expected: "{{case.word}}" }
`,
      'fn.ts': `const calls = new Map<string, number>();
export function answer({ testCase }: { testCase: { word: string } }): string {
  const n = (calls.get(testCase.word) ?? 0) + 1;
  calls.set(testCase.word, n);
  return n === 2 ? 'nope' : testCase.word;
}
`,
    });
    return dir;
  }

  it('runs every case N times and writes a schema-valid artifact', async () => {
    const dir = project();
    const { ctx, out, err } = context(dir);
    const code = await cli(['run', '-o', 'r.json', '--trials', '3', '--junit', 'j.xml'], ctx);
    assert.equal(code, 0, err() + out());
    const value: unknown = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    assert.deepEqual(validateArtifact(value), []);
    const run = (value as ResultsArtifact).runs[0]!;
    assert.deepEqual(
      run.cases.map((c) => [c.id, c.passed, c.flaky, c.trialPassRate, c.trials?.length]),
      [
        ['a', true, true, 2 / 3, 3],
        ['b', true, true, 2 / 3, 3],
      ],
    );
    assert.equal(run.summary.flaky, 2);
    assert.deepEqual(run.cases[0]?.evaluations[0]?.metadata, {
      trials: 3,
      scored: 3,
      passedTrials: 2,
    });
    assert.match(out(), /~ a {2}evals\.yaml:\d+ {2}flaky 2\/3/);
    assert.match(err(), /2\/2/, 'progress counts cases, not trials');
    const junit = readFileSync(join(dir, 'j.xml'), 'utf8');
    assert.match(junit, /flaky 2\/3 trials passed/);
    // The report was streamed from the case spool: it is what the artifact renders to.
    assert.equal(junit, renderJUnit(value as ResultsArtifact));
  });

  it('without --trials the config decides; a bad --trials is a usage error', async () => {
    const dir = project();
    const { ctx, err } = context(dir);
    // trials: 2 in the config and a failing 2nd call: 1 of 2 is no majority.
    assert.equal(await cli(['run', '-o', 'r.json'], ctx), 1);
    const run = (JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ResultsArtifact).runs[0]!;
    assert.deepEqual(
      run.cases.map((c) => [c.trials?.length, c.passed, c.flaky]),
      [
        [2, false, true],
        [2, false, true],
      ],
    );

    for (const bad of ['0', 'x', '1.5']) {
      const usage = context(dir);
      assert.equal(await cli(['run', '--trials', bad], usage.ctx), 2);
      assert.match(
        usage.err(),
        new RegExp(
          `--trials: expected a whole number of at least 1, found "${bad.replace('.', '\\.')}"`,
        ),
      );
    }
    assert.equal(err().includes('Error:'), false);
  });
});
