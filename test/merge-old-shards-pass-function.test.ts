/**
 * Artifacts of evalgate versions before the `judged` gate condition have no `plan.pass`, even
 * when a `pass:` function decided their cases. `evals merge` of such shards whose evaluators
 * judged no case must not fail the merged run for it, as the run itself did not (and as a merge
 * of today's shards, which record `pass: function`, does not): what the artifact records of the
 * config (`configDataParts`: the suite has a `pass:` that is neither `all` nor `any`) says a
 * function decided. A suite with `pass: any` (or none) still fails `judged`. Real CLI processes;
 * the old shards are real shards with the field removed, and still match the schema.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli } from './helpers/cli.ts';
import { jsonlProject } from './helpers/in-process.ts';

const MODULE =
  'export function skips() {}\nexport function decides({ output }) { return output === "x"; }\n';
const ROWS = [
  { id: 'a', output: 'x' },
  { id: 'b', output: 'x' },
  { id: 'c', output: 'x' },
  { id: 'd', output: 'x' },
];

function read(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

/**
 * Shards 1/2 and 2/2 of a suite with `pass` (a line such as `pass: ./ev.mjs#decides`, or none)
 * whose one evaluator judges no case; `old1.json` and `old2.json` are the shards without
 * `plan.pass`, as an older evalgate wrote them.
 */
async function shards(pass: string[]): Promise<string> {
  const dir = jsonlProject(
    ROWS,
    ['hash: [id]', ...pass, 'evaluators:', '  - { use: ./ev.mjs#skips }'],
    { 'ev.mjs': MODULE },
  );
  for (const n of [1, 2]) {
    const r = await runCli(['run', '--shard', `${n}/2`, '-o', `${n}.json`], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const artifact = read(dir, `${n}.json`);
    for (const run of artifact.runs) delete run.plan?.pass;
    assert.deepEqual(validateArtifact(artifact), [], 'the old shard matches the schema');
    writeFileSync(join(dir, `old${n}.json`), JSON.stringify(artifact));
  }
  return dir;
}

async function merge(dir: string, from: string[], to: string): Promise<number | null> {
  const r = await runCli(['merge', ...from, '-o', to], { cwd: dir });
  return r.code;
}

function gateOf(dir: string, file: string): unknown {
  const artifact = read(dir, file);
  return { verdict: artifact.verdict, gates: artifact.runs.map((run) => run.gate) };
}

describe('evals merge of shards written before plan.pass', () => {
  it('passes a run a pass: function decided, as merging the shards of today does', async () => {
    const dir = await shards(['pass: ./ev.mjs#decides']);
    assert.equal(await merge(dir, ['1.json', '2.json'], 'new.json'), 0);
    assert.equal(await merge(dir, ['old1.json', 'old2.json'], 'old.json'), 0);
    assert.deepEqual(gateOf(dir, 'old.json'), gateOf(dir, 'new.json'));
    const conditions = read(dir, 'old.json').runs[0]?.gate.conditions ?? [];
    assert.equal(
      conditions.find((c) => c.name === 'judged'),
      undefined,
      'no judged condition',
    );
  });

  it('still fails judged for pass: any and for no pass:, as today', async () => {
    for (const pass of [['pass: any'], []]) {
      const dir = await shards(pass);
      assert.equal(await merge(dir, ['1.json', '2.json'], 'new.json'), 1);
      assert.equal(await merge(dir, ['old1.json', 'old2.json'], 'old.json'), 1);
      assert.deepEqual(gateOf(dir, 'old.json'), gateOf(dir, 'new.json'));
    }
  });
});

describe('evals merge of shards whose pass: is a secret-named variable', () => {
  // `pass: ${EVAL_PASS_KEY}` holding `all`: a secret's value never enters configHash or the
  // parts, so the parts record no environment at all, and the suite's pass digest is that of the
  // reference, neither `all` nor `any`. No module is covered, so no pass: function can have
  // decided: the merged run fails judged, as the unsharded run does.
  it('fails judged as the unsharded run does', async () => {
    const dir = jsonlProject(ROWS, [
      'hash: [id]',
      'pass: ${EVAL_PASS_KEY}',
      'evaluators:',
      '  - { use: is-equals, with: { expected: x }, when: { tags: [none] } }',
    ]);
    const env = { EVAL_PASS_KEY: 'all' };
    const whole = await runCli(['run', '-o', 'whole.json'], { cwd: dir, env });
    assert.equal(whole.code, 1, whole.stdout + whole.stderr);
    for (const n of [1, 2]) {
      const r = await runCli(['run', '--shard', `${n}/2`, '-o', `${n}.json`], { cwd: dir, env });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(read(dir, `${n}.json`).configDataParts?.env, undefined, 'no env recorded');
    }
    assert.equal(await merge(dir, ['1.json', '2.json'], 'merged.json'), 1);
    assert.deepEqual(gateOf(dir, 'merged.json'), gateOf(dir, 'whole.json'));
  });
});
