/**
 * `renderTestsetTable` (widths, wide characters, cut and dropped columns, colors) and the
 * `describeIdentity` and `testsetColumns` it relies on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textWidth } from '../src/shared/text-table.ts';
import {
  describeIdentity,
  renderTestsetTable,
  testsetColumns,
  type TableRenderOptions,
} from '../src/report/testset-table.ts';
import type { PreparedCase } from '../src/types/index.ts';
import { ANSI, cases, fromCsv } from './helpers/testset-diff-cases.ts';

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
    assert.equal(
      header,
      '#  id            q               n     obj      tags   missing  __tags__',
    );
    assert.match(first ?? '', /a {15}null {2}\{"k":1\} {2}\["x"\] {11}smoke$/);
    // A tab is written out as the other controls are, so it never reads as a space.
    assert.match(second ?? '', / b\\u0009c\\u001b$/);
  });

  it('names the identity column "case id" when a data field is called id', () => {
    const withId = fromCsv('id,question\nq1,hello\n');
    const [header] = renderTestsetTable(withId.cases, { ...base, revision: withId.revision }).split(
      '\n',
    );
    assert.match(header ?? '', /^# {2}case id +id +question$/);
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
