/**
 * `not: true` on an evaluator that sets its own threshold case by case (levenshtein's
 * `maxDistance`: "at most 2 edits" is `≥ 1 − 2/len` on the similarity). The inverted score was
 * held to that same bound, so "not within 2 edits" failed a case 3 edits away (0.3 against
 * ≥ 0.8) and passed only near-total differences: a false verdict. The evaluator's own bound is
 * turned around with its score: the case passes exactly when, without `not`, it would fail.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultsArtifact } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

function artifactCases(dir: string) {
  return (JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ResultsArtifact).runs;
}

describe('not: true with a threshold the evaluator returns', () => {
  it('passes exactly the cases the evaluator alone would fail (levenshtein maxDistance)', async () => {
    const dir = jsonlProject(
      [
        { expected: 'abcdefghij', output: 'abcdefghij' }, // 0 edits
        { expected: 'abcdefghij', output: 'abcdefghXY' }, // 2 edits: within
        { expected: 'abcdefghij', output: 'abcdefgXYZ' }, // 3 edits: not within
        { expected: 'abcdefghij', output: 'XYZXYZXYZX' }, // 10 edits
      ],
      [
        'evaluators:',
        '  - { id: near, use: levenshtein, with: { expected: "{{case.expected}}", maxDistance: 2 } }',
        '  - { id: far, use: levenshtein, with: { expected: "{{case.expected}}", maxDistance: 2 }, not: true }',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const cases = artifactCases(dir)[0]!.cases;
    const verdicts = (id: string) =>
      cases.map((c) => c.evaluations.find((e) => e.evaluator === id)?.passed);
    assert.deepEqual(verdicts('near'), [true, true, false, false]);
    assert.deepEqual(verdicts('far'), [false, false, true, true]);
    const far = cases.map((c) => c.evaluations.find((e) => e.evaluator === 'far'));
    // 3 edits of 10: similarity 0.7, inverted 0.3, which must be above 1 − 0.8.
    assert.deepEqual(
      far.map((e) => [e?.score, e?.threshold]),
      [
        [0, { gt: 0.2 }],
        [0.2, { gt: 0.2 }],
        [0.3, { gt: 0.2 }],
        [1, { gt: 0.2 }],
      ],
    );
  });

  it('a threshold on the evaluator in evals.yaml still applies to the inverted score as written', async () => {
    const dir = jsonlProject(
      [
        { expected: 'abcdefghij', output: 'abcdefgXYZ' }, // inverted 0.3
        { expected: 'abcdefghij', output: 'abcdefghXY' }, // inverted 0.2
      ],
      [
        'evaluators:',
        '  - { id: far, use: levenshtein, with: { expected: "{{case.expected}}", maxDistance: 2 }, not: true, threshold: { gte: 0.25 } }',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const cases = artifactCases(dir)[0]!.cases;
    assert.deepEqual(
      cases.map((c) => [c.evaluations[0]?.passed, c.evaluations[0]?.threshold]),
      [
        [true, { gte: 0.25 }],
        [false, { gte: 0.25 }],
      ],
    );
  });

  it("a module's own range cannot be turned around: that evaluation's error, naming what to do", async () => {
    const dir = jsonlProject(
      [{ output: 'x' }],
      [
        'evaluators:',
        '  - { id: mid, use: ./mid.mjs#mid, not: true }',
        '  - { id: low, use: ./mid.mjs#low, not: true }',
      ],
      {
        'mid.mjs': [
          'export const mid = () => ({ score: 0.5, threshold: { gte: 0.4, lte: 0.6 } });',
          'export const low = () => ({ score: 0.25, threshold: { lte: 0.3 } });',
          '',
        ].join('\n'),
      },
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const [mid, low] = artifactCases(dir)[0]!.cases[0]!.evaluations;
    assert.equal(mid?.passed, false);
    assert.match(
      mid?.error ?? '',
      /^not: true cannot turn around the range \{"gte":0\.4,"lte":0\.6\} the evaluator returned .*give the evaluator a threshold: for the inverted score/,
    );
    // ≤ 0.3 on 0.25 passes; turned around, > 0.3 is wanted, which 0.25 misses: the inverted
    // 0.75 against < 0.7.
    assert.deepEqual([low?.score, low?.threshold, low?.passed], [0.75, { lt: 0.7 }, false]);
  });
});
