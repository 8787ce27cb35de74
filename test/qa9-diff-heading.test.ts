/**
 * The report page's diff heading names the output field an evaluator compared; when several
 * fields as shallow hold the same value, the record cannot tell which one it read, so the heading
 * names them all instead of crediting the first.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { comparedOf } from '../src/report/html-model-compared.ts';
import type { CaseResult } from '../src/types/index.ts';

function result(output: unknown): CaseResult {
  return {
    id: 'c1',
    contentId: 'c1',
    source: null,
    data: { expected: 'yes' },
    output,
    error: null,
    durationMs: 1,
    passed: false,
    evaluations: [
      {
        evaluator: 'exact',
        score: 0,
        threshold: { gte: 1 },
        passed: false,
        metadata: { expected: 'yes', actual: 'no' },
        error: null,
        durationMs: 1,
      },
    ],
  };
}

describe('the diff heading of a case', () => {
  it('names the one field that holds what the evaluator compared', () => {
    assert.equal(
      comparedOf(result({ answer: 'no', note: 'fine' }), String)?.what,
      'output.answer (what exact compared)',
    );
  });

  it('names every field as shallow that holds the same value', () => {
    const view = comparedOf(result({ short: 'no', answer: 'no', deep: { x: 'no' } }), String);
    assert.equal(view?.what, 'output.short or output.answer (the same value; what exact compared)');
    assert.equal(view?.actual, 'no');
  });

  it('lists at most three fields and how many more', () => {
    const output = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k) => [k, 'no']));
    assert.equal(
      comparedOf(result(output), String)?.what,
      'output.a, output.b, output.c or 2 more (the same value; what exact compared)',
    );
  });
});
