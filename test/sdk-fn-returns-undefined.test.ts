/**
 * An `fn` that returns `undefined` for a case: the Autoblocks SDK records the case and runs no
 * evaluator on it (run.ts: `if (output === undefined) return;`). `runTestSuite` scored such an
 * output as `null` with every evaluator instead. It now runs none, as the SDK does, and since a
 * case without evaluations passes here, the run ends with a warning that counts those cases.
 * `null` is an output like any other, scored, in both.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import type { Evaluation, EvaluatorArgs } from '../src/types/index.ts';
import { sdkScript } from './helpers/sdk-script.ts';

interface Case {
  q: string;
}

describe('runTestSuite: fn returning undefined', () => {
  it('runs no evaluator on that case, as the SDK does; null and other outputs are scored', async () => {
    const seen: unknown[] = [];
    const result = await runTestSuite<Case, string | null | undefined>({
      id: 'unscored',
      testCases: [{ q: 'value' }, { q: 'none' }, { q: 'null' }],
      testCaseHash: ['q'],
      // An async fn as well as a sync one: the promise's value is what counts.
      fn: ({ testCase }) =>
        Promise.resolve(
          testCase.q === 'none' ? undefined : testCase.q === 'null' ? null : 'answer',
        ),
      evaluators: [
        {
          id: 'wrong',
          evaluateTestCase({ output }: EvaluatorArgs<Case, unknown>): Evaluation {
            seen.push(output);
            return { score: 0, threshold: { gte: 1 } };
          },
        },
      ],
      quiet: true,
      setExitCode: false,
    });
    assert.deepEqual(seen.sort(), ['answer', null]);
    const cases = result.runs[0]!.cases;
    assert.deepEqual(
      cases.map((c) => [c.data.q, c.output, c.evaluations.map((e) => e.evaluator)]),
      [
        ['value', 'answer', ['wrong']],
        ['none', null, []],
        ['null', null, ['wrong']],
      ],
    );
  });

  it('a run in which fn returned undefined for every case judged nothing, and fails', async () => {
    const result = await runTestSuite<Case, undefined>({
      id: 'all-unscored',
      testCases: [{ q: 'a' }, { q: 'b' }],
      testCaseHash: ['q'],
      fn: () => undefined,
      evaluators: [{ id: 'always', evaluateTestCase: () => ({ score: 1, threshold: { gte: 1 } }) }],
      quiet: true,
      setExitCode: false,
    });
    assert.equal(result.verdict, 'fail');
    assert.deepEqual(
      result.runs[0]!.gate.conditions.filter((c) => !c.passed).map((c) => c.name),
      ['judged'],
    );
  });

  it('the run ends with a warning counting the calls that gave undefined', async () => {
    const script = sdkScript(
      [
        'await runTestSuite({',
        "  id: 's',",
        "  testCases: [{ q: 'a' }, { q: 'b' }, { q: 'c' }],",
        "  testCaseHash: ['q'],",
        // A `return` left out of one branch, the mistake the warning is for.
        "  fn: ({ testCase }) => { if (testCase.q !== 'b') return testCase.q; },",
        "  evaluators: [{ id: 'e', evaluateTestCase: () => ({ score: 1, threshold: { gte: 1 } }) }],",
        '});',
        '',
      ].join('\n'),
    );
    const r = await script.run();
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stderr.includes(
        'warning: runTestSuite(s): fn returned undefined for 1 of its 3 calls: no evaluator ran on that case (as in the Autoblocks SDK), so nothing checked it; return the output (null when there is none) to have it scored\n',
      ),
      r.stderr,
    );
  });

  it("fn written the Python SDK's way, fn(testCase), is named with the form to write", async () => {
    const script = sdkScript(
      [
        'await runTestSuite({',
        "  id: 's',",
        "  testCases: [{ q: 'a' }, { q: 'b' }],",
        "  testCaseHash: ['q'],",
        // Seed 003's `fn=lambda test_case: test_case.input`, ported as it reads.
        '  fn: (testCase) => testCase.q,',
        "  evaluators: [{ id: 'e', evaluateTestCase: () => ({ score: 1, threshold: { gte: 1 } }) }],",
        '});',
        '',
      ].join('\n'),
    );
    const r = await script.run();
    assert.ok(
      r.stderr.includes(
        `warning: runTestSuite(s): fn read "q" from its argument, which lacks it (the test case has it): it is called with { testCase, params, signal }, not with the test case as in the Python SDK; read it as ({ testCase }) => … testCase.q …\n`,
      ),
      r.stderr,
    );
  });

  it('fn(testCase) is named too when what it read makes it throw or reject', async () => {
    for (const fn of [
      '(testCase) => testCase.q.trim()',
      'async (testCase) => { await null; return testCase.q.trim(); }',
    ]) {
      const script = sdkScript(
        [
          'await runTestSuite({',
          "  id: 's',",
          "  testCases: [{ q: 'a' }, { q: 'b' }],",
          "  testCaseHash: ['q'],",
          `  fn: ${fn},`,
          "  evaluators: [{ id: 'e', evaluateTestCase: () => ({ score: 1, threshold: { gte: 1 } }) }],",
          '});',
          '',
        ].join('\n'),
      );
      const r = await script.run();
      assert.match(r.stderr, /warning: runTestSuite\(s\): fn read "q" from its argument/, fn);
    }
  });

  it('no such warning for fn({ testCase }), nor for an argument read whole', async () => {
    const script = sdkScript(
      [
        'await runTestSuite({',
        "  id: 's',",
        "  testCases: [{ q: 'a', params: 'p' }],",
        "  testCaseHash: ['q'],",
        // `params` is a key of the argument as well as of this case: read as the argument's.
        '  fn: (args) => `${args.testCase.q} ${JSON.stringify(args.params)} ${args.signal.aborted}`,',
        "  evaluators: [{ id: 'e', evaluateTestCase: () => ({ score: 1, threshold: { gte: 1 } }) }],",
        '});',
        '',
      ].join('\n'),
    );
    const r = await script.run();
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.includes('warning'), false, r.stderr);
  });

  it('no warning when fn never returned undefined', async () => {
    const script = sdkScript(
      [
        'await runTestSuite({',
        "  id: 's',",
        "  testCases: [{ q: 'a' }],",
        "  testCaseHash: ['q'],",
        '  fn: () => null,',
        "  evaluators: [{ id: 'e', evaluateTestCase: () => ({ score: 1, threshold: { gte: 1 } }) }],",
        '});',
        '',
      ].join('\n'),
    );
    const r = await script.run();
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.includes('returned undefined'), false, r.stderr);
  });
});
