/**
 * What a run's gate conditions say when a run has no cases: a partial merge whose merged shards
 * hold none of a suite's cases is judged by its `shards` condition, not told to accept an empty
 * testset (`allowEmpty`), which would be the wrong fix; a pass rate of no cases does not read as
 * 100%.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

function readArtifact(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

describe('gate conditions of a run with no cases', () => {
  it('a partial merge holding none of a suite’s cases fails on shards, with no allowEmpty advice', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: many',
        `    testset: { cases: [${Array.from({ length: 8 }, (_, i) => `{ q: "m${i}", output: "x" }`).join(', ')}] }`,
        '    evaluators: [ { use: contains, with: { values: ["x"] } } ]',
        '  - id: one',
        '    testset: { cases: [ { q: "only", output: "x" } ] }',
        '    gate: { minPassRate: 0.5 }',
        '    evaluators: [ { use: contains, with: { values: ["x"] } } ]',
        '',
      ].join('\n'),
    });
    for (const index of [1, 2]) {
      const r = await runInProcess(['run', '--shard', `${index}/2`, '-o', `s${index}.json`], dir);
      assert.equal(r.code, 0, r.stderr);
    }
    // The shard that holds none of suite `one`'s single case.
    const without = [1, 2].find(
      (index) =>
        readArtifact(dir, `s${index}.json`).runs.find((run) => run.suite === 'one')?.testset
          .cases === 0,
    );
    assert.ok(without !== undefined);
    const merged = await runInProcess(
      ['merge', `s${without}.json`, '--allow-partial', '-o', 'partial.json'],
      dir,
    );
    assert.equal(merged.code, 1, merged.stderr);
    const one = readArtifact(dir, 'partial.json').runs.find((run) => run.suite === 'one');
    assert.ok(one);
    assert.equal(one.verdict, 'fail');
    const conditions = one.gate.conditions.map((c) => [c.name, c.actual, c.passed]);
    assert.deepEqual(conditions, [
      ['minPassRate', 'no cases ran', true],
      ['shards', `shard ${without} of 2 merged (partial merge)`, false],
    ]);
    assert.doesNotMatch(merged.stdout + merged.stderr, /allowEmpty/);
  });
});
