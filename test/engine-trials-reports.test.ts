/**
 * `trials: N` outside the engine: `runTestSuite({ trials })`, the reports (artifact schema,
 * terminal summary, JUnit, markdown) and `evals run --trials`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { cli } from '../src/cli/main.ts';
import type { CommandContext } from '../src/pipeline/context.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import { renderJUnit } from '../src/report/junit.ts';
import { renderMarkdownReport } from '../src/report/markdown.ts';
import { renderSummary } from '../src/report/summary-table.ts';
import { runSuites } from '../src/run/engine.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { reported } from './helpers/cases.ts';
import { callCounter, suite, threshold } from './helpers/trials-suite.ts';
import { artifactOf } from './report-fixture-large.ts';

describe('runTestSuite({ trials })', () => {
  it('runs each case N times and rejects a bad count', async () => {
    const count = callCounter();
    const { runs } = await runTestSuite({
      id: 'api',
      testCases: [{ i: 0 }],
      testCaseHash: ['i'],
      fn: ({ testCase }) => count(testCase),
      evaluators: [
        {
          id: 'odd',
          threshold: { gte: 1 },
          evaluateTestCase: ({ output }) => ({ score: output % 2 }),
        },
      ],
      trials: 3,
      quiet: true,
      setExitCode: false,
    });
    assert.deepEqual(
      runs[0]?.cases.map((c) => [c.passed, c.flaky, c.trialPassRate]),
      [[true, true, 2 / 3]],
    );
    await assert.rejects(
      runTestSuite({
        id: 'api',
        testCases: [{ i: 0 }],
        testCaseHash: ['i'],
        fn: () => 1,
        trials: 0,
        quiet: true,
      }),
      /runTestSuite\(api\): trials must be a whole number of at least 1, got 0/,
    );
  });
});

describe('trials in the reports', () => {
  async function artifact(): Promise<ResultsArtifact> {
    const count = callCounter();
    const { runs } = await runSuites([
      suite({
        rows: [{ i: 0 }, { i: 1 }, { i: 2 }],
        fn: ({ testCase }) => ({ i: testCase.i, call: count(testCase) }),
        evaluators: [
          {
            id: 'exact',
            threshold: threshold(1),
            // Case 0: fails the 2nd trial (flaky pass); case 1: passes only the 2nd (flaky fail);
            // case 2: always passes.
            evaluateTestCase: ({ output }) => {
              const { i, call } = output as { i: number; call: number };
              const pass = i === 2 || (i === 0 ? call !== 2 : call === 2);
              return { score: pass ? 1 : 0 };
            },
          },
        ],
      }),
    ]);
    return artifactOf(runs);
  }

  it('the artifact with trials matches the results schema', async () => {
    const built = await artifact();
    assert.deepEqual(validateArtifact(JSON.parse(JSON.stringify(built))), []);
    assert.equal(built.runs[0]?.summary.flaky, 2);
  });

  it('the terminal summary shows the flaky count and marks flaky cases', async () => {
    const text = renderSummary((await artifact()).runs, { color: false });
    assert.match(text, /pass rate {2}flaky\n.*66\.7% {4,}2\n/);
    assert.match(text, /✗ c1 {2}cases\.jsonl:2 {2}flaky 1\/3 {2}exact 0\.333 \(needs ≥ 1\)/);
    assert.match(
      text,
      /cases that passed but are flaky:\n {4}~ c0 {2}cases\.jsonl:1 {2}flaky 2\/3\n/,
    );
  });

  it('JUnit marks flaky cases in the failure message or in system-out', async () => {
    const xml = renderJUnit(await artifact());
    assert.match(xml, /<failure message="flaky 1\/3; exact 0\.333 \(needs ≥ 1\)"/);
    assert.match(xml, /<system-out>flaky 2\/3 trials passed<\/system-out>/);
    assert.match(xml, /name="c2" classname="trials" time="[\d.]+" file="cases\.jsonl" line="3"\/>/);
  });

  it('the markdown report lists flaky cases with their trials passed', async () => {
    const md = renderMarkdownReport(reported(await artifact()), {
      title: 'evals',
      marker: '',
      maxChars: 65_536,
      sourceRoot: '',
    });
    assert.match(
      md,
      /\*\*2 flaky cases\*\* \(passed some trials, failed others; trials passed\): `c0` 2\/3 · `c1` 1\/3/,
    );
    assert.match(md, /`c1` · `cases\.jsonl:2` · \*\*failed\*\* · flaky 1\/3/);
  });
});

describe('evals run --trials', () => {
  function context(cwd: string): { ctx: CommandContext; out: () => string; err: () => string } {
    let out = '';
    let err = '';
    return {
      ctx: {
        cwd,
        env: { NO_COLOR: '1' },
        stdout: { write: (text: string) => (out += text) },
        stderr: { write: (text: string) => (err += text) },
      },
      out: () => out,
      err: () => err,
    };
  }

  /** A project whose function fails the 2nd call of every case, with `trials: 2` in the config. */
  function project(): string {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': `version: 1
suites:
  - id: flaky
    trials: 2
    function: ./fn.ts#answer
    testset:
      cases:
        - { __dedup_id__: a, word: one }
        - { __dedup_id__: b, word: two }
    evaluators:
      - use: is-equals
        with: { expected: "{{case.word}}" }
`,
      'fn.ts': `const calls = new Map<string, number>();
export function answer({ testCase }: { testCase: { word: string } }): string {
  const n = (calls.get(testCase.word) ?? 0) + 1;
  calls.set(testCase.word, n);
  return n === 2 ? 'nope' : testCase.word;
}
`,
    });
    return dir;
  }

  it('runs every case N times and writes a schema-valid artifact', async () => {
    const dir = project();
    const { ctx, out, err } = context(dir);
    const code = await cli(['run', '-o', 'r.json', '--trials', '3', '--junit', 'j.xml'], ctx);
    assert.equal(code, 0, err() + out());
    const value: unknown = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    assert.deepEqual(validateArtifact(value), []);
    const run = (value as ResultsArtifact).runs[0]!;
    assert.deepEqual(
      run.cases.map((c) => [c.id, c.passed, c.flaky, c.trialPassRate, c.trials?.length]),
      [
        ['a', true, true, 2 / 3, 3],
        ['b', true, true, 2 / 3, 3],
      ],
    );
    assert.equal(run.summary.flaky, 2);
    assert.deepEqual(run.cases[0]?.evaluations[0]?.metadata, {
      trials: 3,
      scored: 3,
      passedTrials: 2,
    });
    assert.match(out(), /~ a {2}evals\.yaml:\d+ {2}flaky 2\/3/);
    assert.match(err(), /2\/2/, 'progress counts cases, not trials');
    const junit = readFileSync(join(dir, 'j.xml'), 'utf8');
    assert.match(junit, /flaky 2\/3 trials passed/);
    // The report was streamed from the case spool: it is what the artifact renders to.
    assert.equal(junit, renderJUnit(value as ResultsArtifact));
  });

  it('without --trials the config decides; a bad --trials is a usage error', async () => {
    const dir = project();
    const { ctx, err } = context(dir);
    // trials: 2 in the config and a failing 2nd call: 1 of 2 is no majority.
    assert.equal(await cli(['run', '-o', 'r.json'], ctx), 1);
    const run = (JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ResultsArtifact).runs[0]!;
    assert.deepEqual(
      run.cases.map((c) => [c.trials?.length, c.passed, c.flaky]),
      [
        [2, false, true],
        [2, false, true],
      ],
    );

    for (const bad of ['0', 'x', '1.5']) {
      const usage = context(dir);
      assert.equal(await cli(['run', '--trials', bad], usage.ctx), 2);
      assert.match(
        usage.err(),
        new RegExp(
          `--trials: expected a whole number of at least 1, found "${bad.replace('.', '\\.')}"`,
        ),
      );
    }
    assert.equal(err().includes('Error:'), false);
  });
});
