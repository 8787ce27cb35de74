/**
 * The Autoblocks SDK behaviours `runTestSuite` keeps: an evaluator returning nothing skips the
 * case, the grid point is readable through `gridSearchAsyncLocalStorage`, `maxConcurrency` is
 * on the class type, `Evaluation.assertions` reaches the artifact, and an empty suite fails.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  BaseTestEvaluator,
  gridSearchAsyncLocalStorage,
  runTestSuite,
  type Evaluation,
  type EvaluatorArgs,
  type Params,
} from 'evalgate/testing';

const tempDirs: string[] = [];
after(() => Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

interface Case {
  input: string;
}

const quiet = { quiet: true, setExitCode: false } as const;

describe('runTestSuite with SDK semantics', () => {
  it('an evaluator returning undefined or null skips the case: no evaluation, not a failure', async () => {
    class OnlyLong extends BaseTestEvaluator<Case, string> {
      id = 'only-long';
      evaluateTestCase({ output }: EvaluatorArgs<Case, string>): Evaluation | undefined {
        return output.length > 3 ? { score: 0, threshold: { gte: 1 } } : undefined;
      }
    }
    const result = await runTestSuite<Case, string>({
      id: 'skips',
      testCases: [{ input: 'abc' }, { input: 'abcdef' }],
      testCaseHash: ['input'],
      fn: ({ testCase }) => testCase.input,
      evaluators: [
        new OnlyLong(),
        { id: 'never', evaluateTestCase: () => null },
        { id: 'always', evaluateTestCase: () => ({ score: 1, threshold: { gte: 1 } }) },
      ],
      ...quiet,
    });
    const [short, long] = result.runs[0]?.cases ?? [];
    assert.deepEqual(
      short?.evaluations.map((e) => e.evaluator),
      ['always'],
    );
    assert.equal(short?.passed, true);
    assert.deepEqual(
      long?.evaluations.map((e) => [e.evaluator, e.passed]),
      [
        ['only-long', false],
        ['always', true],
      ],
    );
    assert.equal(result.runs[0]?.summary.evaluators['never']?.count, 0);
  });

  it('the grid point is readable inside fn and evaluators through gridSearchAsyncLocalStorage', async () => {
    const seen: { where: string; store: Params | undefined; params: Params }[] = [];
    const result = await runTestSuite<Case, string>({
      id: 'grid',
      testCases: [{ input: 'x' }],
      testCaseHash: ['input'],
      gridSearchParams: { temperature: [0, 1] },
      fn: async ({ testCase, params }) => {
        await Promise.resolve();
        seen.push({ where: 'fn', store: gridSearchAsyncLocalStorage.getStore(), params });
        return testCase.input;
      },
      evaluators: [
        {
          id: 'reads-grid',
          evaluateTestCase: ({ params }) => {
            seen.push({
              where: 'evaluator',
              store: gridSearchAsyncLocalStorage.getStore(),
              params,
            });
            return { score: 1 };
          },
        },
      ],
      ...quiet,
    });
    assert.equal(result.runs.length, 2);
    assert.equal(seen.length, 4);
    for (const entry of seen) assert.deepEqual(entry.store, entry.params, entry.where);
    assert.deepEqual(seen.map((s) => s.store?.temperature).sort(), [0, 0, 1, 1]);
    assert.equal(gridSearchAsyncLocalStorage.getStore(), undefined, 'nothing outside a call');
  });

  it('maxConcurrency is part of the class type and limits the evaluator', async () => {
    let inFlight = 0;
    let most = 0;
    class Slow extends BaseTestEvaluator<Case, string> {
      id = 'slow';
      override maxConcurrency = 1;
      async evaluateTestCase(): Promise<Evaluation> {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return { score: 1 };
      }
    }
    const evaluator: BaseTestEvaluator<Case, string> = new Slow();
    assert.equal(evaluator.maxConcurrency, 1);
    await runTestSuite<Case, string>({
      id: 'limited',
      testCases: Array.from({ length: 6 }, (_, i) => ({ input: `case ${i}` })),
      testCaseHash: ['input'],
      fn: ({ testCase }) => testCase.input,
      evaluators: [evaluator],
      maxTestCaseConcurrency: 6,
      ...quiet,
    });
    assert.equal(most, 1);
  });

  it('Evaluation.assertions is kept in the artifact with the failed required criteria', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalgate-sdk-'));
    tempDirs.push(dir);
    const output = join(dir, 'results.json');
    await runTestSuite<Case, string>({
      id: 'rubric',
      testCases: [{ input: 'hello' }],
      testCaseHash: ['input'],
      fn: ({ testCase }) => testCase.input,
      evaluators: [
        {
          id: 'rubric',
          evaluateTestCase: (): Evaluation => ({
            score: 0,
            threshold: { gte: 1 },
            assertions: [
              { criterion: 'greets', passed: true, required: true },
              { criterion: 'names the user', passed: false, required: true },
              { criterion: 'uses emoji', passed: false, required: false },
            ],
          }),
        },
      ],
      output,
      ...quiet,
    });
    const artifact = JSON.parse(await readFile(output, 'utf8')) as {
      runs: { cases: { evaluations: { metadata: Record<string, unknown> }[] }[] }[];
    };
    const metadata = artifact.runs[0]?.cases[0]?.evaluations[0]?.metadata;
    assert.deepEqual(metadata?.failedRequired, ['names the user']);
    assert.deepEqual(
      (metadata?.assertions as { criterion: string }[]).map((a) => a.criterion),
      ['greets', 'names the user', 'uses emoji'],
    );
  });

  it('an empty testCases list fails the run instead of passing it', async () => {
    const result = await runTestSuite<Case, string>({
      id: 'empty',
      testCases: [],
      testCaseHash: ['input'],
      fn: ({ testCase }) => testCase.input,
      ...quiet,
    });
    assert.equal(result.verdict, 'fail');
  });
});
