/**
 * `evals testset log FILE` for a path that is neither in the working tree nor in any commit (a
 * typo): `revision`, `show` and `diff` refuse such a path (exit 2, "testset file not found"),
 * but `log` printed an empty table and exited 0, as if the file were real and simply new. A
 * file with no commit yet but present still gets its working-tree row; a deleted file with
 * history still gets its log.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli, writeFiles } from './helpers/cli.ts';
import { threeCommitRepo } from './helpers/testset-git-history.ts';

describe('evals testset log: a path no file and no commit has', () => {
  it('is refused as the other testset commands refuse it (exit 2)', async () => {
    const { dir } = threeCommitRepo();
    const r = await runCli(['testset', 'log', 'testsets/capitols.csv'], { cwd: dir });
    assert.equal(r.code, 2, r.stdout);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      'error: testsets/capitols.csv  testset file not found: testsets/capitols.csv, and no commit of the repository has it\n',
    );
    const json = await runCli(['testset', 'log', 'testsets/capitols.csv', '--json'], { cwd: dir });
    assert.equal(json.code, 2, json.stdout);
  });

  it('still logs a new file no commit has yet, from its working tree', async () => {
    const { dir } = threeCommitRepo();
    writeFiles(dir, { 'testsets/new.csv': 'q\na\n' });
    const r = await runCli(['testset', 'log', 'testsets/new.csv'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^\(working tree\)\s+\S+\s+1\s+uncommitted changes$/m);
    assert.match(r.stdout, /no commit has touched testsets\/new\.csv yet/);
  });
});
