/**
 * Suites reading one testset file each find its problems, and those are told once; its warnings
 * (a row repeated exactly, a column named like a metadata column) were told once per suite.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

describe('the warnings of a testset that two suites read', () => {
  it('are printed once', async () => {
    const dir = scratch();
    const suite = (id: string): string[] => [
      `  - id: ${id}`,
      '    testset: { path: t.csv }',
      '    target: { type: command, run: [echo, hi] }',
    ];
    writeFiles(dir, {
      'evals.yaml': ['version: 1', 'suites:', ...suite('a'), ...suite('b'), ''].join('\n'),
      't.csv': '__tag__,q\nx,hello\nx,hello\n',
    });
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 0, r.stderr);
    const warnings = r.stderr.split('\n').filter((line) => line.startsWith('warning: t.csv'));
    assert.equal(warnings.length, 2, r.stderr);
    assert.match(warnings[0] ?? '', /column "__tag__" is read as data/);
    assert.match(warnings[1] ?? '', /repeats line 2 exactly/);
  });
});
