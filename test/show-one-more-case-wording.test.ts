/**
 * `evals show --limit N` counts the cases it left out in a sentence: `1 more case matches`, `2
 * more cases match`. It said `1 more case match`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

describe('evals show --limit: the cases left out, counted', () => {
  it('says "1 more case matches" and "2 more cases match"', async () => {
    const dir = jsonlProject(
      ['a', 'b', 'c'].map((q) => ({ q, output: 'y' })),
      ['evaluators:', '  - { id: ok, use: is-equals, with: { expected: "x" } }'],
    );
    assert.equal((await runInProcess(['run', '-o', 'r.json'], dir)).code, 1);
    const two = await runInProcess(['show', 'r.json', '--limit', '2'], dir);
    assert.match(
      two.stdout,
      /\n1 more case matches \(--limit N shows more; --case ID shows one\)\n$/,
    );
    const one = await runInProcess(['show', 'r.json', '--limit', '1'], dir);
    assert.match(
      one.stdout,
      /\n2 more cases match \(--limit N shows more; --case ID shows one\)\n$/,
    );
  });
});
