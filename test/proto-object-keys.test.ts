/**
 * Names that become keys of plain objects in the results artifact, and `__proto__` among them:
 * assigned into a fresh object, `__proto__` replaces its prototype instead of adding a key, so an
 * evaluator with that id vanished from `summary.evaluators`. Such an evaluator id is refused
 * (evals.yaml, where it comes from `use:`, at its line; runTestSuite, as a UsageError); a suite
 * id cannot be one; grid keys and testset columns named `__proto__` are kept as keys.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTestSuite, type RunTestSuiteArgs } from '../src/api/run-test-suite.ts';
import { UsageError } from '../src/shared/errors.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { tempFolder } from './helpers/temp.ts';

/** A project running `./fn.mjs#fn` (the case's `q`) over inline cases, with `lines` after `function:`. */
function project(lines: string[], files: Record<string, string> = {}): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: data.csv }',
      '    function: ./fn.mjs#fn',
      ...lines,
      '',
    ].join('\n'),
    'data.csv': '__proto__,q\nx,a\n',
    'fn.mjs': 'export function fn({ testCase }) { return testCase.q; }\n',
    '__proto__.mjs': 'export default function ev() { return { score: 1 }; }\n',
    ...files,
  });
  return dir;
}

/** The runs of the artifact at `dir/file`, as JSON reads them back. */
function runs(dir: string, file = 'results.json'): Record<string, unknown>[] {
  const artifact = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    runs: Record<string, unknown>[];
  };
  return artifact.runs;
}

describe('an evaluator id __proto__ in evals.yaml', () => {
  for (const command of [['validate'], ['run']]) {
    it(`taken from use: (a default export of __proto__.mjs) is refused by evals ${command.join(' ')} at its line`, async () => {
      const dir = project(['    evaluators:', '      - use: ./__proto__.mjs']);
      const result = await runInProcess(command, dir);
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(
        result.stderr,
        /evals\.yaml:7:14 {2}suites\[0\]\.evaluators\[0\]\.use: evaluator id "__proto__" \(taken from use:\) cannot be a key of the results' objects/,
      );
    });
  }

  it('given as id: is refused by the id pattern', async () => {
    const dir = project([
      '    evaluators:',
      '      - { id: __proto__, use: is-equals, with: { expected: a } }',
    ]);
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /evals\.yaml:7:\d+ {2}suites\[0\]\.evaluators\[0\]\.id: expected an id/,
    );
  });
});

describe('suite ids, grid keys and testset columns named __proto__ in evals.yaml', () => {
  it('a suite id __proto__ is refused by the id pattern', async () => {
    const dir = project([]);
    writeFiles(dir, {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: __proto__\n    testset: { path: data.csv }\n    function: ./fn.mjs#fn\n',
    });
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /evals\.yaml:3:9 {2}suites\[0\]\.id: expected an id/);
  });

  it('a grid key and a column named __proto__ are kept as keys of the artifact', async () => {
    const dir = project([
      '    grid: { __proto__: [1, 2] }',
      '    evaluators:',
      '      - { id: same, use: is-equals, with: { expected: a } }',
    ]);
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const read = runs(dir);
    assert.deepEqual(
      read.map((run) => Object.entries(run.params as object)),
      [[['__proto__', 1]], [['__proto__', 2]]],
    );
    for (const run of read) {
      const data = (run.cases as { data: object }[])[0]!.data;
      assert.deepEqual(Object.entries(data), [
        ['__proto__', 'x'],
        ['q', 'a'],
      ]);
      assert.deepEqual(Object.keys((run.summary as { evaluators: object }).evaluators), ['same']);
    }
  });
});

interface Case {
  q: string;
}

/** A runTestSuite suite writing `dir/results.json`, with `overrides`. */
function suite(
  dir: string,
  overrides: Partial<RunTestSuiteArgs<Case, string>>,
): RunTestSuiteArgs<Case, string> {
  return {
    id: 's',
    testCases: [JSON.parse('{ "__proto__": "x", "q": "a" }') as Case],
    testCaseHash: ['q'],
    fn: ({ testCase }) => testCase.q,
    evaluators: [{ id: 'same', evaluateTestCase: () => ({ score: 1, threshold: { gte: 1 } }) }],
    output: join(dir, 'results.json'),
    quiet: true,
    setExitCode: false,
    ...overrides,
  };
}

describe('runTestSuite with names __proto__', () => {
  it('refuses an evaluator id __proto__ before anything runs', async () => {
    const dir = tempFolder('proto-keys-');
    let calls = 0;
    const error: unknown = await runTestSuite(
      suite(dir, {
        fn: ({ testCase }) => (calls++, testCase.q),
        evaluators: [{ id: '__proto__', evaluateTestCase: () => ({ score: 1 }) }],
      }),
    ).catch((e: unknown) => e);
    assert.ok(error instanceof UsageError, String(error));
    assert.deepEqual(
      error.issues.map((issue) => [issue.code, issue.path]),
      [['sdk.argument', 'evaluators[0]']],
    );
    assert.match(
      error.message,
      /evaluators\[0\]: evaluator id "__proto__" cannot be a key of the results' objects/,
    );
    assert.equal(calls, 0);
  });

  it('refuses a suite id __proto__', async () => {
    const dir = tempFolder('proto-keys-');
    const error: unknown = await runTestSuite(suite(dir, { id: '__proto__' })).catch(
      (e: unknown) => e,
    );
    assert.ok(error instanceof UsageError, String(error));
    assert.deepEqual(
      error.issues.map((issue) => issue.path),
      ['id'],
    );
  });

  it('keeps a grid key and a test case field named __proto__ as keys of the artifact', async () => {
    const dir = tempFolder('proto-keys-');
    const result = await runTestSuite(
      suite(dir, {
        gridSearchParams: JSON.parse('{ "__proto__": [1, 2] }') as Record<string, unknown[]>,
      }),
    );
    assert.equal(result.verdict, 'pass');
    const read = runs(dir);
    assert.deepEqual(
      read.map((run) => Object.entries(run.params as object)),
      [[['__proto__', 1]], [['__proto__', 2]]],
    );
    for (const run of read) {
      const data = (run.cases as { data: object }[])[0]!.data;
      assert.deepEqual(Object.entries(data), [
        ['__proto__', 'x'],
        ['q', 'a'],
      ]);
      assert.deepEqual(Object.keys((run.summary as { evaluators: object }).evaluators), ['same']);
    }
  });
});
