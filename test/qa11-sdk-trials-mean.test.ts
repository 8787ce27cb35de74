/**
 * QA round 11: a case's trial mean was summed with `+=` and divided as is, so three trials
 * scoring 0.7 stored 0.6999999999999998, below a `gte: 0.7` the scores each met. Every other
 * mean evalgate derives is rounded by shared/float-noise.ts; the trial mean now is too.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { meetsThreshold } from '../src/run/threshold.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { scratch } from './helpers/cli.ts';

describe('trial means follow the float-noise rule', () => {
  it('three trials of 0.7 give a mean of 0.7 that meets gte: 0.7', async () => {
    const output = join(scratch(), 'out.json');
    const result = await runTestSuite<{ q: string }, string>({
      id: 'trial-mean',
      testCases: [{ q: 'a' }],
      testCaseHash: ['q'],
      fn: () => 'x',
      evaluators: [
        { id: 'seven', evaluateTestCase: () => ({ score: 0.7, threshold: { gte: 0.7 } }) },
      ],
      trials: 3,
      gate: { evaluators: { seven: { mean: { gte: 0.7 } } } },
      output,
      quiet: true,
      setExitCode: false,
    });
    const evaluation = result.runs[0]!.cases[0]!.evaluations[0]!;
    assert.equal(evaluation.score, 0.7);
    assert.equal(meetsThreshold(evaluation.score, { gte: 0.7 }), true);
    assert.equal(evaluation.passed, true);
    assert.equal(result.verdict, 'pass');
    // The artifact stores the same mean.
    const written = JSON.parse(readFileSync(output, 'utf8')) as ResultsArtifact;
    assert.equal(written.runs[0]!.cases[0]!.evaluations[0]!.score, 0.7);
    assert.equal(written.runs[0]!.summary.evaluators.seven!.mean, 0.7);
  });
});
