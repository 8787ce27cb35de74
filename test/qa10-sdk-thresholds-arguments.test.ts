/**
 * QA round 10, `runTestSuite`'s argument check. H5: a missing `testCaseHash` (JavaScript)
 * crashed with `hash is not iterable`; L1: a hash function returning a number, and
 * `testCaseHash: []`, were accepted; L2: unknown arguments were ignored; M6: case-hash problems
 * were worded for evals.yaml (`s:1:1`, `hash:`, "row"), and an uncaught `UsageError` printed an
 * evalgate source line and its `issues` dump. Each problem is now a `UsageError` in the SDK's
 * words, and an uncaught one prints its message, in a real Node process.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { repoRoot, runNode, scratch, writeFiles } from './helpers/cli.ts';

type Args = Parameters<typeof runTestSuite<Record<string, unknown>, string>>[0];

const BASE = {
  id: 's',
  testCases: [{ input: 'a' }, { input: 'b' }],
  testCaseHash: ['input'],
  fn: () => 'x',
  evaluators: [],
  quiet: true,
  setExitCode: false,
};

/** What `runTestSuite` rejects with for BASE changed by `change` (fails when it resolves). */
async function refusal(change: Record<string, unknown>): Promise<Error> {
  const args = { ...BASE, ...change } as unknown as Args;
  try {
    await runTestSuite(args);
  } catch (error) {
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail('expected runTestSuite to throw');
}

async function usageMessage(change: Record<string, unknown>): Promise<string> {
  const error = await refusal(change);
  assert.equal(error.name, 'UsageError', error.stack);
  return error.message;
}

describe('H5: testCaseHash left out', () => {
  it('is a UsageError that says what to give', async () => {
    assert.equal(
      await usageMessage({ testCaseHash: undefined }),
      "runTestSuite(s): testCaseHash is missing: give the fields that identify a test case (testCaseHash: ['input']) or a function returning its identity as a string",
    );
  });
});

describe('L1: testCaseHash values that would identify cases wrongly', () => {
  it('a function returning a number is refused, naming the test case', async () => {
    assert.equal(
      await usageMessage({ testCaseHash: (testCase: { input: string }) => testCase.input.length }),
      "runTestSuite(s): testCaseHash returned the number 1 for test case 1 (and 1 more test cases): it must return the test case's identity as a non-empty string",
    );
  });

  it('[] is refused: give at least one field, or a function', async () => {
    assert.equal(
      await usageMessage({ testCaseHash: [] }),
      "runTestSuite(s): testCaseHash must list at least one field, or be a function returning a test case's identity as a string, got an array []",
    );
  });
});

describe('M6: case-hash problems in the words of runTestSuite', () => {
  it('a field missing from a test case: testCaseHash and "test case N", no row or location', async () => {
    const message = await usageMessage({
      testCases: [{ input: 'a' }, { inpt: 'b' }, { inpt: 'c' }],
      testCaseHash: ['input'],
    });
    assert.equal(
      message,
      'runTestSuite(s): testCaseHash field "input" is missing from test case 2 (and 1 more test cases): did you mean "inpt"? (every test case needs every field testCaseHash lists)',
    );
    assert.doesNotMatch(message, /s:\d+:\d+|\brow\b|hash:/);
  });

  it('a function returning something other than a string', async () => {
    const message = await usageMessage({ testCaseHash: () => ({ id: 1 }) });
    assert.equal(
      message,
      'runTestSuite(s): testCaseHash returned an object {"id":1} for test case 1 (and 1 more test cases): it must return the test case\'s identity as a non-empty string',
    );
    assert.doesNotMatch(message, /s:\d+:\d+|\brow\b|hash:/);
  });

  it('a function that throws', async () => {
    assert.equal(
      await usageMessage({
        testCaseHash: (testCase: { input: string }) => {
          if (testCase.input === 'b') throw new Error('no id for b');
          return testCase.input;
        },
      }),
      'runTestSuite(s): testCaseHash threw for test case 2: no id for b',
    );
  });
});

describe('L2: an argument runTestSuite does not have', () => {
  it('maxConcurrency and testCaseConcurrency name maxTestCaseConcurrency', async () => {
    assert.equal(
      await usageMessage({ maxConcurrency: 5, testCaseConcurrency: 5 }),
      'runTestSuite(s): unknown argument maxConcurrency: did you mean maxTestCaseConcurrency? (maxConcurrency is a setting of an evaluator, in evaluators); unknown argument testCaseConcurrency: did you mean maxTestCaseConcurrency?',
    );
  });

  it('a name like none of them lists them all', async () => {
    assert.match(
      await usageMessage({ verbose: true }),
      /^runTestSuite\(s\): unknown argument verbose \(the arguments are id, testCases, testCaseHash, fn, evaluators, maxTestCaseConcurrency, .*baselinesDir, updateBaselines, secrets\)$/,
    );
  });
});

describe('M6: a UsageError shows its message, not its internals', () => {
  it('inspect (console.log, console.error) gives `UsageError: <message>` alone', async () => {
    const error = await refusal({ maxTestCaseConcurrency: 0 });
    assert.equal(
      inspect(error),
      'UsageError: runTestSuite(s): maxTestCaseConcurrency must be a whole number of at least 1 (or Infinity: no limit), got 0',
    );
    // Still there for code that reads them.
    assert.equal((error as Error & { exitCode: number }).exitCode, 2);
    assert.equal((error as Error & { issues: unknown[] }).issues.length, 1);
  });

  it('uncaught in a real process: the message, no evalgate source line, no issues dump', async () => {
    // errors.ts compiled as `npm run build` compiles it for lib/ (comments kept), so the child
    // runs what a user's process runs; it needs nothing else of evalgate.
    const source = readFileSync(join(repoRoot, 'src', 'shared', 'errors.ts'), 'utf8');
    const compiled = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const dir = scratch();
    writeFiles(dir, {
      'package.json': '{ "private": true, "type": "module" }\n',
      'errors.js': compiled,
      // The seed's style: an async IIFE whose rejection nobody catches.
      'child.js': `import { UsageError } from './errors.js';
function check() {
  const issue = { code: 'sdk.argument', file: '', line: 0, col: 0, path: 'id', message: 'bad id' };
  return new UsageError([issue], 'runTestSuite(my suite): bad id');
}
(async () => {
  throw check();
})();
`,
    });
    const run = await runNode(['child.js'], { cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines[0], 'UsageError: runTestSuite(my suite): bad id', run.stderr);
    assert.doesNotMatch(run.stderr, /^\s*\^\s*$/m, 'no source line with an arrow');
    assert.doesNotMatch(run.stderr, /issues|exitCode|file: ''/);
  });
});
