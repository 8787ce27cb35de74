import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseCsv } from '../src/testsets/csv.ts';
import {
  CasePreparer,
  computeRevision,
  prepareCases,
  type PrepareCasesResult,
} from '../src/testsets/identity.ts';
import type { TestsetParseResult } from '../src/testsets/issues.ts';
import { parseJsonl } from '../src/testsets/jsonl.ts';
import { readTestset, readTestsetInto } from '../src/testsets/read-file.ts';
import { streamTestsetRows } from '../src/testsets/stream-read.ts';
import type { TestsetRow } from '../src/types/index.ts';

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
  const result = await streamTestsetRows({ path }, format, 'cases', (row) => rows.push(row));
  return result.ok ? { ok: true, rows } : result;
}

/** The same, from the bytes already read (a file read at a git revision). */
async function fromText(text: string, format: 'csv' | 'jsonl'): Promise<TestsetParseResult> {
  const rows: TestsetRow[] = [];
  const bytes = Buffer.from(text);
  const result = await streamTestsetRows({ bytes }, format, 'cases', (row) => rows.push(row));
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

describe('streaming testset reads', () => {
  const csvCases: Record<string, string> = {
    'a large file across chunks': bigCsv(),
    'a large file without quotes': plainCsv(3000),
    'a large file without quotes or a final line break': plainCsv(3000).trimEnd(),
    'a large file ending in blank lines': `${plainCsv(2000)}\n\r\n\r`,
    'a cell spanning lines after many batches of plain lines': plainCsv(3000, 2500),
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
      const expected = parseCsv(text, 'cases');
      assert.deepEqual(await streamed(text, 'csv'), expected);
      assert.deepEqual(await fromText(text, 'csv'), expected);
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
      const expected = parseJsonl(text, 'cases');
      assert.deepEqual(await streamed(text, 'jsonl'), expected);
      assert.deepEqual(await fromText(text, 'jsonl'), expected);
    });
  }

  it('keeps a CRLF that a read chunk cuts in two as one line break', async () => {
    // A file is read 64 KiB at a time: the first chunk ends between the CR and the LF.
    const first = `{"pad":"${'x'.repeat(65_536 - 11)}"}`;
    const text = `${first}\r\n{"a":1}\r\n`;
    assert.equal(text.indexOf('\r\n'), 65_535);
    const expected = parseJsonl(text, 'cases');
    assert.ok(expected.ok && expected.rows[1]?.line === 2);
    assert.deepEqual(await streamed(text, 'jsonl'), expected);
  });

  it('keeps the messages of files that cannot be read', async () => {
    const dir = join(work, 'a-folder.csv');
    await mkdir(dir);
    const expected: [string, string, RegExp][] = [
      [join(work, 'missing.csv'), 'testset.not-found', /^testset file not found: shown$/],
      [dir, 'testset.read', /^cannot read testset shown: it is a directory$/],
      [work, 'testset.read', /^cannot read testset shown: it is a directory$/],
      [join(work, 'notes.txt'), 'testset.format', /^unsupported testset file type "shown"/],
    ];
    for (const [absPath, code, message] of expected) {
      const location = { absPath, displayPath: 'shown' };
      const read = await readTestset(location);
      assert.ok(!read.ok);
      assert.equal(read.issues.length, 1);
      assert.equal(read.issues[0]?.code, code);
      assert.match(read.issues[0]?.message ?? '', message);
      assert.deepEqual(await readTestsetInto(location, () => {}), read);
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

  it('gives what prepareCases gives for the same rows, and the revision computeRevision does', () => {
    for (const n of [0, 1, 3000]) {
      const preparer = new CasePreparer({ testsetId: 'set', file: 'set.csv' });
      for (const row of rows(n)) preparer.add(row);
      const result = preparer.finish();
      assert.ok(result.ok);
      assert.equal(result.revision, computeRevision(result.cases.map((c) => c.contentId)));
      assert.deepEqual(result, prepareCases(rows(n), { testsetId: 'set', file: 'set.csv' }));
    }
  });

  it('gives every case its row position', () => {
    const placed = prepareCases(rows(3), { testsetId: 'set', file: null });
    assert.ok(placed.ok);
    assert.deepEqual(
      placed.cases.map((c) => c.index),
      [0, 1, 2],
    );
  });

  it('reports duplicates as prepareCases does', () => {
    // The same data with other tags: an exact duplicate would collapse instead (a warning).
    const twice = [
      ...rows(2),
      { data: { i: 0, text: 'row 0' }, line: 9, meta: { tags: ['again'] } },
    ];
    const preparer = new CasePreparer({ testsetId: 'set', file: 'set.csv' });
    for (const row of twice) preparer.add(row);
    const result: PrepareCasesResult = preparer.finish();
    assert.equal(result.ok, false);
    assert.deepEqual(result, prepareCases(twice, { testsetId: 'set', file: 'set.csv' }));
  });
});
