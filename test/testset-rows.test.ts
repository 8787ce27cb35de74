import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTestset } from '../src/testsets/formats.ts';
import { rowsFromRecords } from '../src/testsets/rows.ts';
import type { RowMeta } from '../src/types/index.ts';

describe('metadata columns', () => {
  const csv: { name: string; text: string; data: Record<string, unknown>; meta: RowMeta }[] = [
    {
      name: 'every metadata column, removed from data',
      text: 'q,__id__,__dedup_id__,__flags__,__tags__,__meta__\nhi,tc-1,gr-001,"{""pinned"":true}","smoke; slow ,",{}\n',
      data: { q: 'hi' },
      meta: {
        id: 'tc-1',
        dedupId: 'gr-001',
        flags: { pinned: true },
        tags: ['smoke', 'slow'],
        meta: {},
      },
    },
    {
      name: 'empty metadata cells are absent',
      text: 'q,__id__,__dedup_id__,__flags__,__tags__,__meta__\nhi,,  ,,,\n',
      data: { q: 'hi' },
      meta: {},
    },
    {
      name: 'tags as a JSON array',
      text: 'q,__tags__\nhi,"[""smoke"", ""needs, comma""]"\n',
      data: { q: 'hi' },
      meta: { tags: ['smoke', 'needs, comma'] },
    },
    {
      name: 'flags and meta that are not JSON stay text',
      text: 'q,__flags__,__meta__\nhi,archived,{not json}\n',
      data: { q: 'hi' },
      meta: { flags: 'archived', meta: '{not json}' },
    },
    {
      name: 'testcase_dedup_id column becomes the dedup id',
      text: 'q,testcase_dedup_id\nhi,gr-002\n',
      data: { q: 'hi' },
      meta: { dedupId: 'gr-002' },
    },
    {
      name: 'both dedup forms agreeing',
      text: 'q,__dedup_id__,testcase_dedup_id\nhi,gr-3,gr-3\n',
      data: { q: 'hi' },
      meta: { dedupId: 'gr-3' },
    },
    {
      name: 'ids are trimmed text, never numbers',
      text: 'q,__dedup_id__\nhi, 007 \n',
      data: { q: 'hi' },
      meta: { dedupId: '007' },
    },
  ];
  for (const { name, text, data, meta } of csv) {
    it(`CSV: ${name}`, () => {
      const result = parseTestset(text, 'csv', 'cases.csv');
      assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
      assert.deepEqual(result.rows[0]?.data, data);
      assert.deepEqual(result.rows[0]?.meta, meta);
    });
  }

  const records: {
    name: string;
    value: Record<string, unknown>;
    data: Record<string, unknown>;
    meta: RowMeta;
  }[] = [
    {
      name: 'numbers as ids become strings',
      value: { q: 1, __id__: 7, testcase_dedup_id: 12.5 },
      data: { q: 1 },
      meta: { id: '7', dedupId: '12.5' },
    },
    {
      name: 'null metadata is absent',
      value: { q: 1, __id__: null, __tags__: null, __flags__: null },
      data: { q: 1 },
      meta: {},
    },
    {
      name: 'structured flags and meta are kept as given',
      value: { q: 1, __flags__: { a: 1 }, __meta__: [1, 2] },
      data: { q: 1 },
      meta: { flags: { a: 1 }, meta: [1, 2] },
    },
    {
      name: 'flags given as JSON text are decoded',
      value: { q: 1, __flags__: ' {"a": 1} ' },
      data: { q: 1 },
      meta: { flags: { a: 1 } },
    },
    {
      name: 'tags as comma text',
      value: { q: 1, __tags__: 'a,b;c' },
      data: { q: 1 },
      meta: { tags: ['a', 'b', 'c'] },
    },
    {
      name: 'tags that are all blank are absent',
      value: { q: 1, __tags__: [' ', ''] },
      data: { q: 1 },
      meta: {},
    },
    {
      name: 'other double-underscore keys are data',
      value: { q: 1, __other__: 2 },
      data: { q: 1, __other__: 2 },
      meta: {},
    },
  ];
  for (const { name, value, data, meta } of records) {
    it(`records: ${name}`, () => {
      const result = rowsFromRecords([{ value, line: 4 }], 'evals.yaml');
      assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
      assert.deepEqual(result.rows, [{ data, line: 4, meta }]);
    });
  }

  it('does not modify the records it is given', () => {
    const value = { q: 1, __tags__: ['x'] };
    const result = rowsFromRecords([{ value, line: 1 }], 'evals.yaml');
    assert.ok(result.ok);
    assert.deepEqual(value, { q: 1, __tags__: ['x'] });
  });

  const bad: { name: string; value: Record<string, unknown>; code: string; message: string }[] = [
    {
      name: 'the two dedup forms disagree',
      value: { q: 1, __dedup_id__: 'a', testcase_dedup_id: 'b' },
      code: 'testset.dedup-conflict',
      message: '__dedup_id__ "a" and testcase_dedup_id "b" disagree: keep one of them',
    },
    {
      name: 'an object as a dedup id',
      value: { q: 1, __dedup_id__: { x: 1 } },
      code: 'testset.meta',
      message: '__dedup_id__: expected a string or a number, found an object {"x":1}',
    },
    {
      name: 'a boolean as __id__',
      value: { q: 1, __id__: true },
      code: 'testset.meta',
      message: '__id__: expected a string or a number, found true',
    },
    {
      name: 'tags that are not strings',
      value: { q: 1, __tags__: ['a', 2] },
      code: 'testset.meta',
      message:
        '__tags__: expected a list of strings, an object such as {"split": "test"}, or text such as "smoke, regression", found an array ["a",2]',
    },
  ];
  for (const { name, value, code, message } of bad) {
    it(`reports: ${name}`, () => {
      const result = rowsFromRecords([{ value, line: 9 }], 'evals.yaml');
      assert.ok(!result.ok);
      assert.deepEqual(result.issues, [
        { code, file: 'evals.yaml', line: 9, col: 0, path: '', message },
      ]);
    });
  }

  it('reports a record that is not an object', () => {
    const result = rowsFromRecords(
      [{ value: ['x'] as unknown as Record<string, unknown>, line: 3 }],
      'evals.yaml',
    );
    assert.ok(!result.ok);
    assert.deepEqual(
      result.issues.map((i) => [i.code, i.line]),
      [['testset.row-type', 3]],
    );
  });

  it('reports the dedup conflict at the CSV row line', () => {
    const result = parseTestset('q,__dedup_id__,testcase_dedup_id\n"a\nb",x,y\n', 'csv', 'c.csv');
    assert.ok(!result.ok);
    assert.deepEqual(
      result.issues.map((i) => [i.code, i.file, i.line]),
      [['testset.dedup-conflict', 'c.csv', 2]],
    );
  });
});

describe('rows without metadata', () => {
  // A prepared case keeps its row's metadata for the whole run: one object per row would be
  // 56 bytes of heap a case for nothing.
  const formats: [string, 'csv' | 'jsonl' | 'json', string][] = [
    ['CSV without metadata columns', 'csv', 'q\na\nb\n'],
    ['CSV with empty metadata cells', 'csv', 'q,__tags__,__id__\na,,\nb, ,\n'],
    ['JSONL', 'jsonl', '{"q":"a"}\n{"q":"b"}\n'],
    ['JSON', 'json', '[{"q":"a"},{"q":"b","__tags__":""}]'],
  ];
  for (const [name, format, text] of formats) {
    it(`share one frozen empty metadata object: ${name}`, () => {
      const result = parseTestset(text, format, `cases.${format}`);
      assert.ok(result.ok);
      const [first, second] = result.rows;
      assert.ok(first && second);
      assert.deepEqual(first.meta, {});
      assert.equal(first.meta, second.meta);
      assert.ok(Object.isFrozen(first.meta));
    });
  }

  it('give rows that have metadata their own object', () => {
    const result = parseTestset('q,__tags__\na,x\nb,y\n', 'csv', 'cases.csv');
    assert.ok(result.ok);
    assert.deepEqual(
      result.rows.map((row) => row.meta),
      [{ tags: ['x'] }, { tags: ['y'] }],
    );
    assert.ok(!Object.isFrozen(result.rows[0]?.meta));
  });
});
