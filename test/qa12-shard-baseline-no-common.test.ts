/**
 * A shard compared with a baseline that holds none of its cases (every case of the shard is new
 * in this pull request) was written uncompared, with a warning that the two share no case, so
 * `evals merge` then refused the shards as "some compared and others not": a sharded run could
 * not be merged where the unsharded run compares and gates. Its runs match the baseline's, and
 * the other shards hold the common cases, so it records the comparison (of no paired case).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { regressionProject, runInProcess } from './helpers/in-process.ts';

const ROWS = Array.from({ length: 40 }, (_, n) => ({ id: `c${n}` }));

function read(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

function rows(list: readonly { id: string }[]): string {
  return list.map((row) => JSON.stringify(row)).join('\n') + '\n';
}

describe('a shard sharing no case with the baseline', () => {
  it('records the comparison, so the shards merge, compare and gate as the unsharded run', async () => {
    const dir = regressionProject(
      `import { existsSync } from 'node:fs';
export function fn() { return existsSync(new URL('./bad', import.meta.url)) ? 'bad' : 'ok'; }
`,
      { rows: ROWS.length },
    );
    // Which rows shard 1 of 2 holds: the baseline's testset is those rows only.
    const probe = await runInProcess(['run', '--shard', '1/2', '-o', 'probe.json'], dir);
    assert.equal(probe.code, 0, probe.stderr);
    const inFirst = new Set(
      read(dir, 'probe.json').runs[0]?.cases.map((c) => (c.data as { id: string }).id),
    );
    assert.ok(inFirst.size > 10 && inFirst.size < ROWS.length, `shard 1 holds ${inFirst.size}`);
    writeFileSync(join(dir, 'rows.jsonl'), rows(ROWS.filter((row) => inFirst.has(row.id))));
    const base = await runInProcess(['run', '-o', 'base.json'], dir);
    assert.equal(base.code, 0, base.stderr);

    // The pull request: every row, answered wrong, so the common cases regress.
    writeFileSync(join(dir, 'rows.jsonl'), rows(ROWS));
    writeFileSync(join(dir, 'bad'), '');
    const whole = await runInProcess(['run', '--baseline', 'base.json', '-o', 'whole.json'], dir);
    assert.equal(whole.code, 1, 'the unsharded run blocks on the regression');

    for (const shard of [1, 2]) {
      const r = await runInProcess(
        ['run', '--shard', `${shard}/2`, '--baseline', 'base.json', '-o', `s${shard}.json`],
        dir,
      );
      assert.doesNotMatch(r.stderr, /no comparison/, `shard ${shard}: ${r.stderr}`);
      const base = read(dir, `s${shard}.json`).comparison?.base as { path?: string } | undefined;
      assert.equal(base?.path, 'base.json', `shard ${shard} records its baseline`);
    }
    assert.equal(read(dir, 's2.json').comparison?.runs[0]?.passRate.paired, 0);

    const merged = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'merged.json'], dir);
    assert.equal(merged.code, 1, `${merged.stdout}\n${merged.stderr}`);
    const result = read(dir, 'merged.json');
    const regressions = result.runs[0]?.gate.conditions.find((c) => c.name === 'regressions');
    assert.equal(regressions?.passed, false, JSON.stringify(result.runs[0]?.gate));
    assert.equal(result.comparison?.runs[0]?.passRate.paired, inFirst.size);
    assert.equal(
      result.comparison?.runs[0]?.passRate.paired,
      read(dir, 'whole.json').comparison?.runs[0]?.passRate.paired,
    );
  });
});
