/**
 * QA round 10, F7 and the SDK's M1: an evaluator that returns nothing for every case (a `return`
 * left out, a renamed field) skips every case, and every case passed with no word. The verdict
 * stays the gate's, but the summary now says which evaluator checked nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const FORGETFUL = [
  'export function forgetful({ output }) {',
  "  if (output === 'never') return { score: 1 };",
  '}',
  '',
].join('\n');

describe('an evaluator that skipped every case (QA10 F7)', () => {
  it('is named in the summary, the verdict unchanged', async () => {
    const dir = jsonlProject(
      [
        { id: 'a', output: 'x' },
        { id: 'b', output: 'y' },
      ],
      [
        'hash: [id]',
        'evaluators:',
        '  - { id: forgetful, use: ./ev.mjs#forgetful, threshold: { gte: 0.9 } }',
        '  - { id: has-x, use: contains, with: { values: [x] }, not: true }',
      ],
      { 'ev.mjs': FORGETFUL },
    );
    const r = await runInProcess(['run', '-o', 'out.json'], dir);
    const all = r.stdout + r.stderr;
    assert.match(
      all,
      /⚠ forgetful evaluated none of the 2 cases that ran \(it skipped every one\): nothing it checks was checked/,
    );
    assert.doesNotMatch(all, /⚠ has-x/);
    assert.equal(r.code, 1, all);
  });

  it('says nothing when every case errored (their errors are the news)', async () => {
    const dir = jsonlProject(
      [{ id: 'a' }],
      ['hash: [id]', 'evaluators:', '  - { id: forgetful, use: ./ev.mjs#forgetful }'],
      { 'ev.mjs': FORGETFUL },
    );
    const r = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.doesNotMatch(r.stdout + r.stderr, /evaluated none/);
    assert.equal(r.code, 1);
  });
});
