/**
 * A JavaScript evaluator written for other tools returns `{ score, reason }`: the reason is kept
 * as `metadata.reason`, where the reports read an evaluator's explanation, instead of vanishing;
 * a `metadata.reason` of its own wins, and a reason that is not a string is left alone.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const EVALUATOR = `export const brief = {
  evaluateTestCase: ({ testCase }) => {
    if (testCase.id === 'top') return { score: 0, reason: 'too long: 42 words over 30' };
    if (testCase.id === 'both') return { score: 0, reason: 'outer', metadata: { reason: 'inner' } };
    return { score: 0, reason: { words: 42 } };
  },
};
`;

describe('an evaluation with a top-level reason', () => {
  it('is recorded as metadata.reason and shown by evals show', async () => {
    const dir = jsonlProject(
      ['top', 'both', 'odd'].map((id) => ({ __dedup_id__: id, id })),
      [
        'function: ./fn.mjs#fn',
        'evaluators: [ { id: brief, use: ./brief.mjs#brief, threshold: { gte: 1 } } ]',
      ],
      { 'fn.mjs': 'export function fn() { return "x"; }\n', 'brief.mjs': EVALUATOR },
    );
    const run = await runInProcess(['run', '-o', 'r.json'], dir);
    assert.equal(run.code, 1, run.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ResultsArtifact;
    const metadata = Object.fromEntries(
      artifact.runs[0]!.cases.map((c) => [c.id, c.evaluations[0]!.metadata]),
    );
    assert.deepEqual(metadata.top, { reason: 'too long: 42 words over 30' });
    assert.deepEqual(metadata.both, { reason: 'inner' });
    assert.equal(metadata.odd, null);
    const show = await runInProcess(['show', 'r.json', '--case', 'top'], dir);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /too long: 42 words over 30/);
  });
});
