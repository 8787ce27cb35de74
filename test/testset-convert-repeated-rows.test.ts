/**
 * `evals testset convert` of a file with a row that repeats another exactly: the row stays in the
 * new file (read back, it is one case with the first, as in the input), and the line says how
 * many rows it wrote, not how many cases they make.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

describe('testset convert with a repeated row', () => {
  it('counts the rows written, and the cases they make', async () => {
    const dir = scratch();
    writeFiles(dir, { 'qa.csv': 'question,expected\nWhat?,A\nWhy?,B\nWhat?,A\n' });
    const r = await runInProcess(['testset', 'convert', 'qa.csv', 'qa.jsonl'], dir);
    assert.equal(r.code, 0, r.stderr);
    const written = readFileSync(join(dir, 'qa.jsonl'), 'utf8').trim().split('\n');
    assert.equal(written.length, 3);
    assert.match(
      r.stdout,
      /^wrote 3 rows \(2 cases: a row that repeats another exactly is one case\) to qa\.jsonl · /,
    );
  });
});
