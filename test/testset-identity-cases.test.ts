/**
 * `prepareCases` identities (dedup id, hash fields, hash function, content) and duplicate
 * identities; revision pins, tag filters and the default testset id.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
import { fixtureRows, prepared, row, sha256 } from './helpers/testset-identity-rows.ts';

function problems(rows: TestsetRow[], options: Partial<PrepareCasesOptions> = {}) {
  const result = prepareCases(rows, {
    testsetId: 'capitals',
    file: 'testsets/capitals.csv',
    ...options,
  });
  assert.ok(!result.ok, 'expected issues');
  return result.issues;
}

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
  it('names both rows as file:line, once per duplicate, with the __dedup_id__', () => {
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
          'duplicate case identity: rows testsets/capitals.csv:3 and testsets/capitals.csv:7 have the same __dedup_id__ "gr-001" (make __dedup_id__ unique)',
        ],
        [
          'testset.duplicate-id',
          9,
          'duplicate case identity: rows testsets/capitals.csv:3 and testsets/capitals.csv:9 have the same __dedup_id__ "gr-001" (make __dedup_id__ unique)',
        ],
      ],
    );
  });

  it('says rows of the same data but other tags are one case, without a hashed id', () => {
    // Same content, other tags: not an exact duplicate (those collapse), so still an error.
    const issues = problems([row({ q: 1 }, 2), row({ q: 1 }, 4, { tags: ['slow'] })]);
    assert.equal(
      issues[0]?.message,
      'duplicate case identity: rows testsets/capitals.csv:2 and testsets/capitals.csv:4 have the same data, with other tags or metadata (remove one, or give each its own __dedup_id__)',
    );
  });

  it('names the values of the hash: fields rows share, not their hash', () => {
    const issues = problems(
      [
        row({ country: 'X', lang: 'en', v: 1 }, 2),
        row({ country: 'Y', lang: 'en', v: 2 }, 3),
        row({ country: 'X', lang: 'en', v: 3 }, 4),
      ],
      { hash: ['lang', 'country'] },
    );
    assert.deepEqual(
      issues.map((i) => [i.code, i.line, i.message]),
      [
        [
          'testset.duplicate-id',
          4,
          'duplicate case identity: rows testsets/capitals.csv:2 and testsets/capitals.csv:4 have the same hash: fields, country "X" and lang "en" (make the hash: fields unique, or give each row its own __dedup_id__)',
        ],
      ],
    );
  });

  it('cuts a long hash field value, and writes one that is not a string as JSON', () => {
    const long = 'x'.repeat(100);
    const issues = problems(
      [row({ q: long, n: { a: [1] }, v: 1 }, 2), row({ q: long, n: { a: [1] }, v: 2 }, 3)],
      { hash: ['q', 'n'] },
    );
    assert.equal(
      issues[0]?.message,
      `duplicate case identity: rows testsets/capitals.csv:2 and testsets/capitals.csv:3 have the same hash: fields, n {"a":[1]} and q "${'x'.repeat(59)}… (make the hash: fields unique, or give each row its own __dedup_id__)`,
    );
  });

  it('speaks of testCases when there is no file: the fields, or the value testCaseHash returned', () => {
    const fields = problems([row({ q: 'a', n: 1 }, 1), row({ q: 'a', n: 2 }, 2)], {
      file: null,
      hash: ['q'],
    });
    assert.deepEqual(
      fields.map((i) => [i.file, i.message]),
      [
        [
          '',
          'duplicate case identity: testCases[0] and testCases[1] have the same testCaseHash fields, q "a" (make the testCaseHash values unique)',
        ],
      ],
    );
    const computed = problems([row({ q: 'a', n: 1 }, 1), row({ q: 'a', n: 2 }, 2)], {
      file: null,
      hash: (data) => `${String(data.q)}!`,
    });
    assert.equal(
      computed[0]?.message,
      'duplicate case identity: testCaseHash returned "a!" for testCases[0] and testCases[1] (make the testCaseHash values unique)',
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
