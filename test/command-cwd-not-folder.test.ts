/**
 * A command target's `cwd:` that names a file is refused as what it is, not as a folder that
 * "does not exist" (the user looking at the file would doubt the message).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

describe('cwd: of a command target', () => {
  it('naming a file is refused at its line as not a folder', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: command', '  run: [ls]', '  cwd: notes.txt'],
      { 'notes.txt': 'a file\n' },
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stdout + result.stderr,
      /evals\.yaml:8:\d+ +suites\[0\]\.target\.cwd: working folder \S+notes\.txt is not a folder/,
    );
  });

  it('naming nothing is refused as missing', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: command', '  run: [ls]', '  cwd: gone'],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stdout + result.stderr,
      /target\.cwd: working folder \S+gone does not exist/,
    );
  });
});
