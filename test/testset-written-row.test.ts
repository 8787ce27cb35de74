import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DROP, jsonValue, kindOf, quoteShort } from '../src/testsets/json-safe.ts';
import { META_COLUMNS } from '../src/testsets/rows.ts';
import { META_ORDER, writtenRow } from '../src/testsets/written-row.ts';

describe('written rows', () => {
  it('write metadata in the readers’ column order', () => {
    assert.deepEqual(META_ORDER, [
      ['__id__', 'id'],
      ['__dedup_id__', 'dedupId'],
      ['__flags__', 'flags'],
      ['__tags__', 'tags'],
      ['__meta__', 'meta'],
    ]);
    assert.deepEqual(Object.fromEntries(META_ORDER), META_COLUMNS);
  });

  it('put the dedup id under the column asked for and report what would not read back', () => {
    const problems: [string, string][] = [];
    const written = writtenRow(
      { data: { q: 'a', n: Number.NaN }, line: 2, meta: { tags: [' x'], dedupId: 'd' } },
      'json',
      'testcase_dedup_id',
      (field, message) => problems.push([field, message]),
      (text) => text,
    );
    assert.deepEqual(written, {
      data: { q: 'a', n: null },
      meta: [
        ['testcase_dedup_id', 'd'],
        ['__tags__', [' x']],
      ],
    });
    assert.deepEqual(
      problems.map(([field]) => field),
      ['n', '__tags__'],
    );
  });
});

describe('json-safe values', () => {
  it('keep plain JSON as it is and report what JSON changes, at its path', () => {
    const plain = { a: [1, 'x', null], b: { c: true } };
    assert.equal(
      jsonValue(plain, '', () => assert.fail()),
      plain,
    );
    const reports: string[] = [];
    const value = jsonValue({ a: [1, undefined], b: () => 1 }, '', (path, what) =>
      reports.push(`${path}: ${what}`),
    );
    assert.deepEqual(value, { a: [1, null] });
    assert.deepEqual(reports, [
      'a[1]: holds undefined, which JSON leaves out',
      'b: holds a function, which JSON leaves out',
    ]);
    assert.equal(
      jsonValue(undefined, '', () => undefined),
      DROP,
    );
  });

  it('name values for messages, quoting long text short', () => {
    const none = (text: string): string => text;
    assert.equal(kindOf(3, none), 'the number 3');
    assert.equal(kindOf([], none), 'an array');
    assert.equal(quoteShort('x'.repeat(100), none), `"${'x'.repeat(56)}..."`);
    assert.equal(quoteShort('short', none), '"short"');
  });
});
