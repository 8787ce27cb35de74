/**
 * A lower-is-better evaluator end to end, through the CLI in this process: a YAML evaluator with
 * `threshold: { lte: 0.5 }` whose scores rise between a baseline run and a head run is a
 * regression `evals compare` exits 1 on; with `gte` the same rise is an improvement. The artifact
 * records the direction, and merge and resume keep it.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { readArtifact } from './helpers/shard-fixture.ts';

/** Every row's recorded output; the evaluator's similarity to it moves with `EXPECTED`. */
const OUTPUT = 'abcdefghij';
/**
 * Similarity 0.2 to the output (the baseline) and 0.4 (the head): a rise on every case, within
 * both thresholds below, so only the evaluator's row moves, never the pass rate.
 */
const BASE_EXPECTED = 'abzzzzzzzz';
const HEAD_EXPECTED = 'abcdzzzzzz';

/** 20 rows of recorded output, scored by `levenshtein` against `${EXPECTED}` with `threshold`. */
function project(threshold: string): string {
  const rows = Array.from({ length: 20 }, (_, n) => ({ n, output: OUTPUT }));
  return jsonlProject(rows, [
    'evaluators:',
    '  - id: drift',
    '    use: levenshtein',
    '    with: { expected: "${EXPECTED}" }',
    `    threshold: ${threshold}`,
    'gate: { minPassRate: 0 }',
  ]);
}

async function run(dir: string, out: string, expected: string, ...flags: string[]) {
  const result = await runInProcess(['run', '-o', out, ...flags], dir, { EXPECTED: expected });
  assert.ok(result.code === 0 || result.code === 1, result.stderr);
  return result;
}

function drift(artifact: ResultsArtifact) {
  const summary = artifact.runs[0]?.summary.evaluators.drift;
  assert.ok(summary, 'the run summarises drift');
  return summary;
}

describe('a lower-is-better evaluator through evals compare', () => {
  it('exits 1 when an lte evaluator rises, and the artifact says lowerIsBetter', async () => {
    const dir = project('{ lte: 0.5 }');
    await run(dir, 'base.json', BASE_EXPECTED);
    await run(dir, 'head.json', HEAD_EXPECTED);
    const head = readArtifact(join(dir, 'head.json'));
    assert.equal(drift(head).lowerIsBetter, true);
    assert.equal(drift(head).mean?.toFixed(6), '0.400000');
    assert.equal(drift(readArtifact(join(dir, 'base.json'))).mean?.toFixed(6), '0.200000');

    const compared = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    assert.equal(compared.code, 1, compared.stderr);
    assert.match(compared.stdout, /1 regression · 0 improvements/);
    assert.match(
      compared.stdout,
      /drift +0\.200 → 0\.400 \(\+0\.200,.*regressed \(lower is better\)/,
    );

    const json = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'json'], dir);
    const row = (
      JSON.parse(json.stdout) as {
        runs: { evaluators: { label: string; delta: number; lowerIsBetter?: true }[] }[];
      }
    ).runs[0]?.evaluators[0];
    assert.deepEqual(
      [row?.label, row?.delta.toFixed(6), row?.lowerIsBetter],
      ['regressed', '0.200000', true],
    );
  });

  it('exits 0 and calls the same rise an improvement when the threshold is gte', async () => {
    const dir = project('{ gte: 0.1 }');
    await run(dir, 'base.json', BASE_EXPECTED);
    await run(dir, 'head.json', HEAD_EXPECTED);
    assert.equal('lowerIsBetter' in drift(readArtifact(join(dir, 'head.json'))), false);
    const compared = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    assert.equal(compared.code, 0, compared.stderr);
    assert.match(compared.stdout, /0 regressions · 1 improvement/);
    assert.doesNotMatch(compared.stdout, /lower is better/);
  });

  it('keeps lowerIsBetter in a merged artifact and in a resumed one', async () => {
    const dir = project('{ lte: 0.5 }');
    await run(dir, 'full.json', HEAD_EXPECTED);
    await run(dir, 's1.json', HEAD_EXPECTED, '--shard', '1/2');
    await run(dir, 's2.json', HEAD_EXPECTED, '--shard', '2/2');
    const merged = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'merged.json'], dir);
    assert.ok(merged.code === 0 || merged.code === 1, merged.stderr);
    const full = readArtifact(join(dir, 'full.json'));
    assert.deepEqual(drift(readArtifact(join(dir, 'merged.json'))), drift(full));
    assert.equal(drift(full).lowerIsBetter, true);

    // A partial: half the cases, interrupted, its summary without the direction. The resumed
    // run summarises the cases it takes over with those it runs, and finds it again.
    const partial = JSON.parse(readFileSync(join(dir, 'full.json'), 'utf8')) as ResultsArtifact;
    const only = partial.runs[0]!;
    only.cases = only.cases.slice(0, 10);
    delete drift(partial).lowerIsBetter;
    partial.interrupted = true;
    writeFileSync(join(dir, 'partial.json'), JSON.stringify(partial));
    const resumed = await run(dir, 'resumed.json', HEAD_EXPECTED, '--resume', 'partial.json');
    assert.match(resumed.stderr, /10 case results kept, 10 cases to run/);
    assert.deepEqual(drift(readArtifact(join(dir, 'resumed.json'))), drift(full));
  });
});
