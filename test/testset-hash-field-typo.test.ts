/**
 * A `hash:` field that no row has (a typo: `questoin`) is said once, at the first row, with the
 * fields the rows do have, instead of once per row of the file; a field only some rows lack is
 * still reported at each of them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prepareCases } from '../src/testsets/identity.ts';
import type { TestsetRow } from '../src/types/index.ts';

function rows(count: number, data: (i: number) => Record<string, unknown>): TestsetRow[] {
  return Array.from({ length: count }, (_, i) => ({ data: data(i), line: i + 2, meta: {} }));
}

function problems(input: TestsetRow[], hash: string[]): string[] {
  const result = prepareCases(input, { testsetId: 'qa', file: 'qa.csv', hash });
  assert.ok(!result.ok, 'expected problems');
  return result.issues.map((i) => `${i.line}:${i.col} ${i.code} ${i.message}`);
}

describe('hash: fields missing from rows', () => {
  it('a field no row has is one problem naming the fields of the first row', () => {
    const input = rows(200, (i) => ({ question: `q${i}`, answer: `a${i}` }));
    assert.deepEqual(problems(input, ['questoin']), [
      '2:0 testset.hash-field-missing hash field "questoin" is in no row of the testset: hash: names fields every row has (the first row has "question", "answer")',
    ]);
  });

  it('a field some rows lack is reported at each of them, the rest counted', () => {
    const input = rows(120, (i) => (i % 2 === 0 ? { question: `q${i}` } : { other: i }));
    const found = problems(input, ['question']);
    assert.equal(found.length, 51);
    assert.equal(
      found[0],
      '3:0 testset.hash-field-missing hash field "question" is missing from this row (hash: needs every listed field in every row)',
    );
    assert.equal(
      found.at(-1),
      '0:0 testset.too-many-issues 10 more problems in this file not shown',
    );
  });

  it('rows with a dedup id do not count: a field the other rows all lack is in none of them', () => {
    const input = [
      { data: { q: 'a' }, line: 2, meta: { dedupId: 'd1' } },
      ...rows(2, (i) => ({ q: `b${i}` })).map((r) => ({ ...r, line: r.line + 1 })),
    ];
    assert.deepEqual(problems(input, ['question']), [
      '3:0 testset.hash-field-missing hash field "question" is in no row of the testset: hash: names fields every row has (the first row has "q")',
    ]);
  });
});
