import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Issue } from '../src/shared/errors.ts';
import { recordLayout } from '../src/testsets/csv-positions.ts';
import { parseTestset } from '../src/testsets/formats.ts';

function issues(text: string): Issue[] {
  const result = parseTestset(text, 'csv', 'cases.csv');
  assert.ok(!result.ok, 'expected issues');
  return result.issues;
}

const at = (found: Issue[]): [string, number, number][] =>
  found.map((issue) => [issue.code, issue.line, issue.col]);

describe('CSV problems are placed at their column', () => {
  it('a quote that closes a quoted cell too early is placed at that quote', () => {
    assert.deepEqual(at(issues('a,b\nx,"ab"c\n')), [['testset.csv-syntax', 2, 6]]);
    // Doubled quotes before it are text, not the culprit.
    assert.deepEqual(at(issues('a,b,c\nx,"a""b"c,d\n')), [['testset.csv-syntax', 2, 8]]);
  });

  it('a stray quote after a line break inside the cell is placed on its own line', () => {
    assert.deepEqual(at(issues('a,b\nx,"one\ntwo"three\n')), [['testset.csv-syntax', 3, 4]]);
  });

  it('a duplicate header name is placed at its second column', () => {
    const found = issues('\nid,q,id\n1,2,3\n');
    assert.deepEqual(at(found), [['testset.csv-header', 2, 6]]);
    assert.match(found[0]?.message ?? '', /columns 1 and 3/);
  });

  it('a header column without a name is placed where it would be', () => {
    assert.deepEqual(at(issues('a,,b\n1,2,3\n')), [['testset.csv-header', 1, 3]]);
    // A quoted name holding a comma does not shift the columns after it.
    assert.deepEqual(at(issues('"x,y",q,"x,y"\n1,2,3\n')), [['testset.csv-header', 1, 9]]);
  });
});

describe('recordLayout', () => {
  it('finds where each cell starts, quoted cells and doubled quotes included', () => {
    assert.deepEqual(recordLayout('a,"b,""c""",d').cellStarts, [0, 2, 12]);
    assert.deepEqual(recordLayout('').cellStarts, [0]);
    assert.deepEqual(recordLayout('a,,').cellStarts, [0, 2, 3]);
  });

  it('reports no stray quote in a well-formed record, and the first one otherwise', () => {
    assert.equal(recordLayout('"a""b","c"\r\n').strayQuote, -1);
    assert.equal(recordLayout('"a"b,"c"d').strayQuote, 2);
    // An unquoted cell's quotes are text; an unclosed quoted cell has no stray quote.
    assert.equal(recordLayout('a"b,"c').strayQuote, -1);
  });
});
