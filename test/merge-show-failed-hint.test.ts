/**
 * `evals merge` ends its summary as `evals run` does: when a case did not pass, with the pointer
 * at `evals show MERGED --failed`, naming the file that holds the merged results; none when every
 * case passed. It printed the summary alone, so a CI log of a sharded run did not say how to see
 * why its cases failed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const HINT = /why each case did not pass: evals show (\S+) --failed\n$/;

/** Shards 1/2 and 2/2 of a project whose recorded outputs are `outputs`, as s1.json, s2.json. */
async function shards(outputs: string[]): Promise<string> {
  const dir = jsonlProject(
    outputs.map((output, n) => ({ n, output })),
    ['hash: [n]', 'evaluators:', '  - { id: ok, use: is-equals, with: { expected: "x" } }'],
  );
  for (const shard of ['1/2', '2/2']) {
    const run = await runInProcess(['run', '--shard', shard, '-o', `s${shard[0]}.json`], dir);
    assert.ok(run.code === 0 || run.code === 1, run.stderr);
  }
  return dir;
}

describe('evals merge points at evals show --failed as evals run does', () => {
  it('ends with the pointer at the merged file when a case failed', async () => {
    const dir = await shards(['x', 'y', 'x', 'y', 'x', 'y']);
    const run = await runInProcess(['run', '-o', 'whole.json'], dir);
    assert.equal(run.code, 1, run.stderr);
    const merge = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'merged.json'], dir);
    assert.equal(merge.code, 1, merge.stderr);
    assert.equal(HINT.exec(run.stdout)?.[1], 'whole.json', run.stdout);
    assert.equal(HINT.exec(merge.stdout)?.[1], 'merged.json', merge.stdout);
  });

  it('the pointer of merge and run names -o as a shell word, so it can be pasted (a space, a quote)', async () => {
    const dir = await shards(['x', 'y', 'x', 'y']);
    const merge = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'all of it.json'], dir);
    assert.equal(merge.code, 1, merge.stderr);
    assert.match(merge.stdout, /evals show 'all of it\.json' --failed\n$/);
    const run = await runInProcess(['run', '-o', "it's all.json"], dir);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /evals show 'it'\\''s all\.json' --failed\n$/);
  });

  it('prints no pointer when every case passed', async () => {
    const dir = await shards(['x', 'x', 'x', 'x']);
    const merge = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'merged.json'], dir);
    assert.equal(merge.code, 0, merge.stderr);
    assert.doesNotMatch(merge.stdout, /evals show/);
  });
});
