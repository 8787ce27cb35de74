/**
 * Two CSV files joined with `cat a.csv b.csv > all.csv` keep b's header as a row: a case whose
 * every cell is its column's name ran as data (a false fail, or a false pass). It is refused at
 * its line, saying how to join the files; a one-column file, where a value may be the column's
 * name, is read as before.
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parsedOrIssues } from './helpers/testset-parse.ts';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const REPEATED =
  "this row repeats the header (every cell is its column's name), as when CSV files are joined with cat: delete the line; to join CSV files, keep the header of the first only (tail -n +2 b.csv >> a.csv)";

const read = (text: string) => parsedOrIssues(text, 'csv', { file: 'all.csv' });

describe('a CSV header repeated as a row', () => {
  it('is refused at its line, quoted, spaced or with metadata columns alike', () => {
    assert.deepEqual(read('input,expected\nhi,hi\ninput,expected\nbye,bye\n'), [`3:1 ${REPEATED}`]);
    assert.deepEqual(read('\uFEFF input , expected\r\nhi,hi\r\n"input","expected"\r\n'), [
      `3:1 ${REPEATED}`,
    ]);
    assert.deepEqual(read('input,__tags__\nhi,a\n\ninput,__tags__\ninput,__tags__\n'), [
      `4:1 ${REPEATED}`,
      `5:1 ${REPEATED}`,
    ]);
  });

  it('is no repeat when one cell differs, nor in a file of one column', () => {
    assert.deepEqual(read('input,expected\ninput,output\n'), [
      { input: 'input', expected: 'output' },
    ]);
    assert.deepEqual(read('word\nfoo\nword\n'), [{ word: 'foo' }, { word: 'word' }]);
  });

  it('stops evals validate and evals run at its line (exit 2)', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'all.csv'), 'input,expected\nhi,hi\ninput,expected\nbye,bye\n');
    writeFileSync(
      join(dir, 'evals.yaml'),
      [
        'version: 1',
        'suites:',
        '  - id: s',
        '    testset: { path: all.csv }',
        '    output: input',
        "    evaluators: [ { use: is-equals, with: { expected: '{{case.expected}}' } } ]",
        '',
      ].join('\n'),
    );
    for (const command of ['validate', 'run']) {
      const r = await runInProcess([command], dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /^error: all\.csv:3:1 {2}this row repeats the header/);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });

  it('is not written by evals testset convert, which says why (exit 2, no crash)', async () => {
    const dir = scratch();
    writeFileSync(
      join(dir, 'h.jsonl'),
      '{"input":"input","expected":"expected"}\n{"input":"a","expected":"b"}\n',
    );
    for (const lossy of [[], ['--lossy']]) {
      const r = await runInProcess(['testset', 'convert', 'h.jsonl', 'h.csv', ...lossy], dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /^error: h\.(jsonl|csv):[12]:1 {2}.*repeat|^error: h\.jsonl:1:1 {2}every cell of this row is its column's name/,
      );
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.equal(existsSync(join(dir, 'h.csv')), false);
    }
  });
});
