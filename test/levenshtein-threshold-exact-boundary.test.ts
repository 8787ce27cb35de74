/**
 * A levenshtein similarity that equals its threshold passes it. The similarity is evalgate's own
 * arithmetic, 1 − distance / length, and 9 edits of 10 characters came out as
 * 0.09999999999999998, failing `gte: 0.1` (and 7 of 10 as 0.30000000000000004, failing
 * `lte: 0.3`), the float noise printed in the reason. Derived values are rounded to 15
 * significant digits before a threshold compares them (docs/config.md, `gate`), so this one is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

describe('levenshtein at a threshold it equals', () => {
  it('passes gte 0.1 at 9 edits of 10 characters and lte 0.3 at 7 of 10', async () => {
    const dir = jsonlProject(
      [
        { q: 'nine', expected: 'aaaaaaaaaa', output: 'abbbbbbbbb', __tags__: ['nine'] },
        { q: 'seven', expected: 'aaaaaaaaaa', output: 'aaabbbbbbb', __tags__: ['seven'] },
      ],
      [
        'evaluators:',
        '  - id: low',
        '    use: levenshtein',
        "    with: { expected: '{{case.expected}}' }",
        '    threshold: { gte: 0.1 }',
        '    when: { tags: [nine] }',
        '  - id: high',
        '    use: levenshtein',
        "    with: { expected: '{{case.expected}}' }",
        '    threshold: { lte: 0.3 }',
        '    when: { tags: [seven] }',
      ],
    );
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    const [first] = artifactCases(dir);
    const scores = first?.cases.flatMap((c) =>
      c.evaluations.map((e) => [e.evaluator, e.score, e.passed]),
    );
    assert.deepEqual(scores, [
      ['low', 0.1, true],
      ['high', 0.3, true],
    ]);
    assert.equal(run.code, 0, run.stdout);
    assert.doesNotMatch(run.stdout, /0\.0999|0\.3000000/);
  });
});
