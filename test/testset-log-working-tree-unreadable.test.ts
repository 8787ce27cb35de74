/**
 * `evals testset log` with uncommitted changes that leave the working file unreadable (a CSV row
 * with a stray comma, a deleted file): the working tree still leads the list, marked, with the
 * reason, rather than being left out as if it matched the newest commit.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, writeFiles } from './helpers/cli.ts';
import { json, threeCommitRepo, V3 } from './helpers/testset-git-history.ts';

const FILE = 'testsets/capitals.csv';

describe('evals testset log: a working tree that cannot be read', () => {
  it('shows an unreadable working file as unreadable, with the line at fault', async () => {
    const { dir } = threeCommitRepo();
    // An unquoted comma in a cell: 4 cells under a 3-column header, at line 6.
    writeFiles(dir, { [FILE]: `${V3}pe,Peru,Lima, Peru\n` });
    const text = await runCli(['testset', 'log', FILE], { cwd: dir });
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.split('\n');
    assert.match(lines[1] ?? '', /^\(working tree\)\s+unreadable\s+uncommitted changes$/);
    assert.match(
      text.stdout,
      /^\(working tree\) is unreadable: line 6: expected 3 cells \(one per header column\), found 4$/m,
    );
    const r = await runCli(['testset', 'log', FILE, '--json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(json<{ workingTree: unknown }>(r.stdout).workingTree, {
      ok: false,
      message: 'line 6: expected 3 cells (one per header column), found 4',
    });
  });

  it('shows a deleted working file as deleted', async () => {
    const { dir } = threeCommitRepo();
    rmSync(join(dir, FILE));
    const text = await runCli(['testset', 'log', FILE], { cwd: dir });
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout.split('\n')[1] ?? '',
      /^\(working tree\)\s+deleted\s+uncommitted changes$/,
    );
    const r = await runCli(['testset', 'log', FILE, '--json'], { cwd: dir });
    assert.deepEqual(json<{ workingTree: unknown }>(r.stdout).workingTree, {
      ok: false,
      deleted: true,
      message: `testset file not found: ${FILE}`,
    });
  });

  it('keeps a readable working tree as before, and none when it matches the newest commit', async () => {
    const { dir } = threeCommitRepo();
    const same = await runCli(['testset', 'log', FILE, '--json'], { cwd: dir });
    assert.equal(json<{ workingTree: unknown }>(same.stdout).workingTree, null);
    writeFiles(dir, { [FILE]: `${V3}pe,Peru,Lima\n` });
    const r = await runCli(['testset', 'log', FILE, '--json'], { cwd: dir });
    const working = json<{ workingTree: { ok: boolean; rows: number } }>(r.stdout).workingTree;
    assert.equal(working.ok, true);
    assert.equal(working.rows, 5);
  });
});
