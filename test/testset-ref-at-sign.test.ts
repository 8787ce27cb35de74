/**
 * `FILE@REF` where the ref holds an `@` (`HEAD@{1}`, `@{-1}`, a branch `me@feature`) was split
 * at its last `@`, so the file became `qa.csv@HEAD` ("unsupported testset file type"). The `@`
 * that splits is one whose left side names a testset file, never the `@` of `@{`; a path that
 * holds an `@` (`data@v2/qa.csv`) still works, alone or with such a ref.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { commitAll, git, newRepo } from './helpers/git.ts';
import { runInProcess } from './helpers/in-process.ts';

/** A repository whose `qa.csv` and `data@v2/qa.csv` had one row, then two. */
function repo(): { dir: string; first: string; second: string } {
  const dir = newRepo();
  mkdirSync(join(dir, 'data@v2'));
  const write = (rows: string): void => {
    writeFileSync(join(dir, 'qa.csv'), `input\n${rows}`);
    writeFileSync(join(dir, 'data@v2', 'qa.csv'), `input\n${rows}`);
  };
  write('a\n');
  const first = commitAll(dir, 'one row');
  git(dir, 'branch', 'me@feature');
  write('a\nb\n');
  const second = commitAll(dir, 'two rows');
  return { dir, first, second };
}

/** `rows N · commit SHA` as `evals testset revision --json` tells them, or the error. */
async function revision(dir: string, arg: string): Promise<string> {
  const r = await runInProcess(['testset', 'revision', arg, '--json'], dir);
  if (r.code !== 0) return `exit ${r.code}: ${r.stderr}`;
  const out = JSON.parse(r.stdout) as { rows: number; commit?: string };
  return `rows ${out.rows} · commit ${out.commit ?? 'none'}`;
}

describe('FILE@REF with an @ in the ref or in the path', () => {
  it('reads a ref of git revision syntax holding @ at that ref', async () => {
    const { dir, first, second } = repo();
    assert.equal(await revision(dir, 'qa.csv@HEAD@{1}'), `rows 1 · commit ${first}`);
    assert.equal(await revision(dir, 'qa.csv@main@{1}'), `rows 1 · commit ${first}`);
    assert.equal(await revision(dir, 'qa.csv@@{0}'), `rows 2 · commit ${second}`);
    assert.equal(await revision(dir, 'qa.csv@me@feature'), `rows 1 · commit ${first}`);
    // A reflog entry of the current branch, with no name before its `@{`.
    assert.equal(await revision(dir, 'qa.csv@{1}'), `rows 1 · commit ${first}`);
    assert.equal(await revision(dir, 'data@v2/qa.csv@{1}'), `rows 1 · commit ${first}`);
  });

  it('reads a path holding @, with a plain ref or one holding @', async () => {
    const { dir, first, second } = repo();
    assert.equal(await revision(dir, 'data@v2/qa.csv'), 'rows 2 · commit none');
    assert.equal(await revision(dir, 'data@v2/qa.csv@HEAD'), `rows 2 · commit ${second}`);
    assert.equal(await revision(dir, 'data@v2/qa.csv@HEAD@{1}'), `rows 1 · commit ${first}`);
    assert.equal(await revision(dir, 'data@v2/qa.csv@me@feature'), `rows 1 · commit ${first}`);
  });

  it('says which ref is unknown, exit 2', async () => {
    const { dir } = repo();
    assert.match(
      await revision(dir, 'qa.csv@nope@{1}'),
      /^exit 2: error: qa\.csv@nope@\{1\} {2}unknown git ref "nope@\{1\}"/,
    );
  });
});
