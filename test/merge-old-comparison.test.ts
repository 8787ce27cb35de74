/**
 * `evals merge` of shards whose comparison an evalgate before 2026-11-26 recorded, in the shape
 * this one no longer reads (`old-comparison.ts`): the reader leaves the blocks out, and that
 * shape names no baseline file, so the merge would be written uncompared and `regressions: block`
 * would gate nothing. Without `--baseline` it is refused; with it, the merge is compared.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const ROWS = [{ q: 'a' }, { q: 'b' }, { q: 'c' }, { q: 'd' }];
const FILES = { 'app/answer.mjs': 'export const answer = ({ testCase }) => testCase.q + "!";\n' };
const SUITE = [
  'function: ./app/answer.mjs#answer',
  'evaluators: [ { use: contains, with: { values: ["!"] } } ]',
];
/** A comparison as the evalgate of 2026-11-25 wrote it (the fixture is that evalgate's output). */
const OLD_FIXTURE = join(
  import.meta.dirname,
  'fixtures',
  'e2e',
  'compared-2026-11-25',
  'head.json',
);

const read = (dir: string, file: string): ResultsArtifact =>
  JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;

/** base.json, and two shards compared with it whose comparison is in the old shape. */
async function oldComparedShards(): Promise<string> {
  const dir = jsonlProject(ROWS, SUITE, FILES);
  const runs = [
    ['-o', 'base.json'],
    ['--shard', '1/2', '--baseline', 'base.json', '-o', 's1.json'],
    ['--shard', '2/2', '--baseline', 'base.json', '-o', 's2.json'],
  ];
  for (const args of runs) {
    const r = await runInProcess(['run', ...args], dir, {});
    assert.equal(r.code, 0, r.stdout + r.stderr);
  }
  const old = (JSON.parse(readFileSync(OLD_FIXTURE, 'utf8')) as { comparison: unknown }).comparison;
  for (const shard of ['s1.json', 's2.json']) {
    const artifact = read(dir, shard) as unknown as Record<string, unknown>;
    assert.ok(artifact.comparison, `${shard} was compared`);
    artifact.comparison = old;
    writeFileSync(join(dir, shard), JSON.stringify(artifact, null, 2));
  }
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
    const all = read(dir, 'all.json');
    assert.equal(all.runs[0]?.cases.length, 4);
    assert.equal((all.comparison?.base as { path?: string } | undefined)?.path, 'base.json');
  });
});
