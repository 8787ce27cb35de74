/**
 * A CSV saved with another separator (Excel where the decimal mark is a comma writes `;`, a TSV
 * file has tabs, Excel's `sep=;` first line) is refused at its header instead of being read as
 * one column holding whole lines, which no template or function could use.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsedOrIssues } from './helpers/testset-parse.ts';

const read = (text: string) => parsedOrIssues(text, 'csv');

describe('a CSV testset with another separator', () => {
  it('semicolons: refused at the first one, saying what to do', () => {
    assert.deepEqual(read('\uFEFFquestion;answer\r\nhi;there\r\n'), [
      '1:9 the header is one column, "question;answer": cells of a CSV testset are separated by commas, but this file seems to use ";": save it as comma-separated CSV',
    ]);
  });

  it('tabs: refused at the first one', () => {
    assert.deepEqual(read('question\tanswer\nhi\tthere\n'), [
      '1:9 the header is one column, "question\\tanswer": cells of a CSV testset are separated by commas, but this file seems to use tabs: save it as comma-separated CSV',
    ]);
  });

  it("Excel's sep= line: refused at line 1, with or without commas after it", () => {
    assert.deepEqual(read('sep=;\nquestion;answer\nhi;there\n'), [
      `1:1 the first line "sep=;" is Excel's separator line, not a header of column names: delete it and save the file with commas between cells`,
    ]);
    assert.deepEqual(read('SEP=,\nquestion,answer\nhi,there\n'), [
      `1:1 the first line "SEP=," is Excel's separator line, not a header of column names: delete it`,
    ]);
  });

  it('a one-column testset whose cells hold ";" or whose quoted name does is read', () => {
    assert.deepEqual(read('question\nhi; there\n'), [{ question: 'hi; there' }]);
    assert.deepEqual(read('"a;b"\nx\n'), [{ 'a;b': 'x' }]);
    assert.deepEqual(read('question,answer\n"a;b",c\n'), [{ question: 'a;b', answer: 'c' }]);
  });
});
