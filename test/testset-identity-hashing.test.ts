/**
 * Canonical JSON, content ids and testset revisions: what a case's identity and a testset's
 * revision are computed from, and what they never depend on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson } from '../src/shared/canonical-json.ts';
import { computeRevision, contentId, defaultTestsetId } from '../src/testsets/identity.ts';
import { fixtureRows, prepared, row, sha256 } from './helpers/testset-identity-rows.ts';

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

  it('writes a BigInt as digits and n, apart from any number or string', () => {
    assert.equal(canonicalJson({ n: 1n }), '{"n":1n}');
    assert.notEqual(canonicalJson({ n: 1n }), canonicalJson({ n: 1 }));
    assert.notEqual(canonicalJson({ n: 1n }), canonicalJson({ n: '1n' }));
  });

  it('rejects values that are not JSON data', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    assert.throws(() => canonicalJson(cycle), TypeError);
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
