import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { CSV_OPTIONS, parseCsv } from '../src/testsets/csv.ts';
import {
  CasePreparer,
  computeRevision,
  prepareCases,
  type PrepareCasesResult,
} from '../src/testsets/identity.ts';
import type { TestsetParseResult } from '../src/testsets/issues.ts';
import { parseJsonl } from '../src/testsets/jsonl.ts';
import { readTestset, readTestsetFile, readTestsetInto } from '../src/testsets/read-file.ts';
import {
  LineSplitter,
  RECORD_BATCH,
  splitQuotedLine,
  streamTestsetRows,
} from '../src/testsets/stream-read.ts';
import type { TestsetRow } from '../src/types.ts';

const work = await mkdtemp(join(tmpdir(), 'evalgate-testset-stream-'));
after(() => rm(work, { recursive: true, force: true }));

let files = 0;
async function fileWith(text: string, ext: string): Promise<string> {
  const path = join(work, `t${files++}.${ext}`);
  await writeFile(path, text);
  return path;
}

/** What the streaming reader gives for `text`, in the shape the text parser returns. */
async function streamed(text: string, format: 'csv' | 'jsonl'): Promise<TestsetParseResult> {
  const rows: TestsetRow[] = [];
  const path = await fileWith(text, format);
  const result = await streamTestsetRows(path, format, 'cases', (row) => rows.push(row));
  return result.ok ? { ok: true, rows } : result;
}

/** ~100 KB of CSV: more than one read chunk, with quoted line breaks and mixed line ends. */
function bigCsv(): string {
  let text = '\ufeffid,question,expected,__tags__\n';
  for (let i = 0; i < 1500; i++) {
    const end = i % 3 === 0 ? '\r\n' : i % 3 === 1 ? '\n' : '\r';
    const cell = i % 7 === 0 ? `"line one\r\nline ${i}, quoted ""twice"""` : `What is ${i}? ✓`;
    text += `q${i},${cell},${i % 11 === 0 ? '"[1,2]"' : i + 1},${i % 5 === 0 ? 'smoke' : ''}${end}`;
    if (i % 13 === 0) text += end; // blank lines count in line numbers
  }
  return text;
}

/**
 * ~200 KB of CSV without a quote (the lines the reader cuts at commas itself): mixed line ends,
 * blank and whitespace-only lines, empty cells, multi-byte text across chunk edges, a BOM.
 * `quoteAt` puts a quoted cell in that row, from where csv-parse reads the file.
 */
function plainCsv(rows: number, quoteAt?: number): string {
  let text = '\ufeffid, question ,expected,__tags__\r\n';
  for (let i = 0; i < rows; i++) {
    const end = ['\n', '\r\n', '\r'][i % 3]!;
    const question =
      i === quoteAt ? '"a, quoted\ncell"' : `What is ${i}? ✓ 𝄞 ${'ü'.repeat(i % 50)}`;
    text += `${i % 7 === 3 ? ' ' : ''}q${i},${question},${i % 4 === 0 ? '' : i + 1},${i % 5 === 0 ? 'smoke' : ''}${end}`;
    if (i % 17 === 0) text += i % 2 === 0 ? end : `   ${end}`;
    if (i % 29 === 0) text += `,,,${end}`; // a row of empty cells: a row, not a blank line
  }
  return text;
}

/**
 * ~300 KB of CSV whose quoted cells each sit on one line (what the reader cuts itself): JSON
 * objects and arrays, doubled quotes, commas and multi-byte text inside quotes, empty quoted
 * cells, quoted headers, mixed line ends. `spanAt` puts a cell spanning two lines in that row,
 * from where csv-parse reads the file.
 */
function quotedCsv(rows: number, spanAt?: number): string {
  let text = '"id","question",expected,"__tags__"\r\n';
  for (let i = 0; i < rows; i++) {
    const end = ['\n', '\r\n', '\r'][i % 3]!;
    const json = JSON.stringify(i % 2 ? { echo: `echo ${i}`, n: i } : [i, `ü${i}`]);
    const question =
      i === spanAt ? '"two\nlines"' : i % 5 === 0 ? `"say ""hi"", ${i} ✓"` : `plain ${i}`;
    const tags = i % 4 === 0 ? '"[""a"",""b""]"' : i % 4 === 1 ? '""' : '';
    text += `q${i},${question},"${json.replaceAll('"', '""')}",${tags}${end}`;
    if (i % 23 === 0) text += end;
  }
  return text;
}

/** A small deterministic generator (mulberry32), so a failing line can be reproduced. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('cutting CSV lines with quoted cells', () => {
  const cut: Record<string, [line: string, cells: string[]]> = {
    'a quoted cell with commas': ['1,"a, b",2', ['1', 'a, b', '2']],
    'doubled quotes': ['"say ""hi""","""",""', ['say "hi"', '"', '']],
    'JSON in a cell': ['"{""echo"":""x""}","[1,2]"', ['{"echo":"x"}', '[1,2]']],
    'a quoted cell last': ['a,"b, c"', ['a', 'b, c']],
    'a trailing comma after a quoted cell': ['"x",', ['x', '']],
    'only empty quoted cells': ['"",""', ['', '']],
    'quoted multi-byte text': ['"ü ✓ 𝄞",plain', ['ü ✓ 𝄞', 'plain']],
  };
  for (const [name, [line, cells]] of Object.entries(cut)) {
    it(`${name}: the cells csv-parse makes of the line`, () => {
      assert.deepEqual(splitQuotedLine(line), cells);
      assert.deepEqual(parse(line, CSV_OPTIONS), [cells]);
    });
  }

  const leftToCsvParse: Record<string, string> = {
    'an open quote (the cell goes on past the line)': 'a,"b, c',
    'a quote inside an unquoted cell': 'a,5" screen',
    'text after a closing quote': '"a"b,c',
    'a space after a closing quote': '"a" ,b',
    'a space before an opening quote': 'a, "b"',
    'a lone quote': '"',
  };
  for (const [name, line] of Object.entries(leftToCsvParse)) {
    it(`${name}: left to csv-parse`, () => {
      assert.equal(splitQuotedLine(line), null);
    });
  }

  it('never gives cells other than the ones csv-parse makes (5,000 random lines)', () => {
    const next = random(7);
    const alphabet = ['a', 'b', ',', '"', '""', ' ', 'ü'];
    let cutHere = 0;
    for (let n = 0; n < 5000; n++) {
      let line = '';
      const length = 1 + Math.floor(next() * 12); // csv-parse makes no record of no text
      for (let i = 0; i < length; i++) line += alphabet[Math.floor(next() * alphabet.length)]!;
      const cells = splitQuotedLine(line);
      if (cells === null) continue;
      cutHere++;
      assert.deepEqual([cells], parse(line, CSV_OPTIONS), JSON.stringify(line));
    }
    // The generator must exercise the cutting itself, not only the lines it leaves.
    assert.ok(cutHere > 1000, `only ${cutHere} lines were cut`);
  });
});

describe('streaming testset reads', () => {
  const csvCases: Record<string, string> = {
    'a large file across chunks': bigCsv(),
    'a large file without quotes': plainCsv(3000),
    'a large file without quotes or a final line break': plainCsv(3000).trimEnd(),
    'a large file ending in blank lines': `${plainCsv(2000)}\n\r\n\r`,
    'a cell spanning lines after many batches of plain lines': plainCsv(3000, 2500),
    // Records are handed over in batches: a cell spanning lines at a batch's edge and just past it.
    'a cell spanning lines on the first line of a batch': plainCsv(1100, RECORD_BATCH * 3 - 1),
    'a cell spanning lines just after a batch': plainCsv(1100, RECORD_BATCH * 3),
    'a large file with quoted cells on their lines': quotedCsv(4000),
    'a cell spanning lines after many quoted lines': quotedCsv(4000, 3000),
    'a stray quote after many quoted lines': `${quotedCsv(1500)}7,5" screen,x\n8,"y",z\n`,
    'a quote in the header': 'a,"b"\n1,2\n',
    'a quote on the last line, with no line break after it': 'a,b\n1,2\n3,"x"',
    'an unclosed quote after plain lines': `${plainCsv(1500)}4,"never closed\n5,6\n`,
    'only blank lines': '\n\r\n  \n\r',
    'a BOM, CRLF and a quoted line break': '\ufeffa,b\r\n1,"x\r\ny"\r\n\r\n2,z\r\n',
    'lone CRs': 'a,b\r1,2\r\r3,4',
    'a row with too few cells': 'a,b\n1,2\n3\n4,5\n',
    'a broken header': 'a,a\n1,2\n',
    'an empty file': '',
    'an unclosed quote': 'a,b\n1,2\n3,"never closed\n4,5\n',
    'a stray quote inside an unquoted cell': 'a,b\n1,5" screen\n',
    'metadata columns': '__dedup_id__,q,__tags__\nd1,hello,"[""a"",""b""]"\nd2,bye,\n',
  };
  for (const [name, text] of Object.entries(csvCases)) {
    it(`CSV, ${name}: the rows and issues parseCsv gives`, async () => {
      assert.deepEqual(await streamed(text, 'csv'), parseCsv(text, 'cases'));
    });
  }

  const jsonlCases: Record<string, string> = {
    'mixed line ends and blank lines': '\ufeff{"a":1}\r\n\r\n{"a":2}\r{"a":3}\n\n',
    'a bad line among good ones': '{"a":1}\n{"a":\n[1]\n  {"b":"ü"}\n',
    'many lines across chunks': Array.from(
      { length: 4000 },
      (_, i) => `{"i":${i},"text":"row ${i} ✓"}${i % 2 ? '\r\n' : '\n'}`,
    ).join(''),
  };
  for (const [name, text] of Object.entries(jsonlCases)) {
    it(`JSONL, ${name}: the rows and issues parseJsonl gives`, async () => {
      assert.deepEqual(await streamed(text, 'jsonl'), parseJsonl(text, 'cases'));
    });
  }

  it('splits lines the way parseJsonl does, wherever the chunks are cut', () => {
    const text = '\ufeffa\r\nb\rc\n\r\nd\r';
    const expected = text.slice(1).split(/\r\n|\n|\r/);
    for (let cut = 0; cut <= text.length; cut++) {
      for (let second = cut; second <= text.length; second++) {
        const lines: string[] = [];
        const splitter = new LineSplitter((line) => lines.push(line));
        splitter.push(text.slice(0, cut));
        splitter.push(text.slice(cut, second));
        splitter.push(text.slice(second));
        splitter.end();
        assert.deepEqual(lines, expected, `cut at ${cut} and ${second}`);
      }
    }
  });

  it('keeps the messages of files that cannot be read', async () => {
    const dir = join(work, 'a-folder.csv');
    await mkdir(dir);
    for (const absPath of [join(work, 'missing.csv'), dir, join(work, 'notes.txt')]) {
      const location = { absPath, displayPath: 'shown' };
      const before = await readTestsetFile(absPath, 'shown');
      assert.equal(before.ok, false);
      assert.deepEqual(await readTestsetInto(location, () => {}), before);
      assert.deepEqual(await readTestset(location), before);
    }
  });

  it('readTestset collects the streamed rows', async () => {
    const text = bigCsv();
    const path = await fileWith(text, 'csv');
    const parsed = parseCsv(text, 'shown');
    assert.ok(parsed.ok);
    assert.deepEqual(await readTestset({ absPath: path, displayPath: 'shown' }), {
      ok: true,
      rows: parsed.rows,
      commit: null,
    });
  });
});

describe('CasePreparer', () => {
  const rows = (n: number): TestsetRow[] =>
    Array.from({ length: n }, (_, i) => ({ data: { i, text: `row ${i}` }, line: i + 2, meta: {} }));

  it('hashes the revision incrementally to what computeRevision gives', () => {
    // Batches of 64 ids: exactly one, one and a bit, and many (3,000 ids, ~200 KB of text).
    for (const n of [0, 1, 64, 65, 128, 3000]) {
      const preparer = new CasePreparer({ testsetId: 'set', file: 'set.csv' });
      for (const row of rows(n)) preparer.add(row);
      const result = preparer.finish();
      assert.ok(result.ok);
      assert.equal(result.revision, computeRevision(result.cases.map((c) => c.contentId)));
      assert.deepEqual(result, prepareCases(rows(n), { testsetId: 'set', file: 'set.csv' }));
    }
  });

  it('gives positions only when asked', () => {
    const plain = prepareCases(rows(3), { testsetId: 'set', file: null });
    const placed = prepareCases(rows(3), { testsetId: 'set', file: null, positions: true });
    assert.ok(plain.ok && placed.ok);
    assert.deepEqual(
      plain.cases.map((c) => c.index),
      [undefined, undefined, undefined],
    );
    assert.deepEqual(
      placed.cases.map((c) => c.index),
      [0, 1, 2],
    );
    assert.deepEqual(
      placed.cases.map(({ index: _, ...rest }) => rest),
      plain.cases,
    );
  });

  it('reports duplicates as prepareCases does', () => {
    const twice = [...rows(2), { data: { i: 0, text: 'row 0' }, line: 9, meta: {} }];
    const preparer = new CasePreparer({ testsetId: 'set', file: 'set.csv' });
    for (const row of twice) preparer.add(row);
    const result: PrepareCasesResult = preparer.finish();
    assert.equal(result.ok, false);
    assert.deepEqual(result, prepareCases(twice, { testsetId: 'set', file: 'set.csv' }));
  });
});
