/**
 * `--resume` of a partial another evalgate wrote (its `tool.version`): its cases keep the scores
 * that version gave them, the rest are scored by this one, and the finished artifact records
 * this version alone. Resumed all the same (as `evals merge` takes shards of older versions), but
 * said, naming both versions and how to score every case with one. In process.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toolVersion } from '../src/shared/version.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { interruptedRun, regressionProject, runInProcess } from './helpers/in-process.ts';

const AT = '__resumeOtherVersionAt';
const STOP = '__resumeOtherVersionStop';

/** 12 rows answered `ok`, one at a time; the run is stopped (a Ctrl-C) at case c6. */
async function partial(): Promise<string> {
  const dir = regressionProject(
    `export async function fn({ testCase }) {
  if (testCase.id === globalThis.${AT}) globalThis.${STOP}?.();
  return 'ok';
}
`,
    { rows: 12, concurrency: 1 },
  );
  const g = globalThis as Record<string, unknown>;
  g[AT] = 'c6';
  try {
    await interruptedRun(STOP, ['run', '-o', 'part.json'], dir);
  } finally {
    delete g[AT];
  }
  return dir;
}

describe('--resume of a partial another evalgate wrote', () => {
  it('resumes it, saying which version scored which cases and how to use one', async () => {
    const dir = await partial();
    const file = join(dir, 'part.json');
    const text = readFileSync(file, 'utf8');
    const kept = (JSON.parse(text) as ResultsArtifact).runs[0]?.cases.length ?? 0;
    assert.ok(kept > 0 && kept < 12, `some cases finished before the stop: ${kept}`);
    const edited = text.replace(
      /("tool": \{\s*"name": "evalgate",\s*"version": )"[^"]*"/,
      '$1"0.0.1"',
    );
    assert.notEqual(edited, text);
    writeFileSync(file, edited);
    const r = await runInProcess(['run', '--resume', 'part.json', '-o', 'done.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stderr.includes(
        `warning: part.json was written by evalgate 0.0.1, this is ${toolVersion}: its ${kept} case results keep the scores and verdicts evalgate 0.0.1 gave them, the cases left are scored by this one, and the results record ${toolVersion} alone; to score every case with one version, resume it with evalgate 0.0.1, or run evals run without --resume\n`,
      ),
      r.stderr,
    );
    const done = JSON.parse(readFileSync(join(dir, 'done.json'), 'utf8')) as ResultsArtifact;
    assert.equal(done.tool.version, toolVersion);
    assert.equal(done.runs[0]?.cases.length, 12);
  });

  it('says nothing of it for a partial of this version', async () => {
    const dir = await partial();
    const r = await runInProcess(['run', '--resume', 'part.json', '-o', 'done.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /was written by evalgate/);
  });
});
