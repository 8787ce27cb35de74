/**
 * `evals testset convert` says when exact duplicate rows collapse into one testcase, as
 * `validate` and `run` do: both lines named, on stderr, and the conversion still happens.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

describe('evals testset convert: collapsed duplicate rows', () => {
  it('warns naming both lines and writes both rows', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'qa.csv': 'question,answer\nWhat is 2+2?,4\nCapital of France?,Paris\nWhat is 2+2?,4\n',
    });
    const r = await runInProcess(['testset', 'convert', 'qa.csv', 'qa.jsonl'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /^warning: qa\.csv:4\b.*repeats line 2 exactly: collapsed into one case/m,
    );
    assert.doesNotMatch(r.stdout, /warning/);
    assert.equal(readFileSync(join(dir, 'qa.jsonl'), 'utf8').trim().split('\n').length, 3);
  });

  it('prints no warning when no rows repeat', async () => {
    const dir = scratch();
    writeFiles(dir, { 'qa.csv': 'question,answer\na,1\nb,2\n' });
    const r = await runInProcess(['testset', 'convert', 'qa.csv', 'qa.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
  });
});
