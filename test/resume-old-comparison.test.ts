/**
 * `--resume` of a partial whose `comparison` an evalgate before 2026-11-26 recorded, in the shape
 * this one no longer reads (`old-comparison.ts`): the reader leaves the block out, and that shape
 * names no baseline file. Finished uncompared, `regressions: block` would gate nothing and a run
 * that regressed would pass, so without `--baseline` it is refused as a partial whose block is
 * damaged is; with `--baseline` it is compared again, with a warning that says why.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';
import { runInProcess } from './helpers/in-process.ts';
import { projectAfterRuns, putOldComparison, readResults } from './helpers/old-comparison.ts';

/** A project with base.json, and partial.json: compared with base, its block in the old shape. */
async function oldComparedPartial(): Promise<string> {
  const dir = await projectAfterRuns([
    ['-o', 'base.json'],
    ['--baseline', 'base.json', '-o', 'full.json'],
  ]);
  writeInterrupted(dir, 'full.json', 'partial.json', 2);
  putOldComparison(dir, 'partial.json');
  return dir;
}

describe('--resume of a partial whose comparison is in the shape before 2026-11-26', () => {
  it('without --baseline, is refused (exit 2) rather than finished uncompared', async () => {
    const dir = await oldComparedPartial();
    const r = await runInProcess(['run', '--resume', 'partial.json', '-o', 'out.json'], dir, {});
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /partial\.json was compared with a baseline, but its comparison block is in an older shape and no longer says which \(that shape does not name the baseline file\): pass --baseline FILE/,
    );
    assert.equal(existsSync(join(dir, 'out.json')), false, 'nothing was run');
  });

  it('with --baseline, says it left the block out and compares again', async () => {
    const dir = await oldComparedPartial();
    const r = await runInProcess(
      ['run', '--resume', 'partial.json', '--baseline', 'base.json', '-o', 'out.json'],
      dir,
      {},
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /warning: --resume partial\.json: its comparison block is in an older shape \(recorded by an evalgate before 2026-11-26, which this one does not read\); it is left out/,
    );
    const out = readResults(dir, 'out.json');
    assert.equal(out.runs[0]?.cases.length, 4);
    assert.equal((out.comparison?.base as { path?: string } | undefined)?.path, 'base.json');
  });
});
