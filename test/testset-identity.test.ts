import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseTestset, type TestsetFormat } from '../src/testsets/formats.ts';
import { canonicalJson } from '../src/shared/canonical-json.ts';
import {
  computeRevision,
  contentId,
  defaultTestsetId,
  hasTagIn,
  isRevisionPin,
  prepareCases,
  revisionMatches,
  type PrepareCasesOptions,
} from '../src/testsets/identity.ts';
import type { TestsetRow } from '../src/types/index.ts';

const fixtures = join(import.meta.dirname, 'fixtures', 'testsets');

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function row(
  data: Record<string, unknown>,
  line: number,
  meta: TestsetRow['meta'] = {},
): TestsetRow {
  return { data, line, meta };
}

function prepared(rows: TestsetRow[], options: Partial<PrepareCasesOptions> = {}) {
  const result = prepareCases(rows, {
    testsetId: 'capitals',
    file: 'testsets/capitals.csv',
    ...options,
  });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result;
}

function problems(rows: TestsetRow[], options: Partial<PrepareCasesOptions> = {}) {
  const result = prepareCases(rows, {
    testsetId: 'capitals',
    file: 'testsets/capitals.csv',
    ...options,
  });
  assert.ok(!result.ok, 'expected issues');
  return result.issues;
}

function fixtureRows(name: string): TestsetRow[] {
  const format = name.split('.').pop() as TestsetFormat;
  const result = parseTestset(readFileSync(join(fixtures, name), 'utf8'), format, name);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result.rows;
}

describe('canonicalJson', () => {
  const table: { name: string; value: unknown; expected: string }[] = [
    {
      name: 'sorts keys recursively',
      value: { b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } },
      expected: '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    },
    { name: 'keeps array order', value: [3, 1, 2], expected: '[3,1,2]' },
    {
      name: 'drops undefined members, nulls undefined items',
      value: { a: undefined, b: [undefined] },
      expected: '{"b":[null]}',
    },
    {
      name: 'sorts by code unit, index-like keys included',
      value: { b: 1, '10': 2, '9': 3, A: 4, é: 5 },
      expected: '{"10":2,"9":3,"A":4,"b":1,"é":5}',
    },
    {
      name: 'index-like keys deep inside',
      value: [{ x: { '2': 'b', '1': 'a', '-1': 'c' } }],
      expected: '[{"x":{"-1":"c","1":"a","2":"b"}}]',
    },
    {
      name: 'non-finite numbers are null',
      value: [NaN, Infinity, -0, 1.5],
      expected: '[null,null,0,1.5]',
    },
    {
      name: 'dates use toJSON',
      value: { when: new Date(Date.UTC(2024, 0, 2)) },
      expected: '{"when":"2024-01-02T00:00:00.000Z"}',
    },
    {
      name: 'strings are escaped',
      value: { 'a"b': 'line\nbreak\u0001' },
      expected: '{"a\\"b":"line\\nbreak\\u0001"}',
    },
    {
      name: 'a __proto__ key is data',
      value: JSON.parse('{"__proto__": 1, "a": 2}') as unknown,
      expected: '{"__proto__":1,"a":2}',
    },
    { name: 'scalars', value: 'x', expected: '"x"' },
  ];
  for (const { name, value, expected } of table) {
    it(name, () => assert.equal(canonicalJson(value), expected));
  }

  it('writes flat rows (the fast path) exactly as the sorted copy would', () => {
    // A seeded generator of flat rows with every value kind the fast path handles or refuses.
    let state = 42;
    const next = (): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const values = [
      'plain',
      'quote " and \\ and \n',
      '',
      '\u2028 é 🙂',
      0,
      -1.5,
      1e21,
      Number.NaN,
      Infinity,
      true,
      false,
      null,
      undefined,
    ];
    const keys = ['b', 'a', 'é', 'Z', '10x', 'a b', ''];
    for (let round = 0; round < 300; round++) {
      const row: Record<string, unknown> = {};
      for (const key of keys) {
        if (next() < 0.7) row[key] = values[Math.floor(next() * values.length)];
      }
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(row).sort()) sorted[key] = row[key];
      assert.equal(canonicalJson(row), JSON.stringify(sorted));
      // A nested value takes the general path, which must agree on the flat part.
      const withNested: Record<string, unknown> = { ...row, nested: { y: 1, x: [2] } };
      const sortedNested: Record<string, unknown> = {};
      for (const key of Object.keys(withNested).sort()) sortedNested[key] = withNested[key];
      sortedNested.nested = { x: [2], y: 1 };
      assert.equal(canonicalJson(withNested), JSON.stringify(sortedNested));
    }
  });

  it('writes class instances and sparse arrays like JSON.stringify, keys sorted', () => {
    class Point {
      y = 2;
      x = 1;
      get sum(): number {
        return this.x + this.y;
      }
    }
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    assert.equal(
      canonicalJson({ p: new Point(), s: sparse }),
      '{"p":{"x":1,"y":2},"s":[1,null,3]}',
    );
  });

  it('matches a plain recursive reference on random nested data', () => {
    // The fast path (sorted copies, cached key orders per depth) must never differ from the
    // obvious definition, whatever mix of shapes, index-like keys and nesting it meets.
    const reference = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
      if (typeof value === 'object' && value !== null) {
        const record = value as Record<string, unknown>;
        const keys = Object.keys(record).sort();
        return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(record[k])}`).join(',')}}`;
      }
      return JSON.stringify(value);
    };
    let seed = 11;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const keyPool = ['b', 'a', 'c', '10', '9', 'Z', 'é', 'aa', ''];
    const make = (depth: number): unknown => {
      const kind = depth > 3 ? random(3) : random(6);
      if (kind === 0) return random(100);
      if (kind === 1) return `s${random(10)}`;
      if (kind === 2) return random(2) === 0 ? null : true;
      if (kind === 3) return Array.from({ length: random(4) }, () => make(depth + 1));
      const record: Record<string, unknown> = {};
      for (let i = random(5); i > 0; i--)
        record[keyPool[random(keyPool.length)] ?? 'x'] = make(depth + 1);
      return record;
    };
    for (let i = 0; i < 500; i++) {
      const value = make(0);
      assert.equal(canonicalJson(value), reference(value), JSON.stringify(value));
    }
  });

  it('is the same whatever order keys were written in', () => {
    assert.equal(
      canonicalJson({ a: 1, b: { c: 2, d: 3 } }),
      canonicalJson({ b: { d: 3, c: 2 }, a: 1 }),
    );
  });

  it('does not change the value it is given', () => {
    const value = { b: 1, a: [{ d: 1, c: 2 }] };
    canonicalJson(value);
    assert.deepEqual(Object.keys(value), ['b', 'a']);
    assert.deepEqual(Object.keys(value.a[0] ?? {}), ['d', 'c']);
  });

  it('rejects values that are not JSON data', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    assert.throws(() => canonicalJson(cycle), TypeError);
    assert.throws(() => canonicalJson({ n: 1n }), TypeError);
    assert.throws(() => canonicalJson(undefined), TypeError);
  });
});

describe('contentId and revisions', () => {
  it('is the sha256 of the canonical JSON of { testset, data }', () => {
    const data = { q: 'x', a: [1] };
    assert.equal(contentId('t', data), sha256(canonicalJson({ testset: 't', data })));
    assert.equal(contentId('t', data), sha256('{"data":{"a":[1],"q":"x"},"testset":"t"}'));
  });

  it('never confuses values that concatenate alike', () => {
    assert.notEqual(contentId('t', { a: 1, b: 23 }), contentId('t', { a: 12, b: 3 }));
    assert.notEqual(contentId('t', { a: '1', b: '23' }), contentId('t', { a: '12', b: '3' }));
    assert.notEqual(contentId('t', { a: 1 }), contentId('t', { a: '1' }));
  });

  it('depends on the testset id, not on key order', () => {
    assert.notEqual(contentId('a', { x: 1 }), contentId('b', { x: 1 }));
    assert.equal(contentId('a', { x: 1, y: 2 }), contentId('a', { y: 2, x: 1 }));
  });

  it('revision is the sha256 of the ordered contentIds and depends on order', () => {
    assert.equal(computeRevision(['ab', 'cd']), sha256('["ab","cd"]'));
    assert.notEqual(computeRevision(['ab', 'cd']), computeRevision(['cd', 'ab']));
    const rows = [row({ q: 1 }, 2), row({ q: 2 }, 3)];
    assert.notEqual(prepared(rows).revision, prepared([...rows].reverse()).revision);
  });

  it('is the same for a testset converted between CSV, JSONL and Agenta JSON', () => {
    const csv = prepared(fixtureRows('capitals.csv'), {
      testsetId: defaultTestsetId('capitals.csv'),
    });
    const jsonl = prepared(fixtureRows('capitals.jsonl'), {
      testsetId: defaultTestsetId('capitals.jsonl'),
    });
    const json = prepared(fixtureRows('capitals.json'), {
      testsetId: defaultTestsetId('capitals.json'),
    });
    assert.equal(csv.cases.length, 4);
    assert.equal(jsonl.revision, csv.revision);
    assert.equal(json.revision, csv.revision);
    const ids = (r: typeof csv) => r.cases.map((c) => [c.id, c.contentId]);
    assert.deepEqual(ids(jsonl), ids(csv));
    assert.deepEqual(ids(json), ids(csv));
    assert.deepEqual(
      csv.cases.map((c) => c.source),
      [2, 3, 5, 6].map((line) => ({ file: 'testsets/capitals.csv', line })),
    );
  });

  it('ignores metadata: tags and flags never change contentIds', () => {
    const plain = prepared([row({ q: 1 }, 2)]);
    const tagged = prepared([row({ q: 1 }, 2, { tags: ['smoke'], flags: { x: 1 }, id: 'z' })]);
    assert.equal(tagged.revision, plain.revision);
    assert.equal(tagged.cases[0]?.contentId, plain.cases[0]?.contentId);
  });
});

describe('prepareCases identities', () => {
  const rows = [
    row({ country: 'France', capital: 'Paris' }, 2, { dedupId: 'gr-001' }),
    row({ country: 'Japan', capital: 'Tokyo' }, 3),
  ];

  it('uses the dedup id, else the contentId', () => {
    const { cases } = prepared(rows);
    assert.equal(cases[0]?.id, 'gr-001');
    assert.equal(cases[1]?.id, contentId('capitals', { country: 'Japan', capital: 'Tokyo' }));
    assert.equal(cases[1]?.id, cases[1]?.contentId);
  });

  it('uses the hash fields when a row has no dedup id', () => {
    const { cases } = prepared(rows, { hash: ['country'] });
    assert.equal(cases[0]?.id, 'gr-001');
    assert.equal(cases[1]?.id, sha256('{"country":"Japan"}'));
    // The identity survives an edit of other fields; the contentId does not.
    const edited = prepared([row({ country: 'Japan', capital: 'Kyoto' }, 3)], {
      hash: ['country'],
    });
    assert.equal(edited.cases[0]?.id, cases[1]?.id);
    assert.notEqual(edited.cases[0]?.contentId, cases[1]?.contentId);
  });

  it('hashes several fields as the canonical JSON of just those fields', () => {
    // Listed out of order and once twice; an index-like name, a nested value with unsorted
    // keys, a number, a boolean and null: the id is that of the object of exactly these fields.
    const data = {
      zeta: { b: [2, { y: 1, x: 0 }], a: '\u00e9\n"' },
      '10': 7.5,
      alpha: true,
      '2': null,
      ignored: 'not hashed',
    };
    const hash = ['zeta', '2', 'alpha', 'zeta', '10'];
    const { cases } = prepared([row(data, 2)], { hash });
    const picked = { zeta: data.zeta, '10': data['10'], alpha: data.alpha, '2': data['2'] };
    assert.equal(cases[0]?.id, sha256(canonicalJson(picked)));
    assert.equal(
      cases[0]?.id,
      sha256('{"10":7.5,"2":null,"alpha":true,"zeta":{"a":"\u00e9\\n\\"","b":[2,{"x":0,"y":1}]}}'),
    );
  });

  it('an empty hash list means no hash', () => {
    const { cases } = prepared(rows, { hash: [] });
    assert.equal(cases[1]?.id, cases[1]?.contentId);
  });

  it('uses a hash function', () => {
    const { cases } = prepared(rows, { hash: (data) => `c-${String(data.country)}` });
    assert.deepEqual(
      cases.map((c) => c.id),
      ['gr-001', 'c-Japan'],
    );
  });

  it('reports a hash field missing from a row', () => {
    const issues = problems([row({ country: 'X' }, 2), row({ capital: 'Y' }, 5)], {
      hash: ['country'],
    });
    assert.deepEqual(
      issues.map((i) => [i.code, i.file, i.line, i.message]),
      [
        [
          'testset.hash-field-missing',
          'testsets/capitals.csv',
          5,
          'hash field "country" is missing from this row (hash: needs every listed field in every row)',
        ],
      ],
    );
  });

  it('reports a hash function that returns nothing usable or throws', () => {
    const results: unknown[] = ['', undefined, { x: 1 }];
    const issues = problems(
      [row({ n: 0 }, 2), row({ n: 1 }, 3), row({ n: 2 }, 4), row({ n: 3 }, 5)],
      {
        hash: (data) => {
          if (data.n === 3) throw new Error('boom');
          return results[data.n as number] as string;
        },
      },
    );
    assert.deepEqual(
      issues.map((i) => [i.code, i.line, i.message]),
      [
        [
          'testset.hash-invalid',
          2,
          'the case hash function returned "": it must return a non-empty string',
        ],
        [
          'testset.hash-invalid',
          3,
          'the case hash function returned nothing: it must return a non-empty string',
        ],
        [
          'testset.hash-invalid',
          4,
          'the case hash function returned an object {"x":1}: it must return a non-empty string',
        ],
        ['testset.hash-invalid', 5, 'the case hash function threw: boom'],
      ],
    );
  });

  it('gives each case its source, or none for cases given in code', () => {
    assert.deepEqual(prepared(rows).cases[1]?.source, { file: 'testsets/capitals.csv', line: 3 });
    assert.equal(prepared(rows, { file: null }).cases[1]?.source, null);
  });
});

describe('duplicate identities', () => {
  it('names both lines, once per duplicate', () => {
    const issues = problems([
      row({ q: 1 }, 3, { dedupId: 'gr-001' }),
      row({ q: 2 }, 5),
      row({ q: 3 }, 7, { dedupId: 'gr-001' }),
      row({ q: 4 }, 9, { dedupId: 'gr-001' }),
    ]);
    assert.deepEqual(
      issues.map((i) => [i.code, i.line, i.message]),
      [
        [
          'testset.duplicate-id',
          7,
          'duplicate case identity "gr-001": rows at lines 3 and 7 (make __dedup_id__ or the hash: fields unique)',
        ],
        [
          'testset.duplicate-id',
          9,
          'duplicate case identity "gr-001": rows at lines 3 and 9 (make __dedup_id__ or the hash: fields unique)',
        ],
      ],
    );
  });

  it('shortens hex ids to 12 characters', () => {
    // Same content, other tags: not an exact duplicate (those collapse), so still an error.
    const issues = problems([row({ q: 1 }, 2), row({ q: 1 }, 4, { tags: ['slow'] })]);
    const id = contentId('capitals', { q: 1 }).slice(0, 12);
    assert.equal(
      issues[0]?.message,
      `duplicate case identity "${id}": rows at lines 2 and 4 (make __dedup_id__ or the hash: fields unique)`,
    );
  });

  it('catches rows that differ but share their hash fields', () => {
    const issues = problems([row({ country: 'X', v: 1 }, 2), row({ country: 'X', v: 2 }, 3)], {
      hash: ['country'],
    });
    assert.deepEqual(
      issues.map((i) => [i.code, i.line]),
      [['testset.duplicate-id', 3]],
    );
  });

  it('speaks of test cases when there is no file', () => {
    const issues = problems(
      [row({ q: 1 }, 1, { dedupId: 'a' }), row({ q: 2 }, 2, { dedupId: 'a' })],
      { file: null },
    );
    assert.deepEqual(
      issues.map((i) => [i.file, i.message]),
      [
        [
          '',
          'duplicate case identity "a": test cases 1 and 2 (make the testCaseHash values unique)',
        ],
      ],
    );
  });
});

describe('revision pins', () => {
  const revision = 'a3f9c1b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f';
  const table: [string, boolean][] = [
    ['a3f9c1', true],
    ['A3F9C1B2', true],
    [revision, true],
    [revision.toUpperCase(), true],
    ['a3f9c', false], // too short
    ['a3f9c2', false], // not a prefix
    ['', false],
    ['a3f9c1b2x', false], // not hex
    [' a3f9c1', false],
    [`${revision}0`, false],
  ];
  for (const [pin, expected] of table) {
    it(`${JSON.stringify(pin)} ${expected ? 'matches' : 'does not match'}`, () => {
      assert.equal(revisionMatches(pin, revision), expected);
    });
  }

  it('isRevisionPin checks the form alone', () => {
    assert.equal(isRevisionPin('abcdef'), true);
    assert.equal(isRevisionPin('abcde'), false);
    assert.equal(isRevisionPin('main'), false);
  });

  it('gives each case its row position and hashes the revision over every row', () => {
    const rows = fixtureRows('capitals.csv');
    const all = prepared(rows);
    assert.deepEqual(
      all.cases.map((c) => c.index),
      all.cases.map((_, i) => i),
    );
    assert.equal(all.revision, computeRevision(all.cases.map((c) => c.contentId)));
  });

  for (const count of [0, 1, 2049]) {
    it(`computes the revision of ${count} rows as computeRevision does`, () => {
      const rows = Array.from({ length: count }, (_, i) => row({ q: `question ${i}` }, i + 2));
      const all = prepared(rows);
      assert.equal(all.cases.length, count);
      assert.equal(all.revision, computeRevision(all.cases.map((c) => c.contentId)));
    });
  }
});

describe('hasTagIn', () => {
  const table: [string[], string[]][] = [
    [[], ['France', 'Japan', 'Peru', 'Australia']],
    [['smoke'], ['France', 'Japan']],
    [
      ['slow', 'regression'],
      ['Japan', 'Australia'],
    ],
    [['Smoke'], []],
    [['nope'], []],
  ];
  const rows = fixtureRows('capitals.csv');
  for (const [tags, expected] of table) {
    it(`[${tags.join(', ')}] keeps ${expected.join(', ') || 'nothing'}`, () => {
      // No tags is no filter: the run keeps every case (prepare passes no `keep` then).
      const tagged = tags.length === 0 ? () => true : hasTagIn(tags);
      assert.deepEqual(
        rows.filter((r) => tagged(r.meta)).map((r) => r.data.country),
        expected,
      );
    });
  }
});

describe('defaultTestsetId', () => {
  const table: [string, string][] = [
    ['testsets/capitals.csv', 'capitals'],
    ['capitals.jsonl', 'capitals'],
    ['C:\\data\\capitals.json', 'capitals'],
    ['./a/b.v2.ndjson', 'b.v2'],
    ['noext', 'noext'],
  ];
  for (const [path, expected] of table) {
    it(`${path} → ${expected}`, () => assert.equal(defaultTestsetId(path), expected));
  }
});
