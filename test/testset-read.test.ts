import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatFromPath } from '../src/testsets/formats.ts';
import { readTestset } from '../src/testsets/read-file.ts';
import { tempFolder } from './helpers/cli.ts';

/** Reads a testset file from the working tree, as a run does. */
const readTestsetFile = (absPath: string, displayPath: string) =>
  readTestset({ absPath, displayPath });

const fixtures = join(import.meta.dirname, 'fixtures', 'testsets');

describe('formatFromPath', () => {
  const table: [string, ReturnType<typeof formatFromPath>][] = [
    ['testsets/capitals.csv', 'csv'],
    ['CAPITALS.CSV', 'csv'],
    ['a.json', 'json'],
    ['a.jsonl', 'jsonl'],
    ['a.ndjson', 'jsonl'],
    ['a.tsv', null],
    ['a.csv.bak', null],
    ['csv', null],
    ['dir.csv/file', null],
    ['C:\\data\\a.jsonl', 'jsonl'],
  ];
  for (const [path, expected] of table) {
    it(`${path} → ${String(expected)}`, () => assert.equal(formatFromPath(path), expected));
  }
});

describe('readTestset', () => {
  it('reads each format from disk', async () => {
    for (const name of ['capitals.csv', 'capitals.jsonl', 'capitals.json']) {
      const result = await readTestsetFile(join(fixtures, name), `testsets/${name}`);
      assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
      assert.deepEqual(
        result.rows.map((r) => r.data.country),
        ['France', 'Japan', 'Peru', 'Australia'],
      );
    }
  });

  it('reads a BOM + CRLF file with a multi-line cell', async () => {
    const result = await readTestsetFile(join(fixtures, 'bom-crlf.csv'), 'bom-crlf.csv');
    assert.ok(result.ok);
    assert.deepEqual(
      result.rows.map((r) => [r.line, r.data]),
      [
        [2, { question: 'multi\nline', answer: 'yes' }],
        [4, { question: 'plain', answer: 'no' }],
      ],
    );
  });

  it('reports problems inside a file with the display path', async () => {
    const result = await readTestsetFile(
      join(fixtures, 'trailing-comma.json'),
      'testsets/trailing-comma.json',
    );
    assert.ok(!result.ok);
    assert.deepEqual(
      result.issues.map((i) => [i.code, i.file, i.line, i.col]),
      [['testset.json-syntax', 'testsets/trailing-comma.json', 3, 11]],
    );
    const columns = await readTestsetFile(join(fixtures, 'bad-columns.csv'), 'bad-columns.csv');
    assert.ok(!columns.ok);
    assert.deepEqual(
      columns.issues.map((i) => [i.code, i.line]),
      [['testset.csv-columns', 2]],
    );
  });

  let scratch = '';
  before(() => {
    scratch = tempFolder('evalgate-testset-');
    mkdirSync(join(scratch, 'a-directory.csv'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  const failures: { name: string; path: () => string; code: string; message: RegExp }[] = [
    {
      name: 'a missing file',
      path: () => join(fixtures, 'missing.csv'),
      code: 'testset.not-found',
      message: /^testset file not found: shown\/path$/,
    },
    {
      name: 'an unsupported extension',
      path: () => join(fixtures, 'unsupported.tsv'),
      code: 'testset.format',
      message: /expected one of \.csv, \.json, \.jsonl, \.ndjson$/,
    },
    {
      name: 'a directory',
      path: () => join(scratch, 'a-directory.csv'),
      code: 'testset.read',
      message: /^cannot read testset shown\/path: it is a directory$/,
    },
  ];
  for (const { name, path, code, message } of failures) {
    it(`reports ${name} as one issue without a position`, async () => {
      const result = await readTestsetFile(path(), 'shown/path');
      assert.ok(!result.ok);
      assert.equal(result.issues.length, 1);
      const [issue] = result.issues;
      assert.deepEqual(
        [issue?.code, issue?.file, issue?.line, issue?.col],
        [code, 'shown/path', 0, 0],
      );
      assert.match(issue?.message ?? '', message);
    });
  }
});
