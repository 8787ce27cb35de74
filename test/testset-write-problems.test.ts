/**
 * `serializeTestset` problems: what a CSV file cannot hold as written, and what no format can
 * (metadata names, values JSON cannot hold, metadata readers would normalise).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestsetFormat } from '../src/testsets/formats.ts';
import {
  serializeTestset,
  type SerializeOptions,
  type SerializeProblem,
} from '../src/testsets/write.ts';
import type { RowMeta, TestsetRow } from '../src/types/index.ts';
import { parse, row, text } from './helpers/testset-write-rows.ts';

/** The problems, asserting there are some. */
function problems(
  rows: TestsetRow[],
  format: TestsetFormat,
  options?: SerializeOptions,
): SerializeProblem[] {
  const result = serializeTestset(rows, format, options);
  assert.ok(!result.ok, `expected problems, got ${JSON.stringify(result.text)}`);
  return result.problems;
}

/** `row:field` of each problem: what most problem tests compare. */
function where(list: SerializeProblem[]): string[] {
  return list.map((p) => `${p.row}:${p.field}`);
}

describe('serializeTestset: CSV problems', () => {
  it('a number, a boolean and null would read back as text', () => {
    const list = problems([row({ q: 'x', n: 3, b: true, z: null }, {}, 7)], 'csv');
    assert.deepEqual(list, [
      {
        row: 0,
        line: 7,
        field: 'n',
        message:
          'field "n" is the number 3: a CSV cell would read back as the string "3", changing the row\'s content id',
      },
      {
        row: 0,
        line: 7,
        field: 'b',
        message:
          'field "b" is the boolean true: a CSV cell would read back as the string "true", changing the row\'s content id',
      },
      {
        row: 0,
        line: 7,
        field: 'z',
        message:
          'field "z" is null: a CSV cell would read back as the string "", changing the row\'s content id',
      },
    ]);
  });

  it('a missing key would read back as an empty string', () => {
    const list = problems([row({ a: '1', b: '2' }, {}, 2), row({ a: '3' }, {}, 3)], 'csv');
    assert.deepEqual(where(list), ['1:b']);
    assert.equal(list[0]?.line, 3);
    assert.match(list[0]?.message ?? '', /is missing from this row \(other rows have it\)/);
  });

  it('text holding a JSON array or object would be decoded; text that only looks like it is fine', () => {
    const list = problems([row({ a: '[1]', b: ' {"x": 1} ', c: '[not json]', d: '{a}' })], 'csv');
    assert.deepEqual(where(list), ['0:a', '0:b']);
    assert.match(list[0]?.message ?? '', /would read back as an array/);
    assert.match(list[1]?.message ?? '', /would read back as an object/);
  });

  it('a row whose cells are all blank would be skipped by the reader', () => {
    const list = problems([row({ a: 'x', b: '' }), row({ a: ' ', b: '' }, {}, 3)], 'csv');
    assert.deepEqual(where(list), ['1:']);
    assert.match(list[0]?.message ?? '', /CSV readers skip such a row/);
    // Metadata in a cell keeps the row.
    text([row({ a: ' ' }, { tags: ['t'] })], 'csv');
  });

  it('column names: blank, or with spaces around, are reported once, at the first row using them', () => {
    const list = problems(
      [
        row({ ok: '1' }),
        row({ ok: '2', ' pad ': 'x', '': 'y' }, {}, 5),
        row({ ok: '3', ' pad ': 'z', '': 'w' }),
      ],
      'csv',
    );
    assert.deepEqual(where(list), ['0: pad ', '0:', '1: pad ', '1:']);
    const header = list.filter((p) => /name/.test(p.message));
    assert.deepEqual(where(header), ['1: pad ', '1:']);
    assert.equal(header[0]?.line, 5);
  });

  it('an empty testset has no header to write', () => {
    const list = problems([], 'csv');
    assert.deepEqual(
      list.map((p) => [p.row, p.line, p.field]),
      [[-1, 0, '']],
    );
  });

  it('flags and meta: a number or boolean would read back as text', () => {
    const list = problems([row({ q: 'x' }, { flags: 1, meta: false })], 'csv');
    assert.deepEqual(where(list), ['0:__flags__', '0:__meta__']);
    // JSON keeps them.
    text([row({ q: 'x' }, { flags: 1, meta: false })], 'json');
  });

  it('a lone surrogate cannot be saved in a UTF-8 CSV file (JSON escapes it)', () => {
    const rows = [row({ q: 'broken \ud800' })];
    assert.deepEqual(where(problems(rows, 'csv')), ['0:q']);
    assert.deepEqual(parse(text(rows, 'json'), 'json')[0]?.data, { q: 'broken \ud800' });
    assert.ok(text(rows, 'json').includes('\\ud800'));
  });

  it('the text is still written, with the changes the problems describe', () => {
    const result = serializeTestset([row({ q: 'x', n: 3 }), row({ q: 'y' })], 'csv');
    assert.ok(!result.ok);
    assert.equal(result.text, 'q,n\nx,3\ny,\n');
  });
});

describe('serializeTestset: problems in every format', () => {
  for (const format of ['csv', 'json', 'jsonl'] as const) {
    it(`${format}: a data key with a metadata name would be taken as metadata`, () => {
      const list = problems([row({ q: 'x', __tags__: 'oops', testcase_dedup_id: 'd' })], format);
      assert.deepEqual(where(list), ['0:__tags__', '0:testcase_dedup_id']);
      assert.match(list[0]?.message ?? '', /has the name of a metadata column/);
    });

    it(`${format}: values JSON cannot hold`, () => {
      const data = { q: 'x', u: undefined, nan: [1, Number.NaN], deep: { d: new Date(0) } };
      const list = problems([row(data)], format);
      assert.deepEqual(where(list), ['0:u', '0:nan', '0:deep']);
      assert.equal(
        list[0]?.message,
        'field "u" holds undefined, which JSON leaves out, changing the row\'s content id',
      );
      assert.match(
        list[1]?.message ?? '',
        /^field "nan" at nan\[1\] holds NaN, which JSON writes as null/,
      );
      assert.match(list[2]?.message ?? '', /^field "deep" at deep\.d holds a Date object/);
    });

    it(`${format}: metadata readers would normalise`, () => {
      const meta = {
        id: '',
        dedupId: ' d1 ',
        tags: ['ok', ' pad', '', 3],
        flags: null,
        meta: '{"a": 1}',
      } as unknown as RowMeta;
      const dedup = format === 'csv' ? '__dedup_id__' : 'testcase_dedup_id';
      const list = problems([row({ q: 'x' }, meta)], format);
      assert.deepEqual(where(list), [
        '0:__id__',
        `0:${dedup}`,
        '0:__flags__',
        '0:__tags__',
        '0:__tags__',
        '0:__tags__',
        '0:__meta__',
      ]);
      assert.match(
        list[1]?.message ?? '',
        /readers trim ids, so it would read back as "d1", changing the case's identity/,
      );
    });

    it(`${format}: an empty tag list reads back as no tags`, () => {
      assert.deepEqual(where(problems([row({ q: 'x' }, { tags: [] })], format)), ['0:__tags__']);
    });
  }

  it('a clean testset gives ok with no problems key', () => {
    const result = serializeTestset([row({ q: 'x' })], 'json');
    assert.deepEqual(result, { ok: true, text: '[\n  {\n    "q": "x"\n  }\n]\n' });
  });
});
