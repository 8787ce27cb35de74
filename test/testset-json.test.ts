import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Issue } from '../src/shared/errors.ts';
import { parseTestset, type TestsetFormat } from '../src/testsets/formats.ts';
import { arrayElementOffsets } from '../src/testsets/json.ts';
import { locateJsonError } from '../src/shared/json-syntax.ts';
import type { TestsetRow } from '../src/types/index.ts';

function rows(text: string, format: TestsetFormat = 'json'): TestsetRow[] {
  const result = parseTestset(text, format, `cases.${format}`);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result.rows;
}

function issues(text: string, format: TestsetFormat = 'json'): Issue[] {
  const result = parseTestset(text, format, `cases.${format}`);
  assert.ok(!result.ok, 'expected issues');
  return result.issues;
}

/** `[code, line, col, message]`: the parts of an issue the tests pin. */
function located(found: Issue[]): [string, number, number, string][] {
  return found.map((i) => [i.code, i.line, i.col, i.message]);
}

describe('JSON testsets', () => {
  it('reads an array of objects; each row starts at its opening brace', () => {
    const text = `[
  { "country": "France", "capital": "Paris" },
  {
    "country": "Japan",
    "note": "a } and a { and \\" and [ in a string",
    "nested": { "list": [1, { "x": "]" }] }
  },

  {"country": "Peru"}
]`;
    assert.deepEqual(
      rows(text).map((r) => [r.line, r.data]),
      [
        [2, { country: 'France', capital: 'Paris' }],
        [
          3,
          {
            country: 'Japan',
            note: 'a } and a { and " and [ in a string',
            nested: { list: [1, { x: ']' }] },
          },
        ],
        [9, { country: 'Peru' }],
      ],
    );
  });

  it('handles a BOM, CRLF and several rows on one line', () => {
    const text = '\uFEFF[\r\n{"a":1},{"a":2},\r\n  {"a":3}]';
    assert.deepEqual(
      rows(text).map((r) => [r.line, r.data]),
      [
        [2, { a: 1 }],
        [2, { a: 2 }],
        [3, { a: 3 }],
      ],
    );
  });

  it("reads Agenta's testcases shape; the testcase id fills __id__", () => {
    const text = `{
  "name": "country-capitals",
  "tags": ["x", {"testcases": []}],
  "testcases": [
    {
      "id": "e44bf373-44ec-52ce-aa5c-a3bd982e783b",
      "testset_id": "019d9ca2-0000-0000-0000-000000000000",
      "data": { "country": "Germany", "capital": "Berlin", "testcase_dedup_id": "gr-001" }
    },
    { "data": { "country": "France", "capital": "Paris", "__id__": "own" }, "id": "ignored" },
    { "data": { "country": "Japan" } }
  ],
  "after": "testcases"
}`;
    assert.deepEqual(
      rows(text).map((r) => [r.line, r.data, r.meta]),
      [
        [
          5,
          { country: 'Germany', capital: 'Berlin' },
          { id: 'e44bf373-44ec-52ce-aa5c-a3bd982e783b', dedupId: 'gr-001' },
        ],
        [10, { country: 'France', capital: 'Paris' }, { id: 'own' }],
        [11, { country: 'Japan' }, {}],
      ],
    );
  });

  it('an empty array has no rows', () => {
    assert.deepEqual(rows('[]'), []);
    assert.deepEqual(rows('{"testcases": []}'), []);
  });

  it('reports every element that is not an object, at its line and column', () => {
    const text = '[\n  {"a": 1},\n  [1, 2],\n  "text",\n    42\n]';
    assert.deepEqual(located(issues(text)), [
      ['testset.row-type', 3, 3, 'expected an object, found an array [1,2]'],
      ['testset.row-type', 4, 3, 'expected an object, found "text"'],
      ['testset.row-type', 5, 5, 'expected an object, found 42'],
    ]);
  });

  it('reports Agenta testcases without a data object', () => {
    const text = '{"testcases": [\n {"data": {"a": 1}},\n {"id": "x"},\n {"data": [1]}\n]}';
    assert.deepEqual(
      located(issues(text)).map(([code, line]) => [code, line]),
      [
        ['testset.row-type', 3],
        ['testset.row-type', 4],
      ],
    );
  });

  it('reports a top level that is neither an array nor a testcases object', () => {
    for (const text of ['{"rows": []}', '\n  42', '"x"', '{"testcases": {}}']) {
      const found = issues(text);
      assert.equal(found.length, 1);
      assert.equal(found[0]?.code, 'testset.json-shape');
      assert.match(found[0]?.message ?? '', /expected an array of row objects/);
    }
    assert.deepEqual(
      issues('\n  42').map((i) => [i.line, i.col]),
      [[2, 3]],
    );
  });

  // The same positions on every Node version: they come from our own grammar check.
  const syntax: { name: string; text: string; line: number; col: number; message: string }[] = [
    {
      name: 'trailing comma in an array',
      text: '[\n  {"a": 1},\n]',
      line: 2,
      col: 11,
      message: "trailing comma: JSON allows no ',' before ']'",
    },
    {
      name: 'trailing comma in an object',
      text: '[{"a": 1,\n}]',
      line: 1,
      col: 9,
      message: "trailing comma: JSON allows no ',' before '}'",
    },
    {
      name: 'missing comma between elements',
      text: '[\n {"a": 1}\n {"a": 2}\n]',
      line: 3,
      col: 2,
      message: "expected ',' or ']' after an array element, found '{'",
    },
    {
      name: 'unquoted property name',
      text: '[{a: 1}]',
      line: 1,
      col: 3,
      message: 'expected a property name in double quotes, found "a"',
    },
    {
      name: 'single-quoted string',
      text: '[{"a": \'x\'}]',
      line: 1,
      col: 8,
      message: `expected a value, found "'" (JSON strings use double quotes)`,
    },
    {
      name: 'missing colon',
      text: '[{"a" 1}]',
      line: 1,
      col: 7,
      message: `expected ':' after the property name, found "1"`,
    },
    {
      name: 'unterminated string',
      text: '[\n{"a": "open}]',
      line: 2,
      col: 7,
      message: 'a string that starts here is never closed',
    },
    {
      name: 'raw line break in a string',
      text: '[{"a": "one\ntwo"}]',
      line: 1,
      col: 12,
      message: 'a line break inside a string (write it as an escape such as \\n)',
    },
    {
      name: 'truncated file',
      text: '[\n  {"a": 1}',
      line: 2,
      col: 11,
      message: "unexpected end of file: expected the closing ']'",
    },
    {
      name: 'empty file',
      text: '',
      line: 1,
      col: 1,
      message: 'unexpected end of file: expected a JSON value',
    },
    {
      name: 'text after the value',
      text: '[]\n]',
      line: 2,
      col: 1,
      message: "unexpected ']' after the JSON value",
    },
    {
      name: 'bad number',
      text: '[{"a": 01}]',
      line: 1,
      col: 8,
      message: 'invalid number "01"',
    },
    {
      name: 'undefined is not JSON',
      text: '[{"a": undefined}]',
      line: 1,
      col: 8,
      message: 'expected a value, found "undefined"',
    },
    {
      name: 'bad escape',
      text: '["\\x41"]',
      line: 1,
      col: 3,
      message: 'invalid escape "\\\\x" in a string',
    },
  ];
  for (const { name, text, line, col, message } of syntax) {
    it(`invalid JSON: ${name}`, () => {
      assert.deepEqual(located(issues(text)), [
        ['testset.json-syntax', line, col, `invalid JSON: ${message}`],
      ]);
    });
  }

  it('the grammar check accepts everything JSON.parse accepts', () => {
    const valid = [
      '[]',
      '{}',
      ' [ 1 , -2.5e+3 , 0 , 0.1 , 1E9 , true , false , null ] ',
      '{"a": {"b": [{}, [], "\\u00e9\\n\\"\\\\\\/"]}}',
      '"\ud800"',
      '[[[[[]]]]]',
    ];
    for (const text of valid) {
      JSON.parse(text);
      assert.equal(locateJsonError(text), null, text);
    }
  });

  it('finds element offsets only in the rows array', () => {
    const text = '{"x": [9, 9], "testcases": [ {"data": {}} , 1, "s", [2] ], "y": [8]}';
    const offsets = arrayElementOffsets(text, 'testcases');
    assert.deepEqual(
      offsets.map((o) => text[o]),
      ['{', '1', '"', '['],
    );
  });
});

describe('JSONL testsets', () => {
  it('reads one object per line; blank lines are skipped', () => {
    const text = '\uFEFF{"a": 1}\r\n\r\n  {"a": 2, "b": [1]}\n\n{"a": 3}';
    assert.deepEqual(
      rows(text, 'jsonl').map((r) => [r.line, r.data]),
      [
        [1, { a: 1 }],
        [3, { a: 2, b: [1] }],
        [5, { a: 3 }],
      ],
    );
  });

  it('reports each bad line with its line and column and checks the rest', () => {
    const text = '{"a": 1}\n{"a": 2,}\n[1]\n{"a": 4}\n  nope\n"s"\n';
    assert.deepEqual(located(issues(text, 'jsonl')), [
      ['testset.json-syntax', 2, 8, "invalid JSON: trailing comma: JSON allows no ',' before '}'"],
      ['testset.row-type', 3, 1, 'expected an object, found an array [1]'],
      ['testset.json-syntax', 5, 3, 'invalid JSON: expected a value, found "nope"'],
      ['testset.row-type', 6, 1, 'expected an object, found "s"'],
    ]);
  });

  it('moves metadata keys into meta, as for CSV', () => {
    const text = '{"q": 1, "__tags__": ["smoke"], "__dedup_id__": 7, "__meta__": "{\\"k\\": 1}"}';
    const [row] = rows(text, 'jsonl');
    assert.deepEqual(row?.data, { q: 1 });
    assert.deepEqual(row?.meta, { dedupId: '7', tags: ['smoke'], meta: { k: 1 } });
  });
});

describe('JSON syntax errors at a character that prints as nothing', () => {
  it('name a byte order mark inside the text and a no-break space', () => {
    assert.deepEqual(located(issues('{"a":1}\n\uFEFF{"a":2}\n', 'jsonl')), [
      [
        'testset.json-syntax',
        2,
        1,
        'invalid JSON: expected a value, found a byte order mark (U+FEFF, left where files were joined?)',
      ],
    ]);
    assert.deepEqual(located(issues('[{"a":\u00A01}]')), [
      [
        'testset.json-syntax',
        1,
        7,
        'invalid JSON: expected a value, found U+00A0, an invisible or no-break space',
      ],
    ]);
  });
});
