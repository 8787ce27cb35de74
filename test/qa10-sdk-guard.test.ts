/**
 * `runTestSuite` watches the process as `evals run` does (QA 10: H2, H3, H4, M2, M7): a call of
 * user code that never settles is errored and the run goes on; user code that ends the process
 * (`process.exit(0)`, an uncaught exception, an unhandled rejection) leaves the partial artifact
 * written, the case named on stderr and exit code 1, the error's message in the case's error;
 * SIGINT / SIGTERM stop the run, which returns interrupted, with exit code 130. Each script runs
 * as a real child process (node + tsx importing src/), since these are endings of the process.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { repoRoot, runNode, scratch, writeFiles } from './helpers/cli.ts';
import { sdkScript } from './helpers/sdk-script.ts';

const TSX = import.meta.resolve('tsx');

function artifact(dir: string, name = 'out.json'): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, name), 'utf8')) as ResultsArtifact;
}

/** The recorded errors of the artifact's cases, by the `k` of each case's data. */
function errors(dir: string): Record<string, string | null> {
  const cases = artifact(dir).runs[0]!.cases;
  return Object.fromEntries(cases.map((c) => [String((c.data as { k: unknown }).k), c.error]));
}

/** Three cases run one at a time; case 2's `fn` is `body`. */
function suite(body: string, extra = ''): string {
  return `{ id: 'g', testCases: [{ k: 1 }, { k: 2 }, { k: 3 }], testCaseHash: ['k'],
    maxTestCaseConcurrency: 1, output: 'out.json', ${extra}
    fn: async ({ testCase }) => { if (testCase.k === 2) { ${body} } return 'x'; } }`;
}

describe('runTestSuite: a call of user code that never settles (no timeoutMs)', () => {
  it('errors the call as never settled and goes on (IIFE style)', { timeout: 60_000 }, async () => {
    const { dir, run } = sdkScript(`(async () => {
  const result = await runTestSuite(${suite('await new Promise(() => {});')});
  console.log('returned', result.interrupted, result.verdict);
})();\n`);
    const out = await run();
    assert.equal(out.code, 1, out.stderr);
    assert.match(out.stderr, /warning: 1 call\(s\) of user code never settled/);
    assert.match(out.stdout, /returned false fail/);
    const errs = errors(dir);
    assert.equal(artifact(dir).interrupted, false);
    assert.deepEqual(Object.keys(errs).sort(), ['1', '2', '3']);
    assert.equal(errs['1'], null);
    assert.match(errs['2']!, /^never settled: /);
  });

  it(
    'does the same for an evaluator, with top-level await (not exit 13)',
    { timeout: 60_000 },
    async () => {
      const { dir, run } =
        sdkScript(`const result = await runTestSuite({ id: 'g', testCases: [{ k: 1 }, { k: 2 }],
  testCaseHash: ['k'], output: 'out.json', fn: () => 'x',
  evaluators: [{ id: 'e', evaluateTestCase: ({ testCase }) =>
    testCase.k === 2 ? new Promise(() => {}) : { score: 1 } }] });
console.log('returned', result.interrupted, result.verdict);\n`);
      const out = await run();
      assert.equal(out.code, 1, out.stderr);
      assert.match(out.stderr, /never settled/);
      assert.match(out.stdout, /returned false fail/);
      const evaluations = artifact(dir).runs[0]!.cases.map((c) => c.evaluations[0]!.error);
      assert.equal(evaluations[0], null);
      assert.match(evaluations[1]!, /^never settled: /);
    },
  );
});

describe('runTestSuite: user code that ends the process', () => {
  it(
    'process.exit(0) in fn: exit 1, the case named, the partial artifact written',
    { timeout: 60_000 },
    async () => {
      const { dir, run } = sdkScript(`await runTestSuite(${suite('process.exit(0);')});\n`);
      const out = await run();
      assert.equal(out.code, 1, out.stderr);
      const line = out.stderr.split('\n').find((l) => l.startsWith('error: '));
      assert.match(
        line ?? '',
        /^error: the process was ended \(exit code 0\) from inside the run, by user code of case "[0-9a-f]+" of suite "g"; that case is recorded as errored; the partial artifact is written to out\.json \(interrupted: true\)$/,
        out.stderr,
      );
      assert.equal(artifact(dir).interrupted, true);
      const errs = errors(dir);
      assert.equal(line!.includes(artifact(dir).runs[0]!.cases[1]!.id), true);
      assert.deepEqual(errs, {
        1: null,
        2: 'the process exited (exit code 0) while this case ran, before it finished',
      });
    },
  );

  it(
    'an uncaught exception: exit 1, the case named, its message the case error',
    { timeout: 60_000 },
    async () => {
      const { dir, run } = sdkScript(
        `await runTestSuite(${suite("setTimeout(() => { throw new Error('thrown from a timer'); }, 1); await new Promise((r) => setTimeout(r, 1000));")});\n`,
      );
      const out = await run();
      assert.equal(out.code, 1, out.stderr);
      assert.match(
        out.stderr,
        /error: the process was ended \(exit code 1\) from inside the run \(an uncaught exception\), while 1 case\(s\) were in flight: case "[0-9a-f]+" of suite "g"; they are recorded as errored; the partial artifact is written to out\.json \(interrupted: true\)/,
      );
      assert.equal(artifact(dir).interrupted, true);
      assert.deepEqual(errors(dir), {
        1: null,
        2: 'the process exited (exit code 1) while this case ran, before it finished: an uncaught exception: thrown from a timer',
      });
    },
  );

  it('an unhandled rejection: the same, its message kept (M7)', { timeout: 60_000 }, async () => {
    const { dir, run } = sdkScript(
      `await runTestSuite(${suite("Promise.reject(new Error('stray rejection')); await new Promise((r) => setTimeout(r, 1000));")});\n`,
    );
    const out = await run();
    assert.equal(out.code, 1, out.stderr);
    assert.match(
      out.stderr,
      /error: the process was ended \(exit code 1\) from inside the run \(an unhandled rejection\), while 1 case\(s\) were in flight: case "[0-9a-f]+" of suite "g"/,
    );
    assert.equal(artifact(dir).interrupted, true);
    assert.deepEqual(errors(dir), {
      1: null,
      2: 'the process exited (exit code 1) while this case ran, before it finished: an unhandled rejection: stray rejection',
    });
  });

  it(
    'without output: the line names the case and says nothing is written; exit 1',
    { timeout: 60_000 },
    async () => {
      const { dir, run } = sdkScript(
        `await runTestSuite(${suite('process.exit(0);').replace("output: 'out.json',", '')});\n`,
      );
      const out = await run();
      assert.equal(out.code, 1, out.stderr);
      assert.match(
        out.stderr,
        /by user code of case "[0-9a-f]+" of suite "g"; that case is recorded as errored; no artifact is written \(none was asked for\)/,
      );
      assert.equal(existsSync(join(dir, 'out.json')), false);
    },
  );
});

/**
 * Five cases one at a time; case 2 notes it started (the file `started`, once case 1's result is
 * in) and waits until the run stops it (its `signal` is aborted at the interrupt), so a signal
 * sent once that file exists always comes while it is in flight.
 */
const SLOW = `import { writeFileSync } from 'node:fs';
const counts = () => ['SIGINT', 'SIGTERM', 'exit', 'beforeExit', 'uncaughtExceptionMonitor'].map((e) => process.listenerCount(e)).join(',');
const before = counts();
const result = await runTestSuite({ id: 'g', testCases: [1, 2, 3, 4, 5].map((k) => ({ k })),
  testCaseHash: ['k'], maxTestCaseConcurrency: 1, output: 'out.json', EXTRA
  fn: async ({ testCase, signal }) => {
    if (testCase.k === 2) {
      writeFileSync('started', '');
      // A timer keeps the process alive meanwhile (a bare promise would never settle).
      await new Promise((r) => {
        const timer = setTimeout(r, 60000);
        signal.addEventListener('abort', () => { clearTimeout(timer); r(); });
      });
    }
    return 'x';
  } });
console.log('returned', result.interrupted, result.runs[0].cases.length, process.exitCode, before === counts());\n`;

describe('runTestSuite: SIGINT / SIGTERM with no signal given (M2)', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(
      `${signal}: the run stops, returns interrupted, the partial artifact is written, exit 130`,
      { timeout: 60_000 },
      async () => {
        const { dir, run } = sdkScript(SLOW.replace('EXTRA', ''));
        const out = await run({ signals: [{ signal, file: 'started' }] });
        assert.equal(out.code, 130, out.stderr);
        assert.equal(out.signal, null);
        assert.match(
          out.stderr,
          /stopping: no new cases start; runTestSuite returns the cases that finished/,
        );
        // It returned (to code that could go on), with every listener it added removed.
        assert.match(out.stdout, /returned true 1 130 true/);
        const written = artifact(dir);
        assert.equal(written.interrupted, true);
        assert.deepEqual(
          written.runs[0]!.cases.map((c) => [c.data, c.error]),
          [[{ k: 1 }, null]],
        );
      },
    );
  }

  it(
    'with setExitCode: false it returns interrupted and leaves the exit code alone',
    { timeout: 60_000 },
    async () => {
      const { dir, run } = sdkScript(SLOW.replace('EXTRA', 'setExitCode: false,'));
      const out = await run({ signals: [{ signal: 'SIGINT', file: 'started' }] });
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /returned true 1 undefined true/);
      assert.equal(artifact(dir).interrupted, true);
    },
  );

  it(
    'with a signal of the caller given, an OS signal still stops the run',
    { timeout: 60_000 },
    async () => {
      const { dir, run } = sdkScript(
        SLOW.replace('EXTRA', 'signal: new AbortController().signal,'),
      );
      const out = await run({ signals: [{ signal: 'SIGTERM', file: 'started' }] });
      assert.equal(out.code, 130, out.stderr);
      assert.match(out.stdout, /returned true 1 130 true/);
      assert.equal(artifact(dir).interrupted, true);
    },
  );
});

describe('evals run: an unhandled rejection in user code (M7)', () => {
  it(
    "records the rejection's message, scrubbed of secrets, as the case error",
    { timeout: 60_000 },
    async () => {
      const dir = scratch();
      const secret = 'sk-qa10-very-secret-value';
      writeFiles(dir, {
        'package.json': '{ "private": true, "type": "module" }\n',
        'evals.yaml': [
          'version: 1',
          'suites:',
          '  - id: s',
          '    concurrency: 1',
          '    testset: { cases: [ { k: a }, { k: b } ] }',
          '    hash: [k]',
          '    function: ./fn.mjs#fn',
          '',
        ].join('\n'),
        'fn.mjs': `export async function fn({ testCase }) {
  if (testCase.k === 'b') {
    Promise.reject(new Error('stray rejection with ' + process.env.QA10_API_KEY));
    await new Promise((r) => setTimeout(r, 1000));
  }
  return testCase.k;
}\n`,
        // The CLI from src/, as bin/evals.js runs the built one.
        'evals.mjs': `import { main } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'src', 'cli', 'main.ts')).href)};
process.exitCode = await main(process.argv.slice(2));\n`,
      });
      const out = await runNode(['--import', TSX, 'evals.mjs', 'run', '-o', 'out.json'], {
        cwd: dir,
        env: { QA10_API_KEY: secret },
      });
      assert.equal(out.code, 1, out.stderr);
      const written = artifact(dir);
      assert.equal(written.interrupted, true);
      const error = written.runs[0]!.cases.find((c) => (c.data as { k: string }).k === 'b')!.error;
      assert.equal(
        error,
        'the process exited (exit code 1) while this case ran, before it finished: an unhandled rejection: stray rejection with [redacted]',
      );
      assert.equal(readFileSync(join(dir, 'out.json'), 'utf8').includes(secret), false);
      assert.match(
        out.stderr,
        /error: the process was ended \(exit code 1\) from inside the run \(an unhandled rejection\)/,
      );
    },
  );
});
