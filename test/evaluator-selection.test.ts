/**
 * Per-row evaluator selection (`when: { tags }`), inverted evaluators (`not: true`) and the
 * levenshtein `maxDistance`, end to end on recorded outputs (a config-only suite).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeFiles } from './helpers/cli.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

/** A one-suite project over `rows` with these evaluators (YAML list items). */
const project = (rows: Record<string, unknown>[], evaluators: string[]): string =>
  jsonlProject(rows, ['evaluators:', ...evaluators.map((line) => `  ${line}`)]);

interface Summary {
  count?: number;
  passed?: number;
  failed?: number;
  mean?: number | null;
}

function evaluatorSummaries(dir: string): Record<string, Summary> {
  const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
    runs: { summary: { evaluators: Record<string, Summary> } }[];
  };
  return artifact.runs[0]!.summary.evaluators;
}

describe('evaluator selection and inversion', () => {
  it('when: { tags } evaluates only the rows carrying a tag; the others get no evaluation from it', async () => {
    const dir = project(
      [
        { output: 'Your refund is on its way', __tags__: ['refund'] },
        { output: 'Hello there', __tags__: ['greeting'] },
        { output: 'No refund for you', __tags__: ['refund', 'angry'] },
      ],
      [
        '- { id: mentions-refund, use: has-all-substrings, with: { substrings: [refund] }, when: { tags: [refund] } }',
        '- { id: polite, use: contains, with: { values: ["No refund"] }, not: true }',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1, result.stdout);
    const cases = artifactCases(dir)[0]!.cases;
    assert.deepEqual(
      cases.map((c) => c.evaluations.map((e) => `${e.evaluator}:${String(e.passed)}`)),
      [
        ['mentions-refund:true', 'polite:true'],
        ['polite:true'],
        ['mentions-refund:true', 'polite:false'],
      ],
    );
    // The greeting row passes: an evaluator that does not apply is not a failure.
    assert.deepEqual(
      cases.map((c) => c.passed),
      [true, true, false],
    );
    const refund = evaluatorSummaries(dir)['mentions-refund'];
    assert.equal(refund?.count, 2);
    assert.equal(refund?.passed, 2);
    assert.equal(refund?.failed, 0);
  });

  it('not: true inverts the score, so a check that must not hold passes when it does not', async () => {
    const dir = project(
      [{ output: 'I am sorry, I cannot help' }, { output: 'Here is your answer' }],
      ['- { id: no-apology, use: regex, with: { pattern: sorry, flags: i }, not: true }'],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    const cases = artifactCases(dir)[0]!.cases;
    assert.deepEqual(
      cases.map((c) => [c.evaluations[0]!.score, c.evaluations[0]!.passed]),
      [
        [0, false],
        [1, true],
      ],
      result.stdout + result.stderr,
    );
  });

  it('not: true on a score outside 0..1 is an evaluation error, not a wrong verdict', async () => {
    const dir = project(
      [{ output: 'x' }],
      ['- { id: big, use: ./big.mjs#big, not: true, threshold: { gte: 0.5 } }'],
    );
    writeFiles(dir, { 'big.mjs': 'export function big() { return { score: 3 }; }\n' });
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1);
    const evaluation = artifactCases(dir)[0]!.cases[0]!.evaluations[0]!;
    assert.equal(evaluation.passed, false);
    assert.match(
      evaluation.error ?? '',
      /not: true inverts a score between 0 and 1; the evaluator returned 3/,
    );
  });

  it('levenshtein maxDistance passes within N edits and fails beyond, keeping the normalised score', async () => {
    const dir = project(
      [{ output: 'kitten' }, { output: 'sitten' }, { output: 'sitting' }],
      ['- { id: close, use: levenshtein, with: { expected: kitten, maxDistance: 1 } }'],
    );
    await runInProcess(['run', '-o', 'results.json'], dir);
    const evaluations = artifactCases(dir)[0]!.cases.map((c) => c.evaluations[0]!);
    assert.deepEqual(
      evaluations.map((e) => [e.score, e.passed]),
      [
        [1, true],
        // 1 − 1/6 and 1 − 3/7, rounded to 15 significant digits as every derived score is.
        [0.833333333333333, true],
        [0.571428571428571, false],
      ],
    );
  });

  it('levenshtein maxDistance shows its threshold without float noise, compared as before', async () => {
    const dir = project(
      [{ output: 'abc' }, { output: 'a' }],
      ['- { id: close, use: levenshtein, with: { expected: abcdefghij, maxDistance: 7 } }'],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    const evaluations = artifactCases(dir)[0]!.cases.map((c) => c.evaluations[0]!);
    assert.deepEqual(
      evaluations.map((e) => e.passed),
      [true, false],
    );
    assert.match(result.stdout, /close 0\.1 \(needs ≥ 0\.3\)/);
    assert.doesNotMatch(result.stdout, /0\.30000000000000004/);
  });

  it('when: needs a non-empty tag list and not: a boolean', async () => {
    const dir = project(
      [{ output: 'x' }],
      ['- { use: is-equals, with: { expected: x }, when: { tags: [] }, not: yes }'],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /when\.tags/);
    assert.match(result.stderr, /\.not/);
  });
});
