/**
 * `evals testset diff` across a rename: the rows are the same, but the testset id each side is
 * read with (its file name) is in every contentId, so the revisions differ and a pin of the old
 * one no longer holds. The diff says so and exits 1; it used to print "revision unchanged" and
 * exit 0 beside two different revisions.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { commitAll, git, newRepo } from './helpers/git.ts';
import { runInProcess } from './helpers/in-process.ts';

const ROWS = 'id,question\nq1,What is 1 + 1?\nq2,What is 2 + 2?\n';

describe('testset diff across a rename', () => {
  it('names the different revisions and exits 1', async () => {
    const dir = newRepo();
    mkdirSync(join(dir, 'testsets'));
    writeFileSync(join(dir, 'testsets', 'qa.csv'), ROWS);
    commitAll(dir, 'rows');
    git(dir, 'mv', 'testsets/qa.csv', 'testsets/questions.csv');
    commitAll(dir, 'renamed');

    const text = await runInProcess(
      ['testset', 'diff', 'testsets/qa.csv@HEAD~1', 'testsets/questions.csv'],
      dir,
    );
    assert.equal(text.code, 1, text.stdout + text.stderr);
    const revisions = [...text.stdout.matchAll(/rev ([0-9a-f]{12})/g)].map((m) => m[1]);
    assert.equal(revisions.length, 2, text.stdout);
    assert.notEqual(revisions[0], revisions[1]);
    assert.doesNotMatch(text.stdout, /revision unchanged/);
    assert.match(text.stdout, /rows unchanged, but the revision differs/);

    const json = await runInProcess(
      ['testset', 'diff', 'testsets/qa.csv@HEAD~1', 'testsets/questions.csv', '--json'],
      dir,
    );
    assert.equal(json.code, 1);
    const parsed = JSON.parse(json.stdout) as { equal: boolean; rowsEqual: boolean };
    assert.equal(parsed.equal, false);
    assert.equal(parsed.rowsEqual, true);
  });

  it('the same file at two commits with the same rows is still unchanged, exit 0', async () => {
    const dir = newRepo();
    writeFileSync(join(dir, 'qa.csv'), ROWS);
    commitAll(dir, 'rows');
    writeFileSync(join(dir, 'notes.txt'), 'unrelated\n');
    commitAll(dir, 'other file');
    const same = await runInProcess(['testset', 'diff', 'qa.csv@HEAD~1', 'qa.csv'], dir);
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.match(same.stdout, /revision unchanged/);
  });
});
