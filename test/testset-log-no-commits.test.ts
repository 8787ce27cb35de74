/**
 * `evals testset log FILE` in a repository with no commit yet (right after `git init`). The log
 * lists the working tree above the commits and says when no commit has touched the file
 * (docs/testsets.md); here it exited 2 with git's own failure and the internal `git log`
 * command line to run, as if the repository were broken.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli, writeFiles } from './helpers/cli.ts';
import { newRepo } from './helpers/git.ts';

describe('evals testset log before the first commit', () => {
  it('shows the working tree and says no commit has touched the file (exit 0)', async () => {
    const dir = newRepo();
    writeFiles(dir, { 'qa.csv': 'q\na\nb\n' });
    const r = await runCli(['testset', 'log', 'qa.csv'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^\(working tree\)\s+[0-9a-f]{12}\s+2\s+uncommitted changes$/m);
    assert.match(r.stdout, /^no commit has touched qa\.csv yet$/m);
    const json = await runCli(['testset', 'log', 'qa.csv', '--json'], { cwd: dir });
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual((JSON.parse(json.stdout) as { commits: unknown[] }).commits, []);
  });
});
