/**
 * `evals compare` on an evaluator row with too few cases that also paired fewer cases than its
 * run compared: the row says how many were scored on both sides once, not again as `(N paired)`
 * (`too few cases (0 of 9 scored on both sides) (0 paired)`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

describe('a too-few-cases row whose scores were not all paired', () => {
  it('counts its paired cases once', async () => {
    const dir = jsonlProject(
      Array.from({ length: 9 }, (_, n) => ({ n })),
      [
        'hash: [n]',
        'function: ./m.mjs#fn',
        'evaluators:',
        '  - { id: exact, use: is-equals, with: { expected: ok } }',
      ],
      { 'm.mjs': "export function fn() { throw new Error('down'); }\n" },
    );
    assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 1);
    assert.equal((await runInProcess(['run', '-o', 'head.json'], dir)).code, 1);
    const compared = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    assert.equal(compared.code, 0, compared.stderr);
    const row = compared.stdout.split('\n').find((line) => line.trimStart().startsWith('exact'));
    assert.match(row ?? '', /too few cases \(0 of 9 scored on both sides\)$/);
  });
});
