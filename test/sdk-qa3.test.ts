/**
 * The SDK findings of QA round 3: identical test cases collapsed without a word, a resume hint
 * for `runTestSuite` artifacts that the CLI cannot follow, `evals show` on an artifact with no
 * run, `EvaluatorFn` without its `options`, and the `evals init` starter (its next commands,
 * its TypeScript under `noUncheckedIndexedAccess`).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, mock } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { STARTERS } from '../src/cli/init-templates.ts';
import { UsageError } from '../src/shared/errors.ts';
import type { EvaluatorFn } from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { consumerTsconfig, tsc } from './helpers/consumer-typecheck.ts';
import { runInProcess } from './helpers/in-process.ts';
import { suiteProject } from './helpers/suite-project.ts';

interface Case {
  q: string;
}

/**
 * What `fn` wrote to stderr, the process's stream held for its duration. Not stdout: in a test
 * file's process the test runner reports over it, and holding it would drop those reports.
 */
async function printed(fn: () => Promise<unknown>): Promise<{ stderr: string }> {
  const out = { stderr: '' };
  const held = mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => {
    out.stderr += String(chunk);
    return true;
  });
  try {
    await fn();
  } finally {
    held.mock.restore();
  }
  return out;
}

describe('runTestSuite: identical test cases', () => {
  const three: Case[] = [{ q: 'a' }, { q: 'b' }, { q: 'a' }, { q: 'a' }];

  for (const [name, testCaseHash] of [
    ['hash fields', ['q'] as ['q']],
    ['a hash function', (testCase: Case) => testCase.q],
  ] as const) {
    it(`run once, with a warning on stderr naming each copy (${name})`, async () => {
      let calls = 0;
      let cases: number | undefined;
      const { stderr } = await printed(async () => {
        const result = await runTestSuite<Case, string>({
          id: 's',
          testCases: three,
          testCaseHash,
          fn: ({ testCase }) => (calls++, testCase.q),
          setExitCode: false,
        });
        cases = result.runs[0]?.cases.length;
      });
      assert.equal(cases, 2);
      assert.equal(calls, 2);
      const warnings = stderr.split('\n').filter((line) => line.startsWith('warning:'));
      assert.deepEqual(warnings, [
        'warning: runTestSuite(s): test case 3 repeats test case 1 exactly: collapsed into one case',
        'warning: runTestSuite(s): test case 4 repeats test case 1 exactly: collapsed into one case',
        'warning: runTestSuite(s): a case listed more than once runs once; to run each case several times, set trials',
      ]);
    });
  }

  it('print nothing with quiet, not even where the results were written', async () => {
    const output = join(scratch(), 'results.json');
    const { stderr } = await printed(() =>
      runTestSuite<Case, string>({
        id: 's',
        testCases: three,
        testCaseHash: ['q'],
        fn: ({ testCase }) => testCase.q,
        quiet: true,
        setExitCode: false,
        output,
      }),
    );
    assert.equal(stderr, '');
    assert.ok(readFileSync(output, 'utf8').includes('"verdict"'));
  });

  it('one identity with other content still throws', async () => {
    await assert.rejects(
      runTestSuite({
        id: 's',
        testCases: [
          { q: 'a', n: 1 },
          { q: 'a', n: 2 },
        ],
        testCaseHash: ['q'],
        fn: () => 1,
        quiet: true,
      }),
      (error) =>
        error instanceof UsageError &&
        error.message.includes(
          'duplicate case identity: testCases[0] and testCases[1] have the same testCaseHash fields, q "a"',
        ),
    );
  });
});

/** A folder holding `sdk.json`: a `runTestSuite` run of 4 cases, interrupted after the first. */
async function interruptedSdkArtifact(): Promise<string> {
  const dir = scratch();
  const stop = new AbortController();
  const result = await runTestSuite<Case, string>({
    id: 's',
    testCases: [{ q: 'a' }, { q: 'b' }, { q: 'c' }, { q: 'd' }],
    testCaseHash: ['q'],
    maxTestCaseConcurrency: 1,
    fn: ({ testCase }) => {
      if (testCase.q === 'b') stop.abort();
      return testCase.q;
    },
    signal: stop.signal,
    output: join(dir, 'sdk.json'),
    quiet: true,
    setExitCode: false,
  });
  assert.equal(result.interrupted, true);
  return dir;
}

describe('an interrupted runTestSuite artifact and the CLI', () => {
  it('evals show --failed gives no resume hint: runTestSuite is called again', async () => {
    const dir = await interruptedSdkArtifact();
    const show = await runInProcess(['show', 'sdk.json', '--failed'], dir);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /interrupted: \d of its 4 planned cases never ran/);
    assert.match(
      show.stdout,
      /evals run --resume cannot finish an SDK run: call runTestSuite again to rerun the suite/,
    );
    assert.doesNotMatch(show.stdout, /--resume sdk\.json/);
  });

  it('evals run --resume refuses it as an SDK run, not as an old file', async () => {
    const dir = await interruptedSdkArtifact();
    const resume = await runInProcess(['run', '--resume', 'sdk.json'], dir);
    assert.equal(resume.code, 2);
    assert.equal(
      resume.stderr,
      'error: sdk.json is a runTestSuite artifact (config runTestSuite:s): evals run --resume cannot resume an SDK run, which has no evals.yaml to run the missing cases from; call runTestSuite again to rerun the suite\n',
    );
  });

  it('evals show on an artifact with no run (an empty grid, before it was refused) says so', async () => {
    const dir = await interruptedSdkArtifact();
    const artifact = JSON.parse(readFileSync(join(dir, 'sdk.json'), 'utf8')) as object;
    writeFileSync(
      join(dir, 'none.json'),
      JSON.stringify({ ...artifact, interrupted: false, verdict: 'pass', runs: [] }),
    );
    for (const flags of [[], ['--failed']]) {
      const show = await runInProcess(['show', 'none.json', ...flags], dir);
      assert.equal(show.code, 0, show.stderr);
      assert.match(show.stdout, /^none\.json: 0 runs, 0 cases/);
      assert.match(show.stdout, /none\.json holds no run, so there is no case to show/);
    }
  });

  it('evals show names the filters no run meets together, without a stray separator', async () => {
    const dir = scratch();
    await runTestSuite<Case, string>({
      id: 's',
      testCases: [{ q: 'a' }],
      testCaseHash: ['q'],
      fn: ({ testCase }) => testCase.q,
      gridSearchParams: { a: [1, 2] },
      output: join(dir, 'grid.json'),
      quiet: true,
      setExitCode: false,
    });
    // Runs at a=1 b=1 and a=2 b=2: each filter value exists, their pair does not.
    const artifact = JSON.parse(readFileSync(join(dir, 'grid.json'), 'utf8')) as {
      runs: { params: object }[];
    };
    artifact.runs.forEach((run, i) => (run.params = { a: i + 1, b: i + 1 }));
    writeFileSync(join(dir, 'pairs.json'), JSON.stringify(artifact));
    const show = await runInProcess(
      ['show', 'pairs.json', '--suite', 's', '--grid', 'a=1', '--grid', 'b=2'],
      dir,
    );
    assert.equal(show.code, 2);
    assert.equal(
      show.stderr,
      'error: no run is both in s and at a=1 b=2 (see evals show --help)\n',
    );
  });
});

// EvaluatorFn takes the options evals.yaml's `with:` hands in: typed by annotation or by the
// third type argument, and left out by a function that ignores them (checked by tsc --noEmit,
// and at run time below).
export const byAnnotation: EvaluatorFn<Case, string> = ({ output }, options: { max: number }) => ({
  score: output.length <= options.max ? 1 : 0,
});
export const byTypeArgument: EvaluatorFn<Case, string, { max?: number }> = (
  { output },
  { max = 3 },
) => ({ score: output.length <= max ? 1 : 0 });
export const withoutOptions: EvaluatorFn<Case, string> = ({ output }) => ({
  score: output ? 1 : 0,
});

describe('EvaluatorFn and the evals init starter', () => {
  it("a strict consumer type-checks the starter's TypeScript and evaluators with options", () => {
    const project = scratch();
    writeFiles(project, {
      ...STARTERS.function.files,
      'evaluators/max-length.ts': `import type { EvaluatorFn } from 'evalgate';
type Limit = { max: number };
interface Options { max: number }
export const annotated: EvaluatorFn<{ question: string }, string> = ({ output }, options: Limit) => ({
  score: output.length <= options.max ? 1 : 0,
});
export const typed: EvaluatorFn<{ question: string }, string, Options> = ({ output }, { max }) => ({
  score: output.length <= max ? 1 : 0,
});
export const untyped: EvaluatorFn<{ question: string }, string> = ({ output }, options) => ({
  score: typeof options.max === 'number' && output.length > options.max ? 0 : 1,
});
`,
      'package.json': '{ "private": true, "type": "module" }\n',
      // The types the starter imports live in src/types (which imports nothing): checking
      // them there spares compiling all of src/ for one consumer.
      'tsconfig.json': consumerTsconfig(
        ['app/answer.ts', 'evaluators/polite.ts', 'evaluators/max-length.ts'],
        ['types', 'index.ts'],
        { noUncheckedIndexedAccess: true },
      ),
    });
    // Throws with the compiler's messages when the consumer does not type-check.
    execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8', stdio: 'pipe' });
  });

  it('a plain evaluator in evals.yaml gets its with: options as the second argument', async () => {
    const dir = suiteProject(
      [
        'testset: { cases: [{ output: ab }, { output: abcdef }] }',
        'evaluators:',
        '  - use: ./max-length.ts#maxLength',
        '    with: { max: 3 }',
        '    threshold: { gte: 1 }',
      ],
      {
        'max-length.ts': `export const maxLength = ({ output }, options) => ({ score: output.length <= options.max ? 1 : 0 });\n`,
      },
    );
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      runs: { cases: { passed: boolean }[] }[];
    };
    assert.deepEqual(
      artifact.runs[0]?.cases.map((c) => c.passed),
      [true, false],
    );
  });

  it('evals init DIR says to cd there, so the results land beside its .gitignore', async () => {
    const dir = scratch();
    const init = await runInProcess(['init', 'app'], dir);
    assert.equal(init.code, 0, init.stderr);
    const next = init.stdout.slice(init.stdout.indexOf('Next:\n'));
    assert.equal(
      next,
      'Next:\n  cd app\n  npm i -D evalgate   # if it is not installed yet\n  npx evals run\n',
    );
    const app = join(dir, 'app');
    const run = await runInProcess(['run'], app);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(readFileSync(join(app, 'evals-results.json'), 'utf8').includes('"verdict": "pass"'));
    assert.match(readFileSync(join(app, '.gitignore'), 'utf8'), /^evals-results\.json$/m);
  });

  it('evals init quotes a folder the shell would split, and runs the extra steps there', async () => {
    const dir = scratch();
    const init = await runInProcess(['init', '--template', 'http', 'my app'], dir);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /^ {2}cd 'my app'\n.*\n {2}node server\.mjs & +# or set API_URL/m);
    assert.match(init.stdout, /^ {2}npx evals run\n$/m);
  });
});
