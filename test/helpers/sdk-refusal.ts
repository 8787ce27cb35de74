/**
 * What the SDK makes of one evaluator class before any case runs, for the tests of the classes it
 * refuses (a missing mapper, a Python SDK name): from `runTestSuite`, and from evals.yaml's `use:`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runTestSuite } from '../../src/api/run-test-suite.ts';
import { UsageError } from '../../src/shared/errors.ts';
import type { TestEvaluator } from '../../src/types/index.ts';
import { repoRoot, scratch, writeFiles } from './cli.ts';
import { runInProcess } from './in-process.ts';

/** The SDK's entry, as a module written into a scratch project imports it. */
export const TESTING = pathToFileURL(join(repoRoot, 'src', 'testing.ts')).href;

interface EchoCase {
  input: string;
}

/** The case run unless a test names one: an echo of it equals what it expects. */
const HELLO: EchoCase & { expected: string } = { input: 'hello world', expected: 'hello world' };

/**
 * Runs suite `s` of the one case `testCase` (the target returns its `input`) with `evaluator`
 * alone. Refused, it is the UsageError's message, asserted to come before any case ran; else
 * `ran N, passed M`: the cases the target ran and the evaluations that passed.
 */
export async function refusalOrScore(
  evaluator: object,
  testCase: EchoCase = HELLO,
): Promise<string> {
  let calls = 0;
  try {
    const result = await runTestSuite<EchoCase, string>({
      id: 's',
      testCases: [testCase],
      testCaseHash: ['input'],
      fn: ({ testCase: current }) => {
        calls++;
        return current.input;
      },
      evaluators: [evaluator as TestEvaluator<EchoCase, string>],
      quiet: true,
      setExitCode: false,
    });
    const evaluations = result.runs.flatMap((r) => r.cases.flatMap((c) => c.evaluations));
    return `ran ${calls}, passed ${evaluations.filter((e) => e.passed === true).length}`;
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    assert.equal(calls, 0, 'no case ran');
    return error.message;
  }
}

/**
 * Asserts that an evals.yaml whose suite (`hello` in, `hello` out, expected `hello`) uses the
 * class `IsEq` of `module` (its source, importing {@link TESTING}) is refused by both `validate`
 * and `run` with exit code 2 and a message matching `message`, never the bare TypeError a call
 * of the missing method would have been.
 */
export async function assertRefusedFromEvalsYaml(module: string, message: RegExp): Promise<void> {
  const project = scratch();
  writeFiles(project, {
    'evals.yaml': `version: 1
suites:
  - id: s
    testset: { cases: [{ input: hello, expected: hello, output: hello }] }
    evaluators: [{ use: ./eq.mjs#IsEq }]
`,
    'eq.mjs': module,
  });
  for (const command of [['validate'], ['run']]) {
    const cli = await runInProcess(command, project);
    assert.equal(cli.code, 2, cli.stderr);
    assert.match(cli.stderr, message);
    assert.doesNotMatch(cli.stderr, /is not a function/);
  }
}
