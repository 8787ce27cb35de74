/**
 * context-recall and context-precision count an item as found when its similarity in a context
 * is at least `minSimilarity`. That similarity is evalgate's own arithmetic, 1 − edits / length,
 * and 4 edits of a 5-character item came out as 0.19999999999999996, missing a `minSimilarity:
 * 0.2` it equals. It is rounded now, as levenshtein's similarity and every derived value are.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

describe('a context match at the minSimilarity it equals', () => {
  it('is found by context-recall and makes the context relevant for context-precision', async () => {
    // "abcde" in "e": four deletions of five characters, similarity exactly 0.2.
    const dir = jsonlProject(
      [{ q: 'a', output: 'x' }],
      [
        'evaluators:',
        '  - id: recall',
        '    use: context-recall',
        '    with: { contexts: [e], expectedContexts: [abcde], minSimilarity: 0.2 }',
        '  - id: precision',
        '    use: context-precision',
        '    with: { contexts: [e], expectedContexts: [abcde], minSimilarity: 0.2 }',
      ],
    );
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const scores = artifactCases(dir)[0]?.cases[0]?.evaluations.map((e) => [e.evaluator, e.score]);
    assert.deepEqual(scores, [
      ['recall', 1],
      ['precision', 1],
    ]);
  });
});
