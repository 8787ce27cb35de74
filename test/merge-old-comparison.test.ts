/**
 * `evals merge` of shards whose comparison an evalgate before 2026-11-26 recorded, in the shape
 * this one no longer reads (`old-comparison.ts`): the reader leaves the blocks out, and that
 * shape names no baseline file, so the merge would be written uncompared and `regressions: block`
 * would gate nothing. Without `--baseline` it is refused; with it, the merge is compared.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runInProcess } from './helpers/in-process.ts';
import { projectAfterRuns, putOldComparison, readResults } from './helpers/old-comparison.ts';

/** base.json, and two shards compared with it whose comparison is in the old shape. */
async function oldComparedShards(): Promise<string> {
  const dir = await projectAfterRuns([
    ['-o', 'base.json'],
    ['--shard', '1/2', '--baseline', 'base.json', '-o', 's1.json'],
    ['--shard', '2/2', '--baseline', 'base.json', '-o', 's2.json'],
  ]);
  for (const shard of ['s1.json', 's2.json']) putOldComparison(dir, shard);
  return dir;
}

describe('evals merge of shards whose comparisons are in the shape before 2026-11-26', () => {
  it('without --baseline, is refused (exit 2) rather than merged uncompared', async () => {
    const dir = await oldComparedShards();
    const r = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'all.json'], dir, {});
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /s1\.json, s2\.json were compared with a baseline, but their comparisons are in the shape of an evalgate before 2026-11-26, [^\n]*: pass --baseline FILE/,
    );
    assert.equal(existsSync(join(dir, 'all.json')), false, 'nothing was written');
  });

  it('with --baseline, merges them compared', async () => {
    const dir = await oldComparedShards();
    const r = await runInProcess(
      ['merge', 's1.json', 's2.json', '--baseline', 'base.json', '-o', 'all.json'],
      dir,
      {},
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const all = readResults(dir, 'all.json');
    assert.equal(all.runs[0]?.cases.length, 4);
    assert.equal((all.comparison?.base as { path?: string } | undefined)?.path, 'base.json');
  });
});
