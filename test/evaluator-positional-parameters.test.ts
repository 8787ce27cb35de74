/**
 * An evaluator written the Autoblocks Python SDK's way, `evaluateTestCase(testCase, output)`,
 * would get the one arguments object as its test case and `undefined` as its output, and score
 * every case wrong without a word. It is refused where it is given: `runTestSuite` throws a
 * UsageError before any case runs, evals.yaml's `use:` is a config problem (exit 2), each
 * showing the form to write, `evaluateTestCase({ testCase, output })`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseTestEvaluator, runTestSuite, type Evaluation } from 'evalgate/testing';
import { UsageError } from '../src/shared/errors.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

interface Case {
  q: string;
}

const RIGHT_FORM = 'evaluateTestCase({ testCase, output })';

/** What `runTestSuite` throws with `evaluator`, asserted to come before any call of `fn`. */
async function refusal(evaluator: unknown): Promise<UsageError> {
  let calls = 0;
  const outcome: unknown = await runTestSuite<Case, string>({
    id: 's',
    testCases: [{ q: 'a' }],
    testCaseHash: ['q'],
    fn: ({ testCase }) => {
      calls++;
      return testCase.q;
    },
    evaluators: [evaluator as BaseTestEvaluator<Case, string>],
    quiet: true,
    setExitCode: false,
  }).then(
    (result) => result,
    (error: unknown) => error,
  );
  assert.equal(calls, 0, 'refused before any case ran');
  assert.ok(outcome instanceof UsageError, `expected a UsageError, got ${String(outcome)}`);
  return outcome;
}

describe('runTestSuite refuses evaluateTestCase(testCase, output)', () => {
  it('a class whose method takes two parameters', async () => {
    class Exact extends BaseTestEvaluator<Case, string> {
      id = 'exact';
      // @ts-expect-error -- the Python SDK's form, as a JavaScript user would write it
      evaluateTestCase(testCase: Case, output: string): Evaluation {
        return { score: output === testCase.q ? 1 : 0 };
      }
    }
    const error = await refusal(new Exact());
    assert.match(error.message, /evaluators\[0\] \(exact\)/);
    assert.ok(error.message.includes(RIGHT_FORM), error.message);
    assert.match(error.message, /evaluateTestCase\(testCase, output\)/);
  });

  it('a plain object whose method takes two parameters', async () => {
    const error = await refusal({
      id: 'exact',
      evaluateTestCase: (testCase: Case, output: string) => ({
        score: output === testCase.q ? 1 : 0,
      }),
    });
    assert.ok(error.message.includes(RIGHT_FORM), error.message);
  });

  it('one object, or a second parameter with a default, is taken', async () => {
    const result = await runTestSuite<Case, string>({
      id: 's',
      testCases: [{ q: 'a' }],
      testCaseHash: ['q'],
      fn: ({ testCase }) => testCase.q,
      evaluators: [
        { id: 'one', evaluateTestCase: ({ output }) => ({ score: output === 'a' ? 1 : 0 }) },
        {
          id: 'defaulted',
          evaluateTestCase: ({ output }, scale = 1) => ({ score: output === 'a' ? scale : 0 }),
        },
      ],
      quiet: true,
      setExitCode: false,
    });
    assert.deepEqual(
      result.runs[0]?.cases[0]?.evaluations.map((e) => e.score),
      [1, 1],
    );
  });
});

describe('evals.yaml refuses a module evaluateTestCase(testCase, output)', () => {
  for (const [name, module] of [
    [
      'an exported class',
      'export class Exact { evaluateTestCase(testCase, output) { return { score: 1 }; } }\n',
    ],
    [
      'an exported object',
      'export const Exact = { evaluateTestCase(testCase, output) { return { score: 1 }; } };\n',
    ],
  ] as const) {
    it(name, async () => {
      const dir = jsonlProject(
        [{ q: 'a' }],
        ['function: ./fn.mjs#fn', 'evaluators: [ { use: ./exact.mjs#Exact } ]'],
        { 'fn.mjs': 'export function fn() { return "a"; }\n', 'exact.mjs': module },
      );
      const r = await runInProcess(['run'], dir, {});
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /evals\.yaml:\d+:\d+/);
      assert.ok(r.stderr.includes(RIGHT_FORM), r.stderr);
    });
  }

  it('an exported function still takes (args, options)', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'function: ./fn.mjs#fn',
        'evaluators: [ { use: ./exact.mjs#exact, with: { want: a }, threshold: { gte: 1 } } ]',
      ],
      {
        'fn.mjs': 'export function fn() { return "a"; }\n',
        'exact.mjs':
          'export function exact({ output }, options) { return { score: output === options.want ? 1 : 0 }; }\n',
      },
    );
    const r = await runInProcess(['run'], dir, {});
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });
});
