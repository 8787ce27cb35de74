/* eslint-disable no-control-regex -- these tests are about ANSI escape sequences */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { compareArtifacts } from '../src/compare/compare.ts';
import { renderComparisonText } from '../src/report/comparison-text.ts';
import { renderSummary } from '../src/report/summary-table.ts';
import {
  padToWidth,
  renderTable,
  textWidth,
  textWidthUpTo,
  truncateToWidth,
} from '../src/shared/text-table.ts';
import type { ResultsArtifact, RunResult } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { assertMatrixLinesUp } from './helpers/grid-matrix.ts';
import { fixtureRuns } from './report-fixture.ts';

const red = (text: string): string => `\x1b[31m${text}\x1b[39m`;
const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * The display columns where each cell of a table line ends. Cells are told apart by runs of two
 * or more spaces, so a cell may itself hold single spaces (`pass rate`).
 */
function cellEnds(line: string): number[] {
  const plain = stripAnsi(line);
  return [...plain.matchAll(/\S+(?: \S+)*/g)].map((match) =>
    textWidth(plain.slice(0, match.index + match[0].length)),
  );
}

/** The display columns where each cell of a table line starts. */
function cellStarts(line: string): number[] {
  const plain = stripAnsi(line);
  return [...plain.matchAll(/\S+(?: \S+)*/g)].map((match) =>
    textWidth(plain.slice(0, match.index)),
  );
}

describe('textWidth', () => {
  const table: [string, number][] = [
    ['plain', 5],
    ['', 0],
    ['café', 4],
    ['cafe\u0301', 4],
    ['日本語', 6],
    ['한국어', 6],
    ['ｆｕｌｌ', 8],
    ['🙂', 2],
    ['a😀b', 4],
    // One picture each, as terminals draw them; a per-code-point count said 4 and 4.
    ['👩‍💻', 2],
    ['🇯🇵', 2],
    ['…', 1],
    ['─', 1],
    [red('red'), 3],
    [`${red('日本')}語`, 6],
  ];
  for (const [text, width] of table) {
    it(`${JSON.stringify(text)} is ${width} columns`, () => assert.equal(textWidth(text), width));
  }
});

describe('textWidthUpTo', () => {
  it('is the width up to the limit and limit + 1 past it', () => {
    assert.equal(textWidthUpTo('日本語', 6), 6);
    assert.equal(textWidthUpTo('日本語', 5), 6);
    assert.equal(textWidthUpTo('plain text', 4), 5);
    assert.equal(textWidthUpTo(red('日本語'), 10), 6);
    assert.equal(textWidthUpTo('', 0), 0);
  });

  it('agrees with textWidth on mixed text of every length', () => {
    const text = `a${red('日本')}b👩‍💻cafe\u0301 한국어 ｆｕｌｌ 🇯🇵`.repeat(5);
    const full = textWidth(text);
    for (let limit = 0; limit <= full + 2; limit++) {
      assert.equal(textWidthUpTo(text, limit), Math.min(full, limit + 1), `limit ${limit}`);
    }
  });

  it('stops early on a huge text: it reads graphemes only until the limit is passed', () => {
    const huge = '日本語のテキスト'.repeat(200_000);
    // Count the graphemes read, through the segmenter every measure goes through.
    const proto = Intl.Segmenter.prototype;
    const original = Object.getOwnPropertyDescriptor(proto, 'segment')!;
    const segment = original.value as (this: Intl.Segmenter, text: string) => Intl.Segments;
    let read = 0;
    proto.segment = function (this: Intl.Segmenter, text: string) {
      const segments = segment.call(this, text);
      return {
        *[Symbol.iterator]() {
          for (const s of segments) {
            read++;
            yield s;
          }
        },
      } as unknown as Intl.Segments;
    };
    try {
      assert.equal(textWidthUpTo(huge, 80), 81);
    } finally {
      Object.defineProperty(proto, 'segment', original);
    }
    // 1.6 million characters; passing 80 columns of two-column ones takes a few hundred.
    assert.ok(read > 0 && read < 2_000, `read ${read} graphemes`);
  });
});

describe('truncateToWidth', () => {
  const table: [string, number, string][] = [
    ['plain text', 20, 'plain text'],
    ['plain text', 10, 'plain text'],
    ['plain text', 6, 'plain…'],
    ['plain text', 1, '…'],
    ['plain text', 0, ''],
    ['日本語', 6, '日本語'],
    // Two columns each: `日本` + `…` is 5, so at 4 one column is left unused.
    ['日本語テキスト', 5, '日本…'],
    ['日本語テキスト', 4, '日…'],
    ['日本語テキスト', 2, '…'],
    ['a👩‍💻b👩‍💻c', 5, 'a👩‍💻b…'],
    ['a👩‍💻b👩‍💻c', 4, 'a👩‍💻…'],
    ['a👩‍💻b👩‍💻c', 3, 'a…'],
    ['cafe\u0301 au lait', 5, 'cafe\u0301…'],
    ['🇯🇵🇫🇷', 3, '🇯🇵…'],
  ];
  for (const [text, max, expected] of table) {
    it(`${JSON.stringify(text)} at ${max} is ${JSON.stringify(expected)}`, () => {
      const cut = truncateToWidth(text, max);
      assert.equal(cut, expected);
      assert.ok(textWidth(cut) <= Math.max(0, max));
    });
  }

  it('keeps colour codes, the closing ones too', () => {
    assert.equal(truncateToWidth(red('日本語テキスト'), 5), red('日本…'));
    assert.equal(truncateToWidth(`ok ${red('日本語テキスト')} more`, 8), `ok ${red('日本…')}`);
    assert.equal(truncateToWidth(red('fits'), 4), red('fits'));
  });

  it('cuts a huge text without measuring all of it', () => {
    const cut = truncateToWidth('日本語のテキスト'.repeat(200_000), 9);
    assert.equal(cut, '日本語の…');
  });
});

describe('padToWidth', () => {
  it('pads by display width, on either side', () => {
    assert.equal(padToWidth('日本', 6), '日本  ');
    assert.equal(padToWidth('日本', 6, 'right'), '  日本');
    assert.equal(padToWidth(red('ab'), 4), `${red('ab')}  `);
    assert.equal(padToWidth('too wide', 3), 'too wide');
  });
});

describe('renderTable', () => {
  it('aligns columns by display width: CJK, emoji and coloured cells', () => {
    const lines = renderTable(
      [
        ['name', 'count', 'note'],
        ['東京', '12', 'capital'],
        ['👩‍💻 dev', '3', red('red')],
        [red('Paris'), '1,024', '日本語'],
      ],
      { columns: [{}, { align: 'right' }] },
    );
    assert.deepEqual(lines.map(stripAnsi), [
      'name    count  note',
      '東京       12  capital',
      '👩‍💻 dev      3  red',
      'Paris   1,024  日本語',
    ]);
    const layout = lines.map((line) => {
      const [, count = 0] = cellEnds(line);
      const [, , note = 0] = cellStarts(line);
      return [count, note];
    });
    assert.equal(new Set(layout.map((pair) => pair.join())).size, 1, layout.join(' | '));
  });

  it('indents, leaves no padding at the end and ends short rows early', () => {
    const lines = renderTable(
      [
        ['a', 'long header', 'x'],
        ['bb', ''],
        ['c', 'y'],
      ],
      { indent: '  ', gap: ' | ' },
    );
    assert.deepEqual(lines, ['  a  | long header | x', '  bb |', '  c  | y']);
  });

  it('draws a rule under the header', () => {
    assert.deepEqual(
      renderTable(
        [
          ['#', 'name'],
          ['1', '日本'],
        ],
        { rule: '─', columns: [{ align: 'right' }] },
      ),
      ['#  name', '─  ────', '1  日本'],
    );
    assert.deepEqual(renderTable([], { rule: '─' }), []);
  });

  it('cuts the shrinking column to fit the width, never halving a wide character', () => {
    const rows = [
      ['id', 'text', 'n'],
      ['a', '日本語のテキストです', '1'],
      ['b', 'short', '22'],
    ];
    const lines = renderTable(rows, {
      maxWidth: 16,
      columns: [{}, { shrink: true }, { align: 'right' }],
    });
    // 16 − 2 × 2 gaps − `id` − `n`: 8 columns of text, of which `日本語…` fills 7.
    assert.deepEqual(lines, ['id  text       n', 'a   日本語…    1', 'b   short     22']);
    for (const line of lines) assert.ok(textWidth(line) <= 16, line);
    // Without a limit, nothing is cut.
    assert.match(renderTable(rows, { columns: [{}, { shrink: true }] })[1] ?? '', /です/);
  });

  it('cuts coloured cells and keeps their colour closed', () => {
    const [, row] = renderTable([['h', 'text'], ['a', red('日本語のテキスト')], ['b']], {
      maxWidth: 10,
      columns: [{}, { shrink: true }],
    });
    assert.equal(row, `a  ${red('日本語…')}`);
  });

  it('shares the room fairly among shrinking columns, none below its minimum', () => {
    const lines = renderTable([['ok', 'y'.repeat(50), 'z'.repeat(50), 'w'.repeat(50)]], {
      maxWidth: 40,
      columns: [{ shrink: true }, { shrink: true }, { shrink: true }, { shrink: true }],
    });
    // 40 − 3 gaps of 2 = 34: `ok` keeps its 2, the others split 32 as 10, 11, 11.
    assert.equal(lines[0], `ok  ${'y'.repeat(9)}…  ${'z'.repeat(10)}…  ${'w'.repeat(10)}…`);
    assert.equal(textWidth(lines[0] ?? ''), 40);

    const tight = renderTable([['a'.repeat(20), 'b'.repeat(20)]], {
      maxWidth: 10,
      columns: [
        { shrink: true, minWidth: 6 },
        { shrink: true, minWidth: 6 },
      ],
    });
    assert.deepEqual(tight, [`${'a'.repeat(5)}…  ${'b'.repeat(5)}…`]);
  });

  it('cuts to the minimums on a line narrower than the indent (COLUMNS=1)', () => {
    const lines = renderTable(
      [
        ['pass rate', 'a → b (detail detail)'],
        ['ok', 'c → d (more detail detail)'],
      ],
      {
        indent: '  ',
        maxWidth: 1,
        columns: [
          { shrink: true, minWidth: 12 },
          { shrink: true, minWidth: 8 },
        ],
      },
    );
    // Each column at its minimum (or its widest cell), the cells cut to it and aligned.
    assert.deepEqual(lines, ['  pass rate  a → b (…', '  ok         c → d (…']);
  });

  it('never cuts a column that does not shrink', () => {
    const [line] = renderTable([['keep this whole', 'cut me please']], {
      maxWidth: 20,
      columns: [{}, { shrink: true }],
    });
    assert.equal(line, 'keep this whole  cu…');
  });
});

describe('tables with a CJK cell line up', () => {
  /** The fixture with evaluator `tone` renamed `語調`, in the summaries and the cases. */
  function cjkRuns(): RunResult[] {
    const runs = fixtureRuns();
    for (const run of runs) {
      const { tone, ...rest } = run.summary.evaluators;
      if (tone !== undefined) run.summary.evaluators = { ...rest, 語調: tone };
      for (const result of run.cases) {
        for (const evaluation of result.evaluations) {
          if (evaluation.evaluator === 'tone') evaluation.evaluator = '語調';
        }
      }
    }
    return runs;
  }

  it('in the end-of-run summary', () => {
    // One run: a suite over several grid points shows a matrix instead of evaluator tables.
    const lines = renderSummary(cjkRuns().slice(1), { color: true }).split('\n');
    const header = lines.findIndex((line) => line.includes('evaluator'));
    const table = lines.slice(header, header + 3);
    assert.match(table[2] ?? '', /語調/);
    // The ids are left-aligned, the numbers right-aligned: every number column ends at the
    // same display column on every row.
    const ends = table.map((line) => cellEnds(line).slice(1).join());
    assert.equal(new Set(ends).size, 1, table.join('\n'));
    assert.equal(ends[0]?.split(',').length, 5);
  });

  it('in the text form of a comparison', () => {
    const artifact = (runs: RunResult[]): ResultsArtifact => ({
      schemaVersion: 1,
      tool: { name: 'evalgate', version: '0.1.0' },
      config: 'evals.yaml',
      configHash: 'hash',
      git: null,
      startedAt: '2024-05-01T12:00:00.000Z',
      durationMs: 1000,
      interrupted: false,
      verdict: 'pass',
      runs,
    });
    const [, failing] = cjkRuns() as [RunResult, RunResult];
    const comparison = compareArtifacts(artifact([failing]), artifact([failing]), {
      minPaired: 1,
    });
    const lines = renderComparisonText(comparison, { color: true }).split('\n');
    const rows = lines.filter((line) => /^ {2}(pass rate|exact|語調) /.test(stripAnsi(line)));
    assert.equal(rows.length, 3, lines.join('\n'));
    // The change column starts at the same display column on every row.
    const changeStarts = rows.map((line) => {
      const plain = stripAnsi(line);
      const gap = /\S(?: \S+)* {2,}/.exec(plain.slice(2));
      return gap === null ? -1 : textWidth(plain.slice(0, 2 + gap.index + gap[0].length));
    });
    assert.equal(new Set(changeStarts).size, 1, rows.join('\n'));
  });
});

describe('the built CLI measures wide text with the string-width copy next to its bundle', () => {
  it('lines up a grid matrix whose grid values are CJK', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': `version: 1
suites:
  - id: langs
    testset:
      cases:
        - { expected: a, output: "answer: a" }
    grid:
      lang: [日本語, en, 한국어]
    evaluators:
      - { id: exact, use: is-equals, with: { expected: "answer: {{case.expected}}" } }
`,
    });
    const result = await runCli(['run', 'evals.yaml'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assertMatrixLinesUp(result.stdout, 'lang', ['日本語', 'en', '한국어']);
  });
});
