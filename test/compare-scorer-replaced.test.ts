/**
 * Evaluators are paired by id. A pull request that kept an evaluator's id but gave it another
 * scorer (`use: levenshtein` swapped for `use: latency`, which scores 1 whatever the answer) had
 * its broken answers compared as `unchanged` and passed `regressions: block`: the scores of the
 * new scorer were read as the old one's. Each run now records its evaluators' scorers
 * (`plan.scorers`), and an id whose scorer changed is compared with nothing, as a rename is: under
 * `block` it fails, saying how to accept it. A change of `with:` is the same scorer tuned and is
 * still compared. The real CLI, `evals run --baseline` and `evals compare`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

const ROWS = 12;
const RIGHT = 'the right answer';

/** One suite of recorded outputs scored by `evaluator` (a flow mapping's inside), under `gate`. */
function config(evaluator: string, gate = '{ regressions: block }'): string {
  return [
    'version: 1',
    'suites:',
    '  - id: s',
    '    testset: { path: rows.jsonl }',
    '    hash: [q]',
    '    evaluators:',
    `      - { ${evaluator} }`,
    `    gate: ${gate}`,
    '',
  ].join('\n');
}

const rows = (output: string): string =>
  `${Array.from({ length: ROWS }, (_, i) => JSON.stringify({ q: `q${i}`, output })).join('\n')}\n`;

const STRICT = `id: close, use: levenshtein, with: { expected: "${RIGHT}" }, threshold: { gte: 0.9 }`;
const LENIENT = 'id: close, use: latency, with: { max: 60s }';

/** BASE (`STRICT`, every output right) run to base.json, then HEAD's config and outputs. */
async function project(head: string, output: string): Promise<string> {
  const dir = scratch();
  writeFiles(dir, { 'evals.yaml': config(STRICT), 'rows.jsonl': rows(RIGHT) });
  const base = await runCli(['run', '-o', 'base.json'], { cwd: dir });
  assert.equal(base.code, 0, base.stdout + base.stderr);
  writeFiles(dir, { 'evals.yaml': head, 'rows.jsonl': rows(output) });
  return dir;
}

const run = (dir: string) =>
  runCli(['run', '--baseline', 'base.json', '-o', 'head.json'], { cwd: dir });

const REPLACED =
  'evaluator "close" is scored by latency in this run and was scored by levenshtein in the baseline, so nothing was compared with it';

describe('an evaluator id kept for another scorer', () => {
  it('is not compared as the same evaluator: every answer broken fails regressions: block', async () => {
    const dir = await project(config(LENIENT), 'wrong');
    const head = await run(dir);
    assert.equal(head.code, 1, head.stdout + head.stderr);
    assert.match(head.stdout, /✗ regressions: /);
    assert.match(
      head.stdout,
      /another scorer under the same id, not compared: close: levenshtein → latency/,
    );
    const artifact = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as ResultsArtifact;
    const [runResult] = artifact.runs;
    assert.deepEqual(runResult?.plan?.scorers, { close: 'latency' });
    const condition = runResult?.gate.conditions.find((c) => c.name === 'regressions');
    assert.ok(condition?.actual.includes(REPLACED), JSON.stringify(condition));
    assert.ok(condition?.actual.endsWith(`list "close" in the suite's gate.removedEvaluators`));
    const row = artifact.comparison?.runs[0];
    assert.deepEqual(row?.evaluatorsReplaced, [
      { evaluator: 'close', base: 'levenshtein', head: 'latency' },
    ]);
    assert.deepEqual(row?.evaluators, [], 'no row compares the two scorers');

    const compared = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(compared.code, 1, compared.stdout + compared.stderr);
    assert.match(compared.stderr, new RegExp(`HEAD s: ${REPLACED.replace(/[.()]/g, '\\$&')}`));
  });

  it('is a warning under regressions: warn, and the run passes', async () => {
    const dir = await project(config(LENIENT, '{ regressions: warn }'), 'wrong');
    const head = await run(dir);
    assert.equal(head.code, 0, head.stdout + head.stderr);
    assert.ok(head.stderr.includes(`warning: s: ${REPLACED}`), head.stderr);
  });

  it('inverted with not: true is another scorer too', async () => {
    const dir = await project(
      config(`${STRICT}, not: true`.replace('gte: 0.9', 'lte: 0.1')),
      RIGHT,
    );
    const head = await run(dir);
    assert.equal(head.code, 1, head.stdout + head.stderr);
    assert.match(head.stdout, /close: levenshtein → not levenshtein/);
  });

  it('with only with: changed, is still compared: a regression blocks and nothing else fails', async () => {
    const tuned = STRICT.replace(`"${RIGHT}"`, `"${RIGHT}", ignoreCase: true`);
    const same = await run(await project(config(tuned), RIGHT));
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.doesNotMatch(same.stdout + same.stderr, /another scorer|scored by/);

    const broken = await run(await project(config(tuned), 'wrong'));
    assert.equal(broken.code, 1, broken.stdout + broken.stderr);
    assert.match(broken.stdout, /close +1\.000 → 0\.\d+ .* regressed/);
  });

  it('given a new id, with the old one in removedEvaluators, passes', async () => {
    const renamed = LENIENT.replace('id: close', 'id: fast');
    const dir = await project(
      config(renamed, '{ regressions: block, removedEvaluators: [close] }'),
      RIGHT,
    );
    const head = await run(dir);
    assert.equal(head.code, 0, head.stdout + head.stderr);
  });
});

describe('shards of one run on either side of plan.scorers', () => {
  it('merge: a shard that records no scorers (an earlier evalgate) merges, the plan without them', async () => {
    const dir = scratch();
    writeFiles(dir, { 'evals.yaml': config(STRICT), 'rows.jsonl': rows(RIGHT) });
    for (const shard of ['1/2', '2/2']) {
      const ran = await runCli(['run', '--shard', shard, '-o', `s${shard[0]}.json`], { cwd: dir });
      assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    }
    const older = JSON.parse(readFileSync(join(dir, 's2.json'), 'utf8')) as ResultsArtifact;
    for (const r of older.runs) delete r.plan?.scorers;
    writeFiles(dir, { 's2.json': JSON.stringify(older) });
    const merged = await runCli(['merge', 's1.json', 's2.json', '-o', 'm.json'], { cwd: dir });
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'm.json'), 'utf8')) as ResultsArtifact;
    assert.equal(artifact.runs[0]?.plan?.scorers, undefined);
    assert.deepEqual(artifact.runs[0]?.plan?.evaluators, ['close']);
  });
});
