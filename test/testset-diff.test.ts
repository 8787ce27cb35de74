import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textWidth } from '../src/shared/text-table.ts';
import { diffTestsets, type TestsetDiff } from '../src/testsets/diff.ts';
import { parseTestset } from '../src/testsets/formats.ts';
import { prepareCases, type PrepareCasesOptions } from '../src/testsets/identity.ts';
import {
  describeIdentity,
  renderTestsetTable,
  testsetColumns,
  type TableRenderOptions,
} from '../src/report/testset-table.ts';
import { renderDiff, type DiffRenderOptions } from '../src/report/testset-diff.ts';
import { renderDiffJson } from '../src/report/testset-diff-json.ts';
import type { PreparedCase, RowMeta, TestsetRow } from '../src/types/index.ts';

const FILE = 'testsets/capitals.csv';

function prepare(rows: TestsetRow[], options: Partial<PrepareCasesOptions> = {}) {
  const result = prepareCases(rows, { testsetId: 'capitals', file: FILE, ...options });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result;
}

function fromCsv(text: string, options: Partial<PrepareCasesOptions> = {}) {
  const parsed = parseTestset(text, 'csv', FILE);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
  return prepare(parsed.rows, options);
}

/** Rows on consecutive lines from 2, as a CSV with a header would have them. */
function rows(...specs: [Record<string, unknown>, RowMeta?][]): TestsetRow[] {
  return specs.map(([data, meta], index) => ({ data, line: index + 2, meta: meta ?? {} }));
}

function cases(...specs: [Record<string, unknown>, RowMeta?][]): PreparedCase[] {
  return prepare(rows(...specs)).cases;
}

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

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

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

describe('renderDiff', () => {
  const before = fromCsv(
    [
      'country,capital,notes,__dedup_id__,__tags__',
      'France,Paris,,gr-001,smoke',
      'Japan,Tokyo,"An island nation; the capital moved from Kyoto in 1869, after the Meiji restoration",gr-002,',
      'Peru,Lima,,gr-003,regression',
      'Chile,Santiago,,gr-004,',
      'Spain,Madrid,,gr-005,',
    ].join('\n'),
  );
  const after = fromCsv(
    [
      'country,capital,notes,__dedup_id__,__tags__',
      'France,Lyon,,gr-001,smoke',
      'Japan,Tokyo,"An island nation; the capital moved from Kyoto in 1869, after the Meiji Restoration",gr-002,',
      'Chile,Santiago,,gr-004,',
      'Peru,Lima,,gr-003,',
      '日本,東京,"two\nlines",gr-006,',
    ].join('\n'),
  );
  const diff = diffTestsets(before.cases, after.cases);
  const options: DiffRenderOptions = {
    beforeLabel: `${FILE}@main`,
    afterLabel: FILE,
    beforeRevision: '3f9a1c2b7d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4',
    afterRevision: '8c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f',
    beforeRows: 5,
    afterRows: 5,
    color: false,
  };

  it('renders sides, counts, each row and the moves', () => {
    assert.equal(
      renderDiff(diff, options),
      [
        '--- testsets/capitals.csv@main (rev 3f9a1c2b7d4e, 5 rows)',
        '+++ testsets/capitals.csv (rev 8c1d2e3f4a5b, 5 rows)',
        '1 added, 1 removed, 2 changed, 1 metadata only, 1 unchanged',
        '',
        '~ gr-001  line 2',
        '    capital: "Paris" → "Lyon"',
        '~ gr-002  line 3',
        '    notes: …to in 1869, after the Meiji restoration" → …to in 1869, after the Meiji Restoration"',
        '+ gr-006  line 6  {"country":"日本","capital":"東京","notes":"two\\nlines"}',
        '- gr-005  line 6  {"country":"Spain","capital":"Madrid","notes":""}',
        '~ gr-003  line 4 → 5  (metadata only; revision unchanged)',
        '    __tags__: ["regression"] → absent',
        '',
        'row order changed (the revision depends on it): 1 row moved',
        '↕ gr-004  line 5 → 4',
        '',
      ].join('\n'),
    );
  });

  it('colors only when asked, and only adds escape codes', () => {
    const colored = renderDiff(diff, { ...options, color: true });
    assert.ok(colored.includes('\x1b[32m+ gr-006'));
    assert.ok(colored.includes('\x1b[31m- gr-005'));
    assert.ok(colored.includes('\x1b[33m~\x1b[39m gr-001'));
    assert.equal(colored.replace(ANSI, ''), renderDiff(diff, options));
    assert.doesNotMatch(renderDiff(diff, options), ANSI);
  });

  it('says when the revision is unchanged, and explains a renamed dedup id', () => {
    const renamed = diffTestsets(
      cases([{ q: 'a' }, { dedupId: 'old' }]),
      cases([{ q: 'a' }, { dedupId: 'new' }]),
    );
    assert.equal(
      renderDiff(renamed, { ...options, beforeRows: 1, afterRows: 1 }),
      [
        '--- testsets/capitals.csv@main (rev 3f9a1c2b7d4e, 1 row)',
        '+++ testsets/capitals.csv (rev 8c1d2e3f4a5b, 1 row)',
        '1 added, 1 removed, 0 changed, 0 unchanged',
        '',
        '+ new  line 2  (same data as removed old)',
        '- old  line 2  {"q":"a"}',
        '',
        'revision unchanged',
        '',
      ].join('\n'),
    );
  });

  it('shows content ids as 12 hex digits, absent values and the testset-id case', () => {
    const text = renderDiff(
      diffTestsets(cases([{ q: 'a' }], [{ q: 'b' }]), cases([{ q: 'a', n: 1 }], [{ q: 'b' }])),
      options,
    );
    assert.match(text, /^\+ [0-9a-f]{12} {2}line 2 {2}\{"q":"a","n":1\}$/m);
    assert.match(text, /^- [0-9a-f]{12} {2}line 2 {2}\{"q":"a"\}$/m);

    const moved = diffTestsets(
      prepare(rows([{ q: 'a', n: 1 }, { dedupId: 'r' }]), { testsetId: 'one' }).cases,
      prepare(rows([{ q: 'a' }, { dedupId: 'r' }]), { testsetId: 'one' }).cases,
    );
    assert.match(renderDiff(moved, options), /^ {4}n: 1 → absent$/m);

    const renamedSet = diffTestsets(
      prepare(rows([{ q: 'a' }, { dedupId: 'r' }]), { testsetId: 'one' }).cases,
      prepare(rows([{ q: 'a' }, { dedupId: 'r' }]), { testsetId: 'two' }).cases,
    );
    assert.match(renderDiff(renamedSet, options), /same data; the contentId differs/);
  });

  it('shortens long values to the width, keeping strings quoted', () => {
    const long = 'x'.repeat(300);
    const text = renderDiff(
      diffTestsets(
        cases([{ q: long }, { dedupId: 'r' }], [{ q: 'gone', blob: { deep: [long] } }]),
        cases([{ q: 'short' }, { dedupId: 'r' }]),
      ),
      { ...options, width: 80 },
    );
    for (const line of text.split('\n')) assert.ok(textWidth(line) <= 80, line);
    assert.match(text, /^ {4}q: "x+…" → "short"$/m);
    assert.match(text, /^- [0-9a-f]{12} {2}line 3 {2}\{"q":"gone","blob":\{"deep":\["x+…$/m);
  });

  it('neutralises escape sequences in labels, ids and values', () => {
    const text = renderDiff(
      diffTestsets(
        cases([{ q: 'a' }, { dedupId: 'evil\x1b[2J' }]),
        cases([{ q: '\x1b[31mred' }, { dedupId: 'evil\x1b[2J' }]),
      ),
      { ...options, beforeLabel: 'a\x1bb' },
    );
    assert.ok(!text.includes('\x1b'));
    assert.match(text, /a\\u001bb/);
  });
});

describe('renderDiffJson', () => {
  it('is plain data, absent sides left out', () => {
    const diff = diffTestsets(
      cases([{ q: 'a', old: 1 }, { dedupId: 'r1' }], [{ q: 'b' }, { dedupId: 'r2' }]),
      cases(
        [
          { q: 'a', nested: { k: [1] } },
          { dedupId: 'r1', tags: ['t'] },
        ],
        [{ q: 'c' }],
      ),
    );
    const json = renderDiffJson(diff);
    assert.deepEqual(JSON.parse(JSON.stringify(json)), json);
    assert.deepEqual(json.changed, [
      {
        id: 'r1',
        lines: { before: 2, after: 2 },
        contentIds: {
          before: diff.changed[0]?.before.contentId,
          after: diff.changed[0]?.after.contentId,
        },
        fields: [
          { field: 'nested', after: { k: [1] } },
          { field: 'old', before: 1 },
          { field: '__tags__', after: ['t'] },
        ],
      },
    ]);
    assert.deepEqual(
      json.removed.map((row) => [row.id, row.line, row.data]),
      [['r2', 3, { q: 'b' }]],
    );
    assert.deepEqual(
      json.added.map((row) => [row.line, row.data]),
      [[3, { q: 'c' }]],
    );
    assert.deepEqual([json.unchanged, json.reordered, json.equal], [0, false, false]);
  });
});

describe('renderTestsetTable', () => {
  const capitals = fromCsv(
    [
      'country,capital,notes,__dedup_id__,__tags__',
      'France,Paris,,gr-001,smoke',
      'Japan,東京,"An island nation;\ncapital moved from Kyoto in 1869",gr-002,"smoke, slow"',
      'Peru,Lima,"Population ""about"" 10 million",,',
    ].join('\n'),
  );
  const base: TableRenderOptions = {
    maxWidth: 80,
    color: false,
    revision: capitals.revision,
    identity: describeIdentity(capitals.cases),
  };
  const normalize = (text: string) =>
    text.replaceAll(capitals.revision.slice(0, 12), '<rev>').replace(/\b[0-9a-f]{12}\b/g, '<hash>');

  it('renders at 80 columns', () => {
    assert.equal(
      normalize(renderTestsetTable(capitals.cases, base)),
      [
        '#  id            country  capital  notes                             tags',
        '─  ────────────  ───────  ───────  ────────────────────────────────  ───────────',
        '2  gr-001        France   Paris                                      smoke',
        '3  gr-002        Japan    東京     An island nation;⏎capital moved…  smoke, slow',
        '5  <hash>  Peru     Lima     Population "about" 10 million',
        '3 rows · revision <rev> · identity: dedup id (2 of 3 rows), else content',
        '',
      ].join('\n'),
    );
  });

  /** The column where each cell after the first two starts must be the same on every row. */
  function assertAligned(table: string): void {
    const lines = table.split('\n').slice(0, 1 + 1 + capitals.cases.length);
    const starts = lines.map((line) => {
      const positions: number[] = [];
      let width = 0;
      let previous = ' ';
      for (const char of line) {
        if (previous === ' ' && char !== ' ' && width > 0) positions.push(width);
        width += textWidth(char);
        previous = char;
      }
      return positions[1]; // the start of the third column (country)
    });
    assert.equal(new Set(starts).size, 1, `misaligned:\n${lines.join('\n')}`);
  }

  for (const maxWidth of [40, 80, 200]) {
    it(`fits ${maxWidth} columns with wide characters and line breaks`, () => {
      const text = renderTestsetTable(capitals.cases, { ...base, maxWidth });
      for (const line of text.trimEnd().split('\n')) {
        assert.ok(textWidth(line) <= maxWidth, `${textWidth(line)} > ${maxWidth}: ${line}`);
      }
      assert.doesNotMatch(text, /Kyoto in 1869\n/, 'a cell never breaks its line');
      assertAligned(text);
    });
  }

  it('shows a dedup id whole, so ids alike in their first 12 characters stay apart', () => {
    const questions = fromCsv(
      [
        '__dedup_id__,output,want',
        'question-0001,a,b',
        'question-0002,a,b',
        'question-0003,a,a',
      ].join('\n'),
    );
    const table = renderTestsetTable(questions.cases, {
      ...base,
      revision: questions.revision,
      identity: describeIdentity(questions.cases),
    });
    for (const id of ['question-0001', 'question-0002', 'question-0003']) {
      assert.match(table, new RegExp(`^\\d  ${id}  `, 'm'), table);
    }
    assert.doesNotMatch(table, /…/);
    // A hash id still shows as its first 12 hex digits (the Peru row above).
    assert.match(renderTestsetTable(capitals.cases, base), /^5 {2}[0-9a-f]{12} {2}Peru/m);
  });

  it('cuts only a dedup id wider than half the table', () => {
    const long = `case-${'x'.repeat(100)}`;
    const cases = fromCsv(['__dedup_id__,q', `${long},a`].join('\n')).cases;
    const table = renderTestsetTable(cases, { ...base, identity: 'dedup id' });
    assert.match(table, new RegExp(`^2  case-x{34}…  a$`, 'm'), table);
  });

  it('at 40 columns keeps what fits and counts the rest', () => {
    const text = renderTestsetTable(capitals.cases, { ...base, maxWidth: 40 });
    const [header] = text.split('\n');
    assert.equal(header, '#  id            count…  capit…  notes');
    assert.match(text, /^… 1 more column \(use --json\)$/m);
  });

  it('at 200 columns shows every cell in full', () => {
    const text = renderTestsetTable(capitals.cases, { ...base, maxWidth: 200 });
    assert.match(text, /An island nation;⏎capital moved from Kyoto in 1869/);
    assert.doesNotMatch(text, /…/);
  });

  it('drops columns from the right when many do not fit', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`field${i}`, `value number ${i}`]),
    );
    const many = cases([wide], [{ ...wide, field3: 'x' }]);
    const text = renderTestsetTable(many, { ...base, maxWidth: 80, identity: 'content' });
    for (const line of text.trimEnd().split('\n')) assert.ok(textWidth(line) <= 80, line);
    const header = text.split('\n')[0] ?? '';
    const shown = header.split(/\s{2,}/).length - 2;
    assert.ok(shown >= 5, `only ${shown} data columns at 80`);
    assert.match(text, new RegExp(`^… ${30 - shown} more columns \\(use --json\\)$`, 'm'));
  });

  it('shares the width fairly: short columns whole, long ones cut evenly', () => {
    const list = cases([{ a: 'ok', long1: 'y'.repeat(100), long2: 'z'.repeat(100) }]);
    const text = renderTestsetTable(list, { ...base, maxWidth: 80, identity: 'content' });
    const row = text.split('\n')[2] ?? '';
    assert.match(row, / ok {2}y+… {2}z+…$/);
    const ys = /y+/.exec(row)?.[0].length ?? 0;
    const zs = /z+/.exec(row)?.[0].length ?? 0;
    assert.ok(Math.abs(ys - zs) <= 1, `${ys} vs ${zs}`);
    assert.equal(textWidth(row), 80);
  });

  it('takes chosen columns, shows values as compact JSON and a clashing tags field', () => {
    const list = cases(
      [{ q: 'a', tags: ['x'], n: null, obj: { k: 1 } }, { tags: ['smoke'] }],
      [{ q: 'b\tc\x1b' }],
    );
    const text = renderTestsetTable(list, {
      ...base,
      maxWidth: 100,
      columns: ['q', 'n', 'obj', 'tags', 'missing'],
      identity: 'content',
    });
    const [header, , first, second] = text.split('\n');
    assert.equal(header, '#  id            q          n     obj      tags   missing  __tags__');
    assert.match(first ?? '', /a {10}null {2}\{"k":1\} {2}\["x"\] {11}smoke$/);
    assert.match(second ?? '', / b c\\u001b$/);
  });

  it('colors only when asked', () => {
    const colored = renderTestsetTable(capitals.cases, { ...base, color: true });
    assert.match(colored, ANSI);
    assert.equal(colored.replace(ANSI, ''), renderTestsetTable(capitals.cases, base));
  });

  it('renders an empty testset', () => {
    assert.equal(
      renderTestsetTable([], { ...base, revision: 'abc', identity: 'content' }),
      '#  id\n─  ──\n0 rows · revision abc · identity: content\n',
    );
  });
});

describe('describeIdentity and testsetColumns', () => {
  const dedup = cases([{ q: 'a' }, { dedupId: '1' }], [{ q: 'b' }, { dedupId: '2' }]);
  const mixed = cases([{ q: 'a' }, { dedupId: '1' }], [{ q: 'b', extra: 1 }]);
  const table: [string, PreparedCase[], string[] | undefined, string][] = [
    ['every row has a dedup id', dedup, undefined, 'dedup id'],
    ['content', cases([{ q: 'a' }]), undefined, 'content'],
    ['hash fields', cases([{ q: 'a' }]), ['q', 'r'], 'hash fields q, r'],
    ['mixed', mixed, undefined, 'dedup id (1 of 2 rows), else content'],
    ['empty', [], undefined, 'content'],
  ];
  for (const [name, list, hash, expected] of table) {
    it(name, () => assert.equal(describeIdentity(list, hash), expected));
  }

  it('columns are data fields in first-seen order', () => {
    assert.deepEqual(testsetColumns(mixed), ['q', 'extra']);
  });
});

describe('large testsets', () => {
  it('diffs and renders 150,000 rows without overflowing the stack', () => {
    const many: PreparedCase[] = Array.from({ length: 150_000 }, (_, i) => ({
      id: `row-${i}`,
      contentId: `c${i}`,
      source: { file: FILE, line: i + 2 },
      data: { q: `question ${i}` },
      meta: {},
      index: i,
    }));
    const diff = diffTestsets([], many);
    assert.equal(diff.added.length, 150_000);
    const text = renderDiff(diff, {
      beforeLabel: 'a',
      afterLabel: 'b',
      beforeRevision: '0',
      afterRevision: '1',
      beforeRows: 0,
      afterRows: many.length,
      color: false,
    });
    assert.match(text, /^\+ row-149999 {2}line 150001 {2}\{"q":"question 149999"\}$/m);
    const table = renderTestsetTable(many, {
      maxWidth: 80,
      color: false,
      revision: '1',
      identity: 'dedup id',
    });
    assert.match(table, /^150,000 rows · revision 1 · identity: dedup id$/m);
    assert.equal(diffTestsets(many, [...many].reverse()).moved.length, 149_999);
  });
});
