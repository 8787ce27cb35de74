/**
 * `serializeTestset` layouts: CSV cells and headers, JSON and JSONL, dedup id spellings, and the
 * repository testsets converted to every format and read back unchanged.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { formatFromPath } from '../src/testsets/formats.ts';
import { defaultTestsetId, prepareCases } from '../src/testsets/identity.ts';
import { serializeTestset } from '../src/testsets/write.ts';
import type { RowMeta, TestsetRow } from '../src/types/index.ts';
import { parse, row, text } from './helpers/testset-write-rows.ts';

describe('serializeTestset: CSV layout', () => {
  it('header: data keys in first-seen order, then metadata columns in fixed order', () => {
    const rows = [
      row({ b: '1', a: '2' }, { tags: ['t'] }),
      row({ a: '3', b: '4' }, { meta: { m: 1 }, id: 'x' }),
    ];
    assert.equal(
      text(rows, 'csv'),
      'b,a,__id__,__tags__,__meta__\n1,2,,"[""t""]",\n4,3,x,,"{""m"":1}"\n',
    );
  });

  it('a key first seen in a later row joins the header where it is first seen', () => {
    const result = serializeTestset([row({ a: '1' }), row({ b: '2', a: '3' })], 'csv');
    assert.equal(result.text.split('\n')[0], 'a,b');
  });

  it('metadata columns empty in every row are dropped; all five when all are present', () => {
    assert.equal(text([row({ q: 'x' }), row({ q: 'y' })], 'csv'), 'q\nx\ny\n');
    const full: RowMeta = { id: 'i', dedupId: 'd', flags: 'f', tags: ['t'], meta: 'm' };
    assert.equal(
      text([row({ q: 'x' }, full)], 'csv'),
      'q,__id__,__dedup_id__,__flags__,__tags__,__meta__\nx,i,d,f,"[""t""]",m\n',
    );
  });

  it('a row without data but with metadata is written (its metadata cells keep it)', () => {
    const rows = [row({}, { dedupId: 'only-meta' })];
    const csv = text(rows, 'csv');
    assert.equal(csv, '__dedup_id__\nonly-meta\n');
    assert.deepEqual(parse(csv, 'csv'), [{ data: {}, line: 2, meta: { dedupId: 'only-meta' } }]);
  });

  const quoting: { value: string; cell: string }[] = [
    { value: 'plain', cell: 'plain' },
    { value: '', cell: '' },
    { value: 'a,b', cell: '"a,b"' },
    { value: 'say "hi"', cell: '"say ""hi"""' },
    { value: '"', cell: '""""' },
    { value: 'a\nb', cell: '"a\nb"' },
    { value: ' lead', cell: '" lead"' },
    { value: 'trail ', cell: '"trail "' },
    { value: '\ttab', cell: '"\ttab"' },
    { value: 'in side', cell: 'in side' },
    { value: "it's", cell: "it's" },
    { value: 'é😀漢字e\u0301', cell: 'é😀漢字e\u0301' },
    { value: '[not json', cell: '[not json' },
    { value: '42', cell: '42' },
  ];
  for (const { value, cell } of quoting) {
    it(`cell ${JSON.stringify(value)} is written ${JSON.stringify(cell)} and reads back`, () => {
      const rows = [row({ v: value, k: 'x' })];
      const csv = text(rows, 'csv');
      assert.equal(csv, `v,k\n${cell},x\n`);
      assert.deepEqual(parse(csv, 'csv')[0]?.data, { v: value, k: 'x' });
    });
  }

  it('a carriage return is reported: the reader takes every line break in a cell as \\n', () => {
    for (const value of ['a\rb', 'a\r\nb']) {
      const result = serializeTestset([row({ v: value, k: 'x' })], 'csv');
      assert.ok(!result.ok);
      assert.deepEqual(
        result.problems.map((p) => [p.row, p.field]),
        [[0, 'v']],
      );
      assert.match(result.problems[0]?.message ?? '', /would read back as "a\\nb"/);
      assert.equal(result.text, `v,k\n"${value}",x\n`, 'written anyway, quoted');
    }
  });

  it('column names are quoted like cells', () => {
    const csv = text([row({ 'a,b': '1', 'say "x"': '2', 'two\nlines': '3' })], 'csv');
    assert.equal(csv, '"a,b","say ""x""","two\nlines"\n1,2,3\n');
    assert.deepEqual(Object.keys(parse(csv, 'csv')[0]?.data ?? {}), [
      'a,b',
      'say "x"',
      'two\nlines',
    ]);
  });

  it('arrays and objects are written as their JSON text and decoded back', () => {
    const data = {
      list: ['Paris', 'Lyon'],
      nested: { a: [1, null, true], 'b c': 'x,y' },
      none: [],
    };
    const csv = text([row(data)], 'csv');
    assert.equal(
      csv,
      'list,nested,none\n"[""Paris"",""Lyon""]","{""a"":[1,null,true],""b c"":""x,y""}",[]\n',
    );
    assert.deepEqual(parse(csv, 'csv')[0]?.data, data);
  });

  it('LF line ends and a final newline', () => {
    const csv = text([row({ a: '1' }), row({ a: '2' })], 'csv');
    assert.equal(csv, 'a\n1\n2\n');
  });

  it('keeps row order, even for rows the reader would sort differently', () => {
    const rows = ['c', 'a', 'b'].map((v, i) => row({ v }, { dedupId: String(3 - i) }, i + 2));
    for (const format of ['csv', 'json', 'jsonl'] as const) {
      assert.deepEqual(
        parse(text(rows, format), format).map((r) => r.data.v),
        ['c', 'a', 'b'],
      );
    }
  });
});

describe('serializeTestset: JSON and JSONL layout', () => {
  const rows = [
    row({ q: 'a', n: 3 }, { dedupId: 'd1', tags: ['x'] }),
    row({ q: 'b', ok: false }, { id: 'i2', flags: { f: 1 }, meta: 'note' }),
  ];

  it('JSON: an array of row objects, 2-space indent, metadata keys after the data', () => {
    assert.equal(
      text(rows, 'json'),
      `${JSON.stringify(
        [
          { q: 'a', n: 3, testcase_dedup_id: 'd1', __tags__: ['x'] },
          { q: 'b', ok: false, __id__: 'i2', __flags__: { f: 1 }, __meta__: 'note' },
        ],
        null,
        2,
      )}\n`,
    );
  });

  it('JSONL: one compact object per line', () => {
    assert.equal(
      text(rows, 'jsonl'),
      '{"q":"a","n":3,"testcase_dedup_id":"d1","__tags__":["x"]}\n' +
        '{"q":"b","ok":false,"__id__":"i2","__flags__":{"f":1},"__meta__":"note"}\n',
    );
  });

  it('an empty testset is [] in JSON and nothing in JSONL', () => {
    assert.equal(text([], 'json'), '[]\n');
    assert.equal(text([], 'jsonl'), '');
    assert.deepEqual(parse('[]\n', 'json'), []);
    assert.deepEqual(parse('', 'jsonl'), []);
  });

  it('numbers, booleans, null and nested values read back as they are', () => {
    const data = { n: -1.5e-7, t: true, z: null, deep: [{ a: [[]] }], s: '[1]' };
    for (const format of ['json', 'jsonl'] as const) {
      assert.deepEqual(parse(text([row(data)], format), format)[0]?.data, data);
    }
  });

  it('a __proto__ data key stays a plain key in every format', () => {
    const data: Record<string, unknown> = {};
    Object.defineProperty(data, '__proto__', { value: 'p', enumerable: true, writable: true });
    for (const format of ['csv', 'json', 'jsonl'] as const) {
      const back = parse(text([row(data)], format), format)[0]?.data ?? {};
      assert.deepEqual(Object.keys(back), ['__proto__']);
      assert.equal(Object.getPrototypeOf(back), Object.prototype);
    }
  });

  it('reads back the Agenta export shape as a plain array, keeping the testcase id as __id__', () => {
    const agenta = JSON.stringify({
      testcases: [
        { id: 'e44b', data: { country: 'Germany', testcase_dedup_id: 'gr-001' } },
        { id: 'f00d', data: { country: 'Japan' } },
      ],
    });
    const rows2 = parse(agenta, 'json');
    const json = text(rows2, 'json');
    assert.deepEqual(JSON.parse(json), [
      { country: 'Germany', __id__: 'e44b', testcase_dedup_id: 'gr-001' },
      { country: 'Japan', __id__: 'f00d' },
    ]);
    assert.deepEqual(
      parse(json, 'json').map((r) => r.meta),
      rows2.map((r) => r.meta),
    );
  });
});

describe('serializeTestset: dedup id spellings', () => {
  const csv = 'q,__dedup_id__\nParis,cap-1\nTokyo,cap-2\n';

  it('CSV __dedup_id__ → JSON testcase_dedup_id → CSV __dedup_id__', () => {
    const fromCsv = parse(csv, 'csv');
    const json = text(fromCsv, 'json');
    assert.deepEqual(JSON.parse(json), [
      { q: 'Paris', testcase_dedup_id: 'cap-1' },
      { q: 'Tokyo', testcase_dedup_id: 'cap-2' },
    ]);
    const fromJson = parse(json, 'json');
    // The reader moves testcase_dedup_id out of the data into meta.dedupId.
    assert.deepEqual(fromJson[0], { data: { q: 'Paris' }, line: 2, meta: { dedupId: 'cap-1' } });
    assert.equal(text(fromJson, 'csv'), csv);

    const ids = (rows: TestsetRow[]): unknown => {
      const prepared = prepareCases(rows, { testsetId: 'capitals', file: null });
      assert.ok(prepared.ok);
      return [prepared.cases.map((c) => [c.id, c.contentId]), prepared.revision];
    };
    assert.deepEqual(ids(fromJson), ids(fromCsv));
    assert.deepEqual(ids(parse(text(fromJson, 'jsonl'), 'jsonl')), ids(fromCsv));
  });

  it("dedupStyle: 'column' writes __dedup_id__ in JSON and JSONL", () => {
    const rows = parse(csv, 'csv');
    const json = text(rows, 'json', { dedupStyle: 'column' });
    assert.deepEqual(JSON.parse(json), [
      { q: 'Paris', __dedup_id__: 'cap-1' },
      { q: 'Tokyo', __dedup_id__: 'cap-2' },
    ]);
    assert.equal(
      text(rows, 'jsonl', { dedupStyle: 'column' }).split('\n')[0],
      '{"q":"Paris","__dedup_id__":"cap-1"}',
    );
    const back = parse(json, 'json');
    assert.deepEqual(
      back.map((r) => [r.data, r.meta]),
      rows.map((r) => [r.data, r.meta]),
    );
  });

  it("dedupStyle: 'data' writes a testcase_dedup_id column in CSV, which reads back the same", () => {
    const rows = parse(csv, 'csv');
    const out = text(rows, 'csv', { dedupStyle: 'data' });
    assert.equal(out, 'q,testcase_dedup_id\nParis,cap-1\nTokyo,cap-2\n');
    assert.deepEqual(parse(out, 'csv'), rows);
  });
});

describe('serializeTestset: the repository testsets convert to every format and back', () => {
  const root = join(import.meta.dirname, '..');
  const files = [
    'test/fixtures/testsets/capitals.csv',
    'test/fixtures/testsets/capitals.json',
    'test/fixtures/testsets/capitals.jsonl',
    'test/fixtures/testsets/bom-crlf.csv',
    'examples/quickstart/testsets/capitals.csv',
  ];
  const identities = (rows: TestsetRow[], file: string): unknown => {
    const prepared = prepareCases(rows, { testsetId: defaultTestsetId(file), file: null });
    assert.ok(prepared.ok, JSON.stringify(prepared));
    return [prepared.cases.map((c) => [c.id, c.contentId]), prepared.revision];
  };
  for (const file of files) {
    for (const target of ['csv', 'json', 'jsonl'] as const) {
      it(`${file} → ${target}`, () => {
        const format = formatFromPath(file);
        assert.ok(format);
        const rows = parse(readFileSync(join(root, file), 'utf8'), format);
        const back = parse(text(rows, target), target);
        assert.deepEqual(
          back.map((r) => [r.data, r.meta]),
          rows.map((r) => [r.data, r.meta]),
        );
        assert.deepEqual(identities(back, file), identities(rows, file));
      });
    }
  }

  it('tags written as "smoke, slow" in a CSV come back as the same list from a JSON array', () => {
    const rows = parse('q,__tags__\nx,"smoke, slow"\n', 'csv');
    assert.deepEqual(rows[0]?.meta, { tags: ['smoke', 'slow'] });
    assert.equal(text(rows, 'csv'), 'q,__tags__\nx,"[""smoke"",""slow""]"\n');
  });
});
