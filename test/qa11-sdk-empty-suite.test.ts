/**
 * QA round 11: `runTestSuite` with `testCases: []` failed with the gate's evals.yaml wording,
 * `no cases matched (allowEmpty: true on the suite accepts this)`: a suite from code has no
 * suite in a YAML file, no testset and no `--tag`. It now says that `testCases` was empty and
 * which argument lets that pass; evals.yaml keeps its own words (test/empty-suites.test.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { scratch } from './helpers/cli.ts';
import { sdkScript } from './helpers/sdk-script.ts';

const SDK_WORDS =
  'testCases was empty (pass allowEmpty: true to runTestSuite to let a suite without test cases pass)';

describe('runTestSuite: an empty suite is worded for the SDK', () => {
  it('the failed condition names testCases and allowEmpty, in the result and the artifact', async () => {
    const output = join(scratch(), 'out.json');
    const result = await runTestSuite<{ q: string }, string>({
      id: 'empty',
      testCases: [],
      testCaseHash: ['q'],
      fn: () => 'x',
      output,
      quiet: true,
      setExitCode: false,
    });
    assert.equal(result.verdict, 'fail');
    const condition = result.runs[0]!.gate.conditions.find((c) => c.name === 'cases');
    assert.deepEqual(condition, {
      name: 'cases',
      expected: 'at least 1 case',
      actual: SDK_WORDS,
      passed: false,
    });
    const written = readFileSync(output, 'utf8');
    assert.equal(written.includes('on the suite'), false, written);
    const artifact = JSON.parse(written) as ResultsArtifact;
    assert.equal(
      artifact.runs[0]!.gate.conditions.find((c) => c.name === 'cases')?.actual,
      SDK_WORDS,
    );
  });

  it('allowEmpty: true still lets it pass, with no such condition', async () => {
    const result = await runTestSuite<{ q: string }, string>({
      id: 'empty',
      testCases: [],
      testCaseHash: ['q'],
      fn: () => 'x',
      allowEmpty: true,
      quiet: true,
      setExitCode: false,
    });
    assert.equal(result.verdict, 'pass');
    assert.equal(
      result.runs[0]!.gate.conditions.some((c) => c.name === 'cases'),
      false,
    );
  });

  it(
    'the summary printed on the terminal says it in those words',
    { timeout: 60_000 },
    async () => {
      const out = await sdkScript(
        `await runTestSuite({ id: 'empty', testCases: [], testCaseHash: ['q'], fn: () => 'x' });\n`,
      ).run();
      assert.equal(out.code, 1, out.stderr);
      assert.match(
        out.stdout,
        /✗ cases: expected at least 1 case, got testCases was empty \(pass allowEmpty: true to runTestSuite/,
      );
      assert.equal(out.stdout.includes('on the suite'), false, out.stdout);
    },
  );
});
