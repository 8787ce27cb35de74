import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Issue } from '../src/shared/errors.ts';
import { parseTestset } from '../src/testsets/formats.ts';
import type { TestsetRow } from '../src/types/index.ts';

function rows(text: string): TestsetRow[] {
  const result = parseTestset(text, 'csv', 'cases.csv');
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result.rows;
}

function issues(text: string): Issue[] {
  const result = parseTestset(text, 'csv', 'cases.csv');
  assert.ok(!result.ok, 'expected issues');
  return result.issues;
}

/** [line, data] pairs: what most tests compare. */
function lineData(text: string): [number, Record<string, unknown>][] {
  return rows(text).map((r) => [r.line, r.data]);
}

describe('CSV testsets: rows and lines', () => {
  const table: { name: string; text: string; expected: [number, Record<string, unknown>][] }[] = [
    {
      name: 'plain LF file',
      text: 'country,capital\nFrance,Paris\nJapan,Tokyo\n',
      expected: [
        [2, { country: 'France', capital: 'Paris' }],
        [3, { country: 'Japan', capital: 'Tokyo' }],
      ],
    },
    {
      name: 'no final newline',
      text: 'country,capital\nFrance,Paris',
      expected: [[2, { country: 'France', capital: 'Paris' }]],
    },
    {
      name: 'BOM and CRLF',
      text: '\uFEFFcountry,capital\r\nFrance,Paris\r\nJapan,Tokyo\r\n',
      expected: [
        [2, { country: 'France', capital: 'Paris' }],
        [3, { country: 'Japan', capital: 'Tokyo' }],
      ],
    },
    {
      name: 'old Mac CR line ends',
      text: 'country,capital\rFrance,Paris\rJapan,Tokyo',
      expected: [
        [2, { country: 'France', capital: 'Paris' }],
        [3, { country: 'Japan', capital: 'Tokyo' }],
      ],
    },
    {
      name: 'mixed line ends in one file',
      text: 'a,b\r\n1,2\n3,4\r5,6\r\n"x\r\ny",7\n',
      expected: [
        [2, { a: '1', b: '2' }],
        [3, { a: '3', b: '4' }],
        [4, { a: '5', b: '6' }],
        [5, { a: 'x\ny', b: '7' }],
      ],
    },
    {
      name: 'quoted cells with embedded newlines, quotes and commas',
      text: 'q,a\n"line one\nline two",x\n"say ""hi"", twice",y\n',
      expected: [
        [2, { q: 'line one\nline two', a: 'x' }],
        [4, { q: 'say "hi", twice', a: 'y' }],
      ],
    },
    {
      name: 'start line after a multi-line cell (LF)',
      text: 'q,a\n"a\n\n\nb",1\nnext,2\n"c\nd","e\nf"\nlast,3\n',
      expected: [
        [2, { q: 'a\n\n\nb', a: '1' }],
        [6, { q: 'next', a: '2' }],
        [7, { q: 'c\nd', a: 'e\nf' }],
        [10, { q: 'last', a: '3' }],
      ],
    },
    {
      name: 'start line after a multi-line cell (CRLF inside and between records)',
      text: 'q,a\r\n"a\r\nb\r\nc",1\r\nnext,2\r\n',
      expected: [
        [2, { q: 'a\nb\nc', a: '1' }],
        [5, { q: 'next', a: '2' }],
      ],
    },
    {
      name: 'blank lines (before the header, between rows, at the end) are skipped',
      text: '\n\ncountry,capital\n\nFrance,Paris\n   \n\nJapan,Tokyo\n\n\n',
      expected: [
        [5, { country: 'France', capital: 'Paris' }],
        [8, { country: 'Japan', capital: 'Tokyo' }],
      ],
    },
    {
      name: 'rows whose cells are all empty are skipped',
      text: 'a,b\n1,2\n,\n , \n3,4\n',
      expected: [
        [2, { a: '1', b: '2' }],
        [5, { a: '3', b: '4' }],
      ],
    },
    {
      name: 'header names are trimmed; cells are not',
      text: ' country , capital\n France ,Paris\n',
      expected: [[2, { country: ' France ', capital: 'Paris' }]],
    },
    {
      name: 'a quote inside an unquoted cell is text',
      text: 'item,size\nscreen,15" wide\n',
      expected: [[2, { item: 'screen', size: '15" wide' }]],
    },
  ];
  for (const { name, text, expected } of table) {
    it(name, () => assert.deepEqual(lineData(text), expected));
  }

  it('a header-only file has no rows', () => {
    assert.deepEqual(rows('a,b\n'), []);
  });

  it('agrees with the record start offsets csv-parse reports through info.bytes', () => {
    // Independent check of the line arithmetic: csv-parse's `info.bytes` is where each record
    // ends, so the next record starts there (after any blank lines). Random files mixing quoted
    // line breaks, blank lines and CRLF must give the same start lines both ways.
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = ['x', 'y z', '"a\nb"', '"c\r\nd"', '"e ""q"" f"', '"\n\n"', 'é'];
    for (let trial = 0; trial < 50; trial++) {
      const eol = trial % 2 === 0 ? '\n' : '\r\n';
      const lines = ['h1,h2,h3'];
      for (let r = 0; r < 20; r++) {
        if (random(4) === 0) lines.push('');
        lines.push([0, 1, 2].map(() => pieces[random(pieces.length)]).join(','));
      }
      const text = lines.join(eol) + eol;

      const buffer = Buffer.from(text);
      // With `info: true` csv-parse returns `{ record, info }` objects; its types do not say so.
      const records = parse(text, { info: true, skip_empty_lines: true }) as unknown as {
        info: { bytes: number };
      }[];
      const expected: number[] = [];
      for (let i = 1; i < records.length; i++) {
        let start = records[i - 1]?.info.bytes ?? 0;
        while (buffer[start] === 0x0a || buffer[start] === 0x0d) start++;
        const before = buffer.subarray(0, start).toString('utf8');
        expected.push(before.split(/\r\n|\n|\r/).length);
      }
      assert.deepEqual(
        rows(text).map((r) => r.line),
        expected,
        JSON.stringify(text),
      );
    }
  });
});

describe('CSV testsets: cell values', () => {
  const table: { cell: string; expected: unknown }[] = [
    { cell: '42', expected: '42' },
    { cell: '3.5', expected: '3.5' },
    { cell: 'true', expected: 'true' },
    { cell: 'null', expected: 'null' },
    { cell: '', expected: '' },
    { cell: '  ', expected: '  ' },
    { cell: '"[""Paris"",""Lyon""]"', expected: ['Paris', 'Lyon'] },
    { cell: '"  [1, 2]  "', expected: [1, 2] },
    { cell: '"{""a"": {""b"": [true, null]}}"', expected: { a: { b: [true, null] } } },
    { cell: '[]', expected: [] },
    { cell: '{}', expected: {} },
    { cell: '"[not json]"', expected: '[not json]' },
    { cell: '"{a: 1}"', expected: '{a: 1}' },
    { cell: '"[1, 2"', expected: '[1, 2' },
    { cell: '"""quoted"""', expected: '"quoted"' },
    { cell: '[x', expected: '[x' },
  ];
  for (const { cell, expected } of table) {
    it(`${cell} → ${JSON.stringify(expected)}`, () => {
      // A second column keeps empty cells from making the row blank (blank rows are skipped).
      assert.deepEqual(rows(`v,k\n${cell},x\n`)[0]?.data, { v: expected, k: 'x' });
    });
  }

  it('a __proto__ column is plain data', () => {
    const data = rows('__proto__,b\n{"polluted": true},2\n')[0]?.data;
    assert.ok(data);
    assert.deepEqual(Object.keys(data), ['__proto__', 'b']);
    assert.equal(Object.getPrototypeOf(data), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('CSV testsets: problems', () => {
  it('reports every row with the wrong number of cells, at its start line', () => {
    const found = issues('a,b\n1,2\n1,2,3\n"x\ny"\nok,ok\n4\n');
    assert.deepEqual(
      found.map((i) => [i.code, i.line, i.message]),
      [
        ['testset.csv-columns', 3, 'expected 2 cells (one per header column), found 3'],
        ['testset.csv-columns', 4, 'expected 2 cells (one per header column), found 1'],
        ['testset.csv-columns', 7, 'expected 2 cells (one per header column), found 1'],
      ],
    );
    assert.equal(found[0]?.file, 'cases.csv');
  });

  it('reports duplicate header names with both columns', () => {
    const found = issues('\nid,q,id\n1,2,3\n');
    assert.deepEqual(
      found.map((i) => [i.code, i.line, i.message]),
      [['testset.csv-header', 2, 'column name "id" appears twice in the header (columns 1 and 3)']],
    );
  });

  it('reports unnamed header columns', () => {
    const found = issues('a,,b\n1,2,3\n');
    assert.deepEqual(
      found.map((i) => [i.code, i.line, i.message]),
      [['testset.csv-header', 1, 'column 2 of the header has no name: every column needs one']],
    );
  });

  it('reports an empty file', () => {
    for (const text of ['', '\uFEFF', '\n\n  \n']) {
      assert.deepEqual(
        issues(text).map((i) => i.code),
        ['testset.csv-header'],
      );
    }
  });

  it('reports an unclosed quote where the quoted cell starts', () => {
    const found = issues('a,b\n1,2\n3,"never closed\n4,5\n6,7\n');
    assert.equal(found.length, 1);
    assert.deepEqual([found[0]?.code, found[0]?.line, found[0]?.col], ['testset.csv-syntax', 3, 3]);
    assert.match(found[0]?.message ?? '', /never closed/);
  });

  it('counts lines by characters, not bytes, before an unclosed quote', () => {
    const found = issues('a,b\nélan,ça\n"x\n');
    assert.deepEqual([found[0]?.line, found[0]?.col], [3, 1]);
  });

  it('summarises after 50 problems', () => {
    const text = 'a,b\n' + '1\n'.repeat(60);
    const found = issues(text);
    assert.equal(found.length, 51);
    assert.equal(found[50]?.code, 'testset.too-many-issues');
    assert.equal(found[50]?.message, '10 more problems in this file not shown');
  });
});
