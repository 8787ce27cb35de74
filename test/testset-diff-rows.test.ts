/**
 * `diffTestsets`: how case identity decides what an edit is, the kinds of difference between two
 * versions of a testset (added, removed, changed, metadata only, moved), and field changes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffTestsets, type TestsetDiff } from '../src/testsets/diff.ts';
import type { PreparedCase, RowMeta } from '../src/types/index.ts';
import { cases, fromCsv, prepare, rows } from './helpers/testset-diff-cases.ts';

/** A diff reduced to ids and counts, for table-driven comparisons. */
function outline(diff: TestsetDiff) {
  return {
    added: diff.added.map((row) => row.id),
    removed: diff.removed.map((row) => row.id),
    changed: diff.changed.map((change) => [change.after.id, change.fields.map((f) => f.field)]),
    metadataOnly: diff.metadataOnly.map((change) => [
      change.after.id,
      change.fields.map((f) => f.field),
    ]),
    unchanged: diff.unchanged,
    moved: diff.moved.map((move) => move.after.id),
    reordered: diff.reordered,
    equal: diff.equal,
  };
}

describe('diffTestsets: identity decides what an edit is', () => {
  const header = 'country,capital,expected';
  const withDedup = (expected: string) =>
    [
      `${header},__dedup_id__`,
      'France,Paris,Paris,gr-001',
      `Japan,Tokyo,${expected},gr-002`,
      'Peru,Lima,Lima,gr-003',
    ].join('\n');
  const withoutDedup = (expected: string) =>
    [header, 'France,Paris,Paris', `Japan,Tokyo,${expected}`, 'Peru,Lima,Lima'].join('\n');

  it('with dedup ids an edited expectation is one changed row', () => {
    const diff = diffTestsets(fromCsv(withDedup('Tokyo')).cases, fromCsv(withDedup('Kyoto')).cases);
    assert.deepEqual(outline(diff), {
      added: [],
      removed: [],
      changed: [['gr-002', ['expected']]],
      metadataOnly: [],
      unchanged: 2,
      moved: [],
      reordered: false,
      equal: false,
    });
    const [change] = diff.changed;
    assert.deepEqual(change?.fields, [{ field: 'expected', before: 'Tokyo', after: 'Kyoto' }]);
  });

  it('with content identity the same edit is one row removed and one added', () => {
    const before = fromCsv(withoutDedup('Tokyo')).cases;
    const after = fromCsv(withoutDedup('Kyoto')).cases;
    const diff = diffTestsets(before, after);
    assert.equal(diff.changed.length, 0);
    assert.deepEqual(
      diff.removed.map((row) => row.data),
      [{ country: 'Japan', capital: 'Tokyo', expected: 'Tokyo' }],
    );
    assert.deepEqual(
      diff.added.map((row) => row.data),
      [{ country: 'Japan', capital: 'Tokyo', expected: 'Kyoto' }],
    );
    assert.equal(diff.unchanged, 2);
    assert.equal(diff.reordered, false, 'a replaced row is not a move');
    assert.equal(diff.equal, false);
  });

  it('with hash fields an edit outside them is a changed row, inside them a new row', () => {
    const hash = ['country'];
    const base = fromCsv(withoutDedup('Tokyo'), { hash }).cases;
    const edited = diffTestsets(base, fromCsv(withoutDedup('Kyoto'), { hash }).cases);
    assert.deepEqual(
      edited.changed.map((change) => change.fields.map((f) => f.field)),
      [['expected']],
    );
    const renamed = fromCsv(withoutDedup('Tokyo').replace('Japan', 'Nippon'), { hash }).cases;
    const diff = diffTestsets(base, renamed);
    assert.deepEqual([diff.added.length, diff.removed.length, diff.changed.length], [1, 1, 0]);
  });
});

describe('diffTestsets: kinds of difference', () => {
  const a = { q: 'a', expected: 1 };
  const b = { q: 'b', expected: 2 };
  const c = { q: 'c', expected: 3 };
  const d = { q: 'd', expected: 4 };
  const e = { q: 'e', expected: 5 };
  const id = (dedupId: string, extra: RowMeta = {}): RowMeta => ({ dedupId, ...extra });

  const table: {
    name: string;
    before: PreparedCase[];
    after: PreparedCase[];
    expected: ReturnType<typeof outline>;
  }[] = [
    {
      name: 'identical',
      before: cases([a, id('a')], [b, id('b')]),
      after: cases([a, id('a')], [b, id('b')]),
      expected: {
        added: [],
        removed: [],
        changed: [],
        metadataOnly: [],
        unchanged: 2,
        moved: [],
        reordered: false,
        equal: true,
      },
    },
    {
      name: 'both empty',
      before: [],
      after: [],
      expected: {
        added: [],
        removed: [],
        changed: [],
        metadataOnly: [],
        unchanged: 0,
        moved: [],
        reordered: false,
        equal: true,
      },
    },
    {
      name: 'added at the end, removed in the middle',
      before: cases([a, id('a')], [b, id('b')], [c, id('c')]),
      after: cases([a, id('a')], [c, id('c')], [d, id('d')]),
      expected: {
        added: ['d'],
        removed: ['b'],
        changed: [],
        metadataOnly: [],
        unchanged: 2,
        moved: [],
        reordered: false,
        equal: false,
      },
    },
    {
      name: 'changed data and tags: one changed row listing both',
      before: cases([a, id('a', { tags: ['x'] })]),
      after: cases([{ ...a, expected: 9 }, id('a', { tags: ['y'] })]),
      expected: {
        added: [],
        removed: [],
        changed: [['a', ['expected', '__tags__']]],
        metadataOnly: [],
        unchanged: 0,
        moved: [],
        reordered: false,
        equal: false,
      },
    },
    {
      name: 'metadata only: tags, flags, meta and __id__ keep the revision',
      before: cases([a, id('a', { tags: ['x'], flags: { skip: true } })], [b, id('b')]),
      after: cases([a, id('a', { meta: { owner: 'kim' }, id: '7' })], [b, id('b')]),
      expected: {
        added: [],
        removed: [],
        changed: [],
        metadataOnly: [['a', ['__tags__', '__flags__', '__meta__', '__id__']]],
        unchanged: 1,
        moved: [],
        reordered: false,
        equal: true,
      },
    },
    {
      name: 'reordered: one row moved to the end lists only that row',
      before: cases([a, id('a')], [b, id('b')], [c, id('c')], [d, id('d')], [e, id('e')]),
      after: cases([b, id('b')], [c, id('c')], [d, id('d')], [e, id('e')], [a, id('a')]),
      expected: {
        added: [],
        removed: [],
        changed: [],
        metadataOnly: [],
        unchanged: 5,
        moved: ['a'],
        reordered: true,
        equal: false,
      },
    },
    {
      name: 'reordered alongside an addition',
      before: cases([a, id('a')], [b, id('b')], [c, id('c')]),
      after: cases([d, id('d')], [b, id('b')], [c, id('c')], [a, id('a')]),
      expected: {
        added: ['d'],
        removed: [],
        changed: [],
        metadataOnly: [],
        unchanged: 3,
        moved: ['a'],
        reordered: true,
        equal: false,
      },
    },
    {
      name: 'a renamed dedup id: removed + added, same revision',
      before: cases([a, id('a')], [b, id('b')]),
      after: cases([a, id('a2')], [b, id('b')]),
      expected: {
        added: ['a2'],
        removed: ['a'],
        changed: [],
        metadataOnly: [],
        unchanged: 1,
        moved: [],
        reordered: false,
        equal: true,
      },
    },
  ];

  for (const { name, before, after, expected } of table) {
    it(name, () => assert.deepEqual(outline(diffTestsets(before, after)), expected));
  }

  it('equal matches "same revision" in every case above', () => {
    for (const { name, before, after } of table) {
      const revision = (list: PreparedCase[]) =>
        prepare(list.map((c, i) => ({ data: c.data, line: i + 2, meta: c.meta }))).revision;
      assert.equal(diffTestsets(before, after).equal, revision(before) === revision(after), name);
    }
  });

  it('a different testset id changes every contentId with no data field to show', () => {
    const before = prepare(rows([a, id('a')]), { testsetId: 'capitals' }).cases;
    const after = prepare(rows([a, id('a')]), { testsetId: 'capitals-v2' }).cases;
    const diff = diffTestsets(before, after);
    assert.deepEqual(
      diff.changed.map((change) => change.fields),
      [[]],
    );
  });
});

describe('diffTestsets: field changes', () => {
  const table: {
    name: string;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
    fields: { field: string; before: unknown; after: unknown }[];
  }[] = [
    {
      name: 'a field added and one removed, sorted by key',
      before: { q: 'x', notes: 'old' },
      after: { q: 'x', extra: [1] },
      fields: [
        { field: 'extra', before: undefined, after: [1] },
        { field: 'notes', before: 'old', after: undefined },
      ],
    },
    {
      name: 'nested values compare whole, by canonical JSON',
      before: { q: 'x', ctx: { a: 1, b: { c: [1, 2] } } },
      after: { q: 'x', ctx: { a: 1, b: { c: [2, 1] } } },
      fields: [
        {
          field: 'ctx',
          before: { a: 1, b: { c: [1, 2] } },
          after: { a: 1, b: { c: [2, 1] } },
        },
      ],
    },
    {
      name: 'key order inside a nested object is no change',
      before: { q: 'x', ctx: { a: 1, b: 2 }, n: 1 },
      after: { q: 'x', ctx: { b: 2, a: 1 }, n: 2 },
      fields: [{ field: 'n', before: 1, after: 2 }],
    },
    {
      name: 'null and absent differ; undefined and absent do not',
      before: { q: 'x', a: null, b: undefined, n: 1 },
      after: { q: 'x', n: 2 },
      fields: [
        { field: 'a', before: null, after: undefined },
        { field: 'n', before: 1, after: 2 },
      ],
    },
    {
      name: 'a number and its text differ',
      before: { q: 'x', n: 1 },
      after: { q: 'x', n: '1' },
      fields: [{ field: 'n', before: 1, after: '1' }],
    },
  ];
  for (const { name, before, after, fields } of table) {
    it(name, () => {
      const diff = diffTestsets(
        cases([before, { dedupId: 'r' }]),
        cases([after, { dedupId: 'r' }]),
      );
      assert.deepEqual(diff.changed[0]?.fields, fields);
    });
  }
});
