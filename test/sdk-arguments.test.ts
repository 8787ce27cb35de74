/**
 * `runTestSuite` refuses bad arguments before anything runs, with the SDK's UsageError: each
 * problem names the argument, what it must be and what it is. Before, an empty grid list made
 * no run and passed, a bad `pass` or `fn` failed every case, a bad concurrency threw a
 * RangeError from the engine, and an `output` that is a folder threw after the whole run.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTestSuite, type RunTestSuiteArgs } from '../src/api/run-test-suite.ts';
import { UsageError } from '../src/shared/errors.ts';
import { scratch, writeFiles } from './helpers/cli.ts';

interface Case {
  q: string;
}

type Args = RunTestSuiteArgs<Case, string>;

/** A valid suite counting its `fn` calls, with `overrides` (possibly ill-typed) over it. */
function suite(calls: { n: number }, overrides: Record<string, unknown>): Args {
  const base: Args = {
    id: 's',
    testCases: [{ q: 'a' }, { q: 'b' }],
    testCaseHash: ['q'],
    fn: ({ testCase }) => {
      calls.n++;
      return testCase.q;
    },
    quiet: true,
    setExitCode: false,
  };
  return { ...base, ...overrides };
}

/** The UsageError `overrides` get, asserted to come before any call of `fn`. */
async function refusal(overrides: Record<string, unknown>): Promise<UsageError> {
  const calls = { n: 0 };
  const outcome: unknown = await runTestSuite(suite(calls, overrides)).then(
    (result) => result,
    (error: unknown) => error,
  );
  assert.ok(outcome instanceof UsageError, `a UsageError, not ${JSON.stringify(outcome)}`);
  assert.equal(calls.n, 0, 'nothing ran');
  return outcome;
}

interface Row {
  name: string;
  overrides: Record<string, unknown>;
  /** The argument the problem names (its issue's path). */
  path: string;
  message: RegExp;
}

const rows: Row[] = [
  {
    name: 'a grid list with no values (it would make no run, and pass)',
    overrides: { gridSearchParams: { model: [] } },
    path: 'gridSearchParams.model',
    message: /gridSearchParams\.model must be a non-empty array of values, got an array \[\]/,
  },
  {
    name: 'a grid value that is not a list',
    overrides: { gridSearchParams: { model: 'x' } },
    path: 'gridSearchParams.model',
    message: /gridSearchParams\.model must be a non-empty array of values, got "x"/,
  },
  {
    name: 'grid values that read the same (two runs with one name)',
    overrides: { gridSearchParams: { temp: [0, 0.5, '0'] } },
    path: 'gridSearchParams.temp',
    message: /gridSearchParams\.temp must be values that each read differently \(0 twice\)/,
  },
  {
    name: 'a grid that is not an object',
    overrides: { gridSearchParams: ['a'] },
    path: 'gridSearchParams',
    message: /gridSearchParams must be an object of parameter name → list of values/,
  },
  ...[-5, 0, NaN, Infinity].map((value) => ({
    name: `timeoutMs ${value}`,
    overrides: { timeoutMs: value },
    path: 'timeoutMs',
    message: new RegExp(`timeoutMs must be a number of milliseconds above 0 .*, got ${value}$`),
  })),
  {
    name: 'a pass rule that is not all, any or a function',
    overrides: { pass: 'most' },
    path: 'pass',
    message: /pass must be "all", "any" or a function .*, got "most"/,
  },
  {
    name: 'no fn',
    overrides: { fn: undefined },
    path: 'fn',
    message: /fn must be the function under test, got nothing/,
  },
  {
    name: 'an fn that is not a function',
    overrides: { fn: 'answer' },
    path: 'fn',
    message: /fn must be the function under test, got "answer"/,
  },
  {
    name: 'no testCases',
    overrides: { testCases: undefined },
    path: 'testCases',
    message: /testCases must be an array of test cases \(objects\), got nothing/,
  },
  {
    name: 'a test case that is null, with a count of the others',
    overrides: { testCases: [{ q: 'a' }, null, 3, { q: 'b' }] },
    path: 'testCases[1]',
    message: /testCases\[1\] must be an object \(one test case\), got null \(and 1 more test cases/,
  },
  ...[0, -1, 1.5].map((value) => ({
    name: `maxTestCaseConcurrency ${value}`,
    overrides: { maxTestCaseConcurrency: value },
    path: 'maxTestCaseConcurrency',
    message: new RegExp(
      `maxTestCaseConcurrency must be a whole number of at least 1 .*, got ${value}`,
    ),
  })),
  {
    name: "an evaluator's maxConcurrency 0",
    overrides: {
      evaluators: [{ id: 'e', maxConcurrency: 0, evaluateTestCase: () => ({ score: 1 }) }],
    },
    path: 'evaluators[0].maxConcurrency',
    message: /evaluators\[0\]\.maxConcurrency must be a whole number of at least 1 .*, got 0/,
  },
  {
    name: 'an empty id',
    overrides: { id: '' },
    path: 'id',
    message:
      /^runTestSuite\(""\): id must be a suite id of letters, digits, _, \. and - .*, got ""$/,
  },
  {
    name: 'an id evals.yaml would refuse',
    overrides: { id: 'has space/../x' },
    path: 'id',
    message: /id must be a suite id .*, got "has space\/\.\.\/x"/,
  },
  {
    name: 'a minPassRate above 1',
    overrides: { gate: { minPassRate: 2 } },
    path: 'gate.minPassRate',
    message: /gate\.minPassRate must be a share of cases from 0 to 1, got 2/,
  },
  {
    name: 'a minPassRate that is not a number',
    overrides: { gate: { minPassRate: '90%' } },
    path: 'gate.minPassRate',
    message:
      /gate\.minPassRate must be a share of cases from 0 to 1, got "90%" \(not a percentage: write 0\.9 for 90%\)/,
  },
  {
    name: 'a minPassRate written as a whole percentage',
    overrides: { gate: { minPassRate: 95 } },
    path: 'gate.minPassRate',
    message:
      /gate\.minPassRate must be a share of cases from 0 to 1, got 95 \(not a percentage: write 0\.95 for 95%\)$/,
  },
];

describe('runTestSuite refuses bad arguments up front', () => {
  for (const row of rows) {
    it(row.name, async () => {
      const error = await refusal(row.overrides);
      assert.deepEqual(
        error.issues.map((issue) => [issue.code, issue.path]),
        [['sdk.argument', row.path]],
      );
      assert.match(error.message, row.message);
    });
  }

  it('names every problem at once, each in one issue', async () => {
    const error = await refusal({ id: '', fn: null, timeoutMs: NaN, gridSearchParams: { m: [] } });
    assert.deepEqual(
      error.issues.map((issue) => issue.path),
      ['id', 'fn', 'gridSearchParams.m', 'timeoutMs'],
    );
    assert.equal(error.message.split('; ').length, 4);
  });

  it('an output path that is a folder or lies under a file, before the run', async () => {
    const dir = scratch();
    writeFiles(dir, { 'notes.txt': 'mine\n' });
    const folder = await refusal({ output: dir });
    assert.equal(folder.issues[0]?.path, 'output');
    assert.match(
      folder.message,
      /^runTestSuite\(s\): output .*: is a folder, not a file \(name a file in it\), so nothing was run$/,
    );
    const underFile = await refusal({ output: join(dir, 'notes.txt', 'r.json') });
    assert.match(underFile.message, /notes\.txt is a file, not a folder, so nothing was run/);
  });

  it('still takes the values at the edges: Infinity concurrency, a timeout, a rate of 0 or 1', async () => {
    const calls = { n: 0 };
    for (const overrides of [
      { maxTestCaseConcurrency: Infinity, timeoutMs: 60_000, gate: { minPassRate: 0 } },
      { gate: { minPassRate: 1 }, pass: 'any', gridSearchParams: { model: ['a', 'b'] } },
    ]) {
      const result = await runTestSuite(suite(calls, overrides));
      assert.equal(result.verdict, 'pass');
    }
    // 2 cases, then 2 cases × 2 grid points.
    assert.equal(calls.n, 6);
  });
});
