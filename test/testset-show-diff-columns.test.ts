/**
 * `evals testset show` and `evals testset diff` fit their lines to the terminal as the other
 * commands do: its columns, or through a pipe `COLUMNS`. `show` read only a terminal's columns
 * (120 through a pipe whatever `COLUMNS` said) and `diff` neither.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { textWidth } from '../src/shared/text-table.ts';

const long = (n: number): string => JSON.stringify({ q: `row ${n} ${'long words '.repeat(30)}` });

describe('testset show and diff fit COLUMNS', () => {
  const dir = scratch();
  writeFiles(dir, {
    'a.jsonl': `${long(1)}\n${long(2)}\n`,
    'b.jsonl': `${long(1)}\n${long(3)}\n`,
  });

  for (const argv of [
    ['testset', 'show', 'a.jsonl'],
    ['testset', 'diff', 'a.jsonl', 'b.jsonl'],
  ]) {
    it(`evals ${argv.join(' ')} with COLUMNS=60`, async () => {
      const result = await runInProcess(argv, dir, { COLUMNS: '60' });
      assert.ok(result.code === 0 || result.code === 1, result.stderr);
      const wide = result.stdout.split('\n').filter((line) => textWidth(line) > 60);
      assert.deepEqual(wide, [], result.stdout);
      assert.match(result.stdout, /…/);
    });
  }
});
