/**
 * `evals merge r.json r.json` (or `r.json ./r.json`): the same file given twice is named as
 * such, exit 2, before anything is read, instead of "r.json, r.json are not a shard artifact"
 * or "shard 1/2 is given 2 times" for what is one file, not two copies of a shard.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

let dir = '';

describe('evals merge given the same file twice', () => {
  before(async () => {
    dir = jsonlProject(
      ['c1', 'c2'].map((id) => ({ __dedup_id__: id, output: 'yes' })),
      ['evaluators:', '  - { id: e, use: contains, with: { values: [yes] } }'],
    );
    assert.equal((await runInProcess(['run', '-o', 'r.json'], dir)).code, 0);
    assert.equal((await runInProcess(['run', '--shard', '1/2', '-o', 's1.json'], dir)).code, 0);
    assert.equal((await runInProcess(['run', '--shard', '2/2', '-o', 's2.json'], dir)).code, 0);
  });

  it('an unsharded artifact twice: says the file is given twice', async () => {
    const r = await runInProcess(['merge', 'r.json', 'r.json', '-o', 'm.json'], dir);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr.trim(),
      'error: evals merge: r.json is given 2 times; give each shard artifact once',
    );
    assert.equal(existsSync(join(dir, 'm.json')), false);
  });

  it('one file under two names: says they are the same file', async () => {
    const r = await runInProcess(['merge', 's1.json', './s1.json', 's2.json', '-o', 'm.json'], dir);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr.trim(),
      'error: evals merge: s1.json and ./s1.json are the same file; give each shard artifact once',
    );
  });

  it('distinct shards still merge', async () => {
    const r = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'm.json'], dir);
    assert.equal(r.code, 0, r.stderr);
  });
});
