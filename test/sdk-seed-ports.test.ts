/**
 * The Autoblocks testing SDK's examples (seeds 000 and 001), ported as a user ports them: the
 * import changed to `evalgate/testing`, nothing else. Each is a file of a scratch project that
 * resolves `evalgate` to the built package (lib/, through package.json's exports, as an
 * installed copy does), is type-checked with `tsc` in strict mode, then run by tsx in its own
 * process; its last stdout line is a summary the row checks against what the seed says. The
 * out-of-box evaluator classes of seed 003 are checked in sdk-classes.test.ts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { repoRoot, runNode, scratch, writeFiles } from './helpers/cli.ts';
import { typeErrors } from './helpers/consumer-typecheck.ts';

/** What `report.ts` prints of a result: per run, its params and each case's verdicts. */
interface Summary {
  verdict: string;
  runs: {
    params: Record<string, unknown>;
    cases: {
      id: string;
      data: Record<string, unknown>;
      evaluations: Record<
        string,
        { score: number | null; passed: boolean | null; metadata: unknown }
      >;
    }[];
  }[];
}

/** Shared by the ports: prints the summary above as the last line. */
const REPORT = `import type { RunTestSuiteResult } from 'evalgate/testing';
export function report(result: RunTestSuiteResult<any, any>): void {
  const runs = result.runs.map((run) => ({
    params: run.params,
    cases: run.cases.map((c) => ({
      id: c.id,
      data: c.data,
      evaluations: Object.fromEntries(
        c.evaluations.map((e) => [e.evaluator, { score: e.score, passed: e.passed, metadata: e.metadata }]),
      ),
    })),
  }));
  console.log(JSON.stringify({ verdict: result.verdict, runs }));
}
`;

/** Seed 001, the quickstart, with its random drops made deterministic (every third case). */
const QUICKSTART = `import crypto from 'crypto';
import { BaseTestEvaluator, runTestSuite, type Evaluation } from 'evalgate/testing';
import { report } from './report.js';

interface MyTestCase {
  input: string;
  expectedSubstrings: string[];
}

let calls = 0;
async function testFn({ testCase }: { testCase: MyTestCase }): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 5));
  const substrings = testCase.input.split('-');
  if (testCase.input.startsWith('drop')) substrings.pop();
  calls++;
  return substrings.join('-');
}

class HasAllSubstrings extends BaseTestEvaluator<MyTestCase, string> {
  id = 'has-all-substrings';
  evaluateTestCase(args: { testCase: MyTestCase; output: string }): Evaluation {
    const missingSubstrings = args.testCase.expectedSubstrings.filter((s) => !args.output.includes(s));
    const score = missingSubstrings.length ? 0 : 1;
    return { score, threshold: { gte: 1 }, metadata: { missingSubstrings } };
  }
}

let inFlight = 0;
let mostInFlight = 0;
class IsFriendly extends BaseTestEvaluator<MyTestCase, string> {
  id = 'is-friendly';
  maxConcurrency = 5;
  async getScore(output: string): Promise<number> {
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 10));
    inFlight--;
    return output.length / 100;
  }
  async evaluateTestCase(args: { testCase: MyTestCase; output: string }): Promise<Evaluation> {
    const score = await this.getScore(args.output);
    return { score };
  }
}

function genTestCases(n: number): MyTestCase[] {
  const testCases: MyTestCase[] = [];
  for (let i = 0; i < n; i++) {
    const randomId = (i % 3 === 0 ? 'drop-' : 'keep-') + crypto.randomUUID();
    testCases.push({ input: randomId, expectedSubstrings: randomId.split('-') });
  }
  return testCases;
}

(async () => {
  const result = await runTestSuite<MyTestCase, string>({
    id: 'my-test-suite',
    fn: testFn,
    testCaseHash: ['input'],
    testCases: genTestCases(30),
    evaluators: [new HasAllSubstrings(), new IsFriendly()],
    maxTestCaseConcurrency: 10,
  });
  console.error(JSON.stringify({ calls, mostInFlight, exitCode: process.exitCode }));
  report(result);
})();
`;

/** Seed 000: a hash of the input properties only, an evaluator per Evaluation form, a grid. */
const REFERENCE = `import { createHash } from 'node:crypto';
import {
  BaseTestEvaluator,
  gridSearchAsyncLocalStorage,
  runTestSuite,
  type Evaluation,
} from 'evalgate/testing';
import { report } from './report.js';

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

interface MyTestCase {
  x: number;
  y: number;
  expectedSum: number;
  expectedProduct: number;
  expectedDifference?: number;
}

class MyEvaluator extends BaseTestEvaluator<MyTestCase, number> {
  id = 'my-evaluator';
  maxConcurrency = 5;
  evaluateTestCase(): Evaluation {
    return { score: 0.5 };
  }
}

/** The seed's Evaluation and Threshold examples, one per value of x. */
class Forms extends BaseTestEvaluator<MyTestCase, number> {
  id = 'forms';
  evaluateTestCase({ testCase }: { testCase: MyTestCase; output: number }): Evaluation {
    switch (testCase.x) {
      case 1:
        return { score: 0.5, threshold: { lt: 0.6 } };
      case 2:
        return {
          score: 0,
          threshold: { gte: 1 },
          metadata: { reason: 'An explanation of why the evaluation failed' },
        };
      case 3:
        return { score: 0.5, threshold: { gte: 1 } };
      default:
        return { score: 0.5, threshold: { gte: 0.4, lt: 0.6 } };
    }
  }
}

class Sum extends BaseTestEvaluator<MyTestCase, number> {
  id = 'sum';
  evaluateTestCase({ testCase, output }: { testCase: MyTestCase; output: number }): Evaluation {
    return { score: output === testCase.expectedSum ? 1 : 0, threshold: { gte: 1 } };
  }
}

const testCases: MyTestCase[] = [1, 2, 3, 4].map((x) => ({
  x,
  y: 2,
  expectedSum: x + 2,
  expectedProduct: x * 2,
  // The test case evolves: an expectation added in the second run keeps its identity.
  ...(process.argv[2] === 'evolved' ? { expectedDifference: x - 2 } : {}),
}));

const result = await runTestSuite<MyTestCase, number>({
  id: 'my-test-suite',
  testCases,
  testCaseHash: (testCase) => md5(\`\${testCase.x}-\${testCase.y}\`),
  evaluators: [new MyEvaluator(), new Forms(), new Sum()],
  fn: async ({ testCase }) => {
    const offset = gridSearchAsyncLocalStorage.getStore()?.offset as number;
    return testCase.x + testCase.y + offset;
  },
  maxTestCaseConcurrency: 2,
  gridSearchParams: { offset: [0, 1] },
  quiet: true,
  setExitCode: false,
});
report(result);
`;

/**
 * A suite written for an earlier SDK release, which took `maxEvaluatorConcurrency` (a JavaScript
 * file: TypeScript already refuses the argument). Run to see what it is told.
 */
const FORMER_ARGUMENT = `import { BaseTestEvaluator, runTestSuite, UsageError } from 'evalgate/testing';

class Formatting extends BaseTestEvaluator {
  id = 'formatting';
  evaluateTestCase({ output }) {
    return { score: output.startsWith('* ') ? 1 : 0, threshold: { gte: 1 } };
  }
}
try {
  await runTestSuite({
    id: 'study-guide-outline',
    testCases: [{ topic: 'Calculus' }],
    testCaseHash: ['topic'],
    evaluators: [new Formatting()],
    fn: ({ testCase }) => '* ' + testCase.topic,
    maxTestCaseConcurrency: 5,
    maxEvaluatorConcurrency: 2,
  });
  console.log(JSON.stringify({ ran: true }));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.log(JSON.stringify({ usageError: error.message }));
}
`;

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

let project = '';

/** Runs one port under tsx; its last stdout line, parsed, and the process's code and stderr. */
async function runPort(
  file: string,
  args: string[] = [],
): Promise<{ code: number | null; stderr: string; last: unknown }> {
  const result = await runNode(['--import', 'tsx', file, ...args], { cwd: project });
  const lines = result.stdout.trim().split('\n');
  let last: unknown;
  try {
    last = JSON.parse(lines.at(-1) ?? '');
  } catch {
    assert.fail(`${file} printed no summary:\n${result.stdout}\n${result.stderr}`);
  }
  return { code: result.code, stderr: result.stderr, last };
}

describe('the SDK examples of the seeds, ported to the built package', () => {
  before(() => {
    project = scratch();
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    symlinkSync(repoRoot, join(project, 'node_modules', 'evalgate'), 'dir');
    symlinkSync(join(repoRoot, 'node_modules', 'tsx'), join(project, 'node_modules', 'tsx'), 'dir');
    writeFiles(project, {
      'package.json': '{ "private": true, "type": "module" }\n',
      'report.ts': REPORT,
      'quickstart.ts': QUICKSTART,
      'reference.ts': REFERENCE,
      'former-argument.mjs': FORMER_ARGUMENT,
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          types: ['node'],
          typeRoots: [join(repoRoot, 'node_modules', '@types')],
        },
        files: ['report.ts', 'quickstart.ts', 'reference.ts'],
      }),
    });
  });

  it('type-check against the declarations the package ships', { timeout: 120_000 }, () => {
    assert.equal(typeErrors(project), '');
  });

  it('001 quickstart: the dropped substrings fail, is-friendly only reports', async () => {
    const { code, stderr, last } = await runPort('quickstart.ts');
    const summary = last as Summary;
    const cases = summary.runs[0]?.cases ?? [];
    assert.equal(cases.length, 30);
    for (const c of cases) {
      const input = String(c.data.input);
      const dropped = input.startsWith('drop');
      const has = c.evaluations['has-all-substrings'];
      assert.equal(has?.passed, !dropped, input);
      assert.deepEqual(has?.metadata, {
        missingSubstrings: dropped ? [input.split('-').at(-1)] : [],
      });
      // No threshold: the score is reported and pass / fail is undefined.
      assert.equal(c.evaluations['is-friendly']?.passed, null);
      const output = dropped ? input.slice(0, input.lastIndexOf('-')) : input;
      assert.equal(c.evaluations['is-friendly']?.score, output.length / 100);
    }
    assert.equal(summary.verdict, 'fail');
    assert.equal(code, 1, stderr);
    const counts = JSON.parse(stderr.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;
    assert.equal(counts.calls, 30);
    assert.ok(counts.mostInFlight !== undefined && counts.mostInFlight <= 5, stderr);
  });

  it('000 reference: the md5 hash is the id, thresholds decide, the grid makes a run per point', async () => {
    const first = (await runPort('reference.ts')).last as Summary;
    assert.deepEqual(
      first.runs.map((run) => run.params),
      [{ offset: 0 }, { offset: 1 }],
    );
    for (const run of first.runs) {
      assert.deepEqual(
        run.cases.map((c) => c.id),
        [1, 2, 3, 4].map((x) => md5(`${x}-2`)),
      );
      const cases = run.cases.map((c) => c.evaluations);
      assert.deepEqual(
        cases.map((e) => e['my-evaluator']?.passed),
        [null, null, null, null],
      );
      // lt 0.6 passes 0.5; gte 1 fails 0 and 0.5; gte 0.4 and lt 0.6 passes 0.5.
      assert.deepEqual(
        cases.map((e) => e.forms?.passed),
        [true, false, false, true],
      );
      assert.deepEqual(cases[1]?.forms?.metadata, {
        reason: 'An explanation of why the evaluation failed',
      });
      const offset = run.params.offset;
      assert.deepEqual(
        cases.map((e) => e.sum?.passed),
        [1, 2, 3, 4].map(() => offset === 0),
      );
    }
    assert.equal(first.verdict, 'fail');

    const evolved = (await runPort('reference.ts', ['evolved'])).last as Summary;
    assert.deepEqual(
      evolved.runs[0]?.cases.map((c) => [c.id, c.data.expectedDifference]),
      [1, 2, 3, 4].map((x) => [md5(`${x}-2`), x - 2]),
    );
  });

  it('maxEvaluatorConcurrency of earlier SDKs is refused with what to write instead', async () => {
    const { last } = await runPort('former-argument.mjs');
    const message = (last as { usageError?: string }).usageError ?? '';
    assert.match(
      message,
      /^runTestSuite\(study-guide-outline\): unknown argument maxEvaluatorConcurrency: /,
    );
    assert.match(message, /maxConcurrency on the evaluator/);
    // The nearest name is an argument of another meaning: it must not be offered.
    assert.doesNotMatch(message, /did you mean/);
  });
});
