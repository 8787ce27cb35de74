/**
 * `renderDiff` (the text a user reads) and `renderDiffJson` for a testset diff, and diffing and
 * rendering a very large testset.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textWidth } from '../src/shared/text-table.ts';
import { diffTestsets } from '../src/testsets/diff.ts';
import { renderTestsetTable } from '../src/report/testset-table.ts';
import { renderDiff, type DiffRenderOptions } from '../src/report/testset-diff.ts';
import { renderDiffJson } from '../src/report/testset-diff-json.ts';
import type { PreparedCase } from '../src/types/index.ts';
import { ANSI, cases, FILE, fromCsv, prepare, rows } from './helpers/testset-diff-cases.ts';

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
      // Equal content ids make equal revisions: both sides carry the same one.
      renderDiff(renamed, {
        ...options,
        afterRevision: options.beforeRevision,
        beforeRows: 1,
        afterRows: 1,
      }),
      [
        '--- testsets/capitals.csv@main (rev 3f9a1c2b7d4e, 1 row)',
        '+++ testsets/capitals.csv (rev 3f9a1c2b7d4e, 1 row)',
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
