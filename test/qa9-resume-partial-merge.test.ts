/**
 * `--resume` of a partial merge (`evals merge --allow-partial` with a shard missing): refused with
 * what to do (run the missing shard, merge again), not blamed on `--tag` filters never given.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { FIXTURE } from './helpers/shard-fixture.ts';

describe('resuming a partial merge', () => {
  it('says it is a partial merge and names the missing shard, exit 2', async () => {
    const dir = scratch();
    writeFiles(dir, FIXTURE);
    for (const shard of ['1/3', '3/3']) {
      const run = await runInProcess(['run', '--shard', shard, '-o', `s${shard[0]}.json`], dir);
      assert.ok(run.code === 0 || run.code === 1, run.stderr);
    }
    const merged = await runInProcess(
      ['merge', 's1.json', 's3.json', '--allow-partial', '-o', 'm.json'],
      dir,
    );
    assert.equal(merged.code, 1, merged.stderr);

    const resumed = await runInProcess(['run', '--resume', 'm.json', '-o', 'r.json'], dir);
    assert.equal(resumed.code, 2, resumed.stdout);
    assert.doesNotMatch(resumed.stderr, /--tag/);
    assert.match(
      resumed.stderr,
      /m\.json is a partial merge \(evals merge --allow-partial\) of shards 1, 3 of 3: run the missing shard \(evals run --shard 2\/3 -o FILE\), then evals merge every shard's file again; it cannot be resumed/,
    );
    assert.equal(resumed.stderr.match(/^error:/gm)?.length, 1, resumed.stderr);
  });
});
