/**
 * Whether a `pass:` function decided a run's cases, when `evals merge` recounts its gate: a run
 * whose evaluators judged no case fails `judged` unless one did. Today's artifacts say so in the
 * plan (`plan.pass`); those of evalgate versions before the `judged` gate condition do not, even
 * when one did, and neither did today's for a suite whose cases `all`/`any` decide.
 *
 * What an artifact records of its config (`configDataParts`) tells a `pass:` function for most
 * configs, but not in a config that names a module (a module evaluator here) and writes `pass:` as
 * a secret-named variable (`${EVAL_PASS_KEY}`, whose value is never recorded): its digest is
 * neither `all`'s nor `any`'s, as a module spec's is not. Today's shards of such a suite record
 * `plan.pass: evaluators`; old shards of such a config cannot be told apart, and a merge whose
 * verdict hinges on it is refused rather than guessed, either way a false pass or a false fail.
 * Real CLI processes; the old shards are real shards with the field removed, and still match the
 * schema.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, type CliResult } from './helpers/cli.ts';
import { jsonlProject } from './helpers/in-process.ts';

const MODULE =
  'export function skips() {}\nexport function decides({ output }) { return output === "x"; }\nexport function throws() { throw new Error("judge down"); }\n';
const ROWS = [
  { id: 'a', output: 'x' },
  { id: 'b', output: 'x' },
  { id: 'c', output: 'x' },
  { id: 'd', output: 'x' },
];
/** The secret-named variable `pass:` refers to, holding `all`. */
const SECRET_ALL = { EVAL_PASS_KEY: 'all' };
/** An evaluator that judges no case, from a module the config hash covers. */
const SKIPS = ['evaluators:', '  - { use: ./ev.mjs#skips }'];

function read(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

/**
 * The project of a suite with `pass` (a line such as `pass: ./ev.mjs#decides`, or none) and
 * `evaluators`, run whole (`whole.json`) and as shards 1/2 and 2/2 (`1.json`, `2.json`);
 * `old1.json` and `old2.json` are the shards without `plan.pass`, as an older evalgate wrote them.
 */
async function shards(
  pass: string[],
  env: Record<string, string> = {},
  evaluators = SKIPS,
  { rows = ROWS, args = [] }: { rows?: readonly Record<string, unknown>[]; args?: string[] } = {},
): Promise<string> {
  const dir = jsonlProject(rows, ['hash: [id]', ...pass, ...evaluators], { 'ev.mjs': MODULE });
  const whole = await runCli(['run', '-o', 'whole.json', ...args], { cwd: dir, env });
  assert.ok(whole.code === 0 || whole.code === 1, whole.stdout + whole.stderr);
  await runShards(dir, env, [0], args);
  return dir;
}

/**
 * Runs shards 1/2 and 2/2 of the project in `dir` (`1.json`, `2.json`), each exiting with one of
 * `codes`, and writes them without `plan.pass` as `old1.json`, `old2.json`, as an older evalgate
 * wrote them.
 */
async function runShards(
  dir: string,
  env: Record<string, string>,
  codes: readonly number[],
  args: readonly string[] = [],
): Promise<void> {
  for (const n of [1, 2]) {
    const r = await runCli(['run', '--shard', `${n}/2`, '-o', `${n}.json`, ...args], {
      cwd: dir,
      env,
    });
    assert.ok(codes.includes(r.code ?? -1), `exit ${r.code}: ${r.stdout}${r.stderr}`);
    const artifact = read(dir, `${n}.json`);
    assert.deepEqual(validateArtifact(artifact), [], 'the shard matches the schema');
    for (const run of artifact.runs) delete run.plan?.pass;
    assert.deepEqual(validateArtifact(artifact), [], 'the old shard matches the schema');
    writeFileSync(join(dir, `old${n}.json`), JSON.stringify(artifact));
  }
}

function merge(dir: string, from: string[], to: string): Promise<CliResult> {
  return runCli(['merge', ...from, '-o', to], { cwd: dir });
}

function gateOf(dir: string, file: string): unknown {
  const artifact = read(dir, file);
  return { verdict: artifact.verdict, gates: artifact.runs.map((run) => run.gate) };
}

/** Merges today's shards and the old ones: each as the unsharded run was gated. */
async function mergesAsWhole(dir: string, code: number): Promise<void> {
  for (const [from, to] of [
    [['1.json', '2.json'], 'new.json'],
    [['old1.json', 'old2.json'], 'old.json'],
  ] as const) {
    const r = await merge(dir, [...from], to);
    assert.equal(r.code, code, `${from.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.deepEqual(gateOf(dir, to), gateOf(dir, 'whole.json'), from.join(' '));
  }
}

describe("evals merge: pass: function or all/any, today's shards and old ones", () => {
  // Old shards of it: the last test but one.
  it("passes today's shards of a run a pass: function decided", async () => {
    const dir = await shards(['pass: ./ev.mjs#decides']);
    assert.equal(read(dir, '1.json').runs[0]?.plan?.pass, 'function');
    const r = await merge(dir, ['1.json', '2.json'], 'new.json');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(gateOf(dir, 'new.json'), gateOf(dir, 'whole.json'));
    const conditions = read(dir, 'new.json').runs[0]?.gate.conditions ?? [];
    assert.equal(
      conditions.find((c) => c.name === 'judged'),
      undefined,
      'no judged condition',
    );
  });

  it('fails judged for pass: any and for no pass:', async () => {
    for (const pass of [['pass: any'], []]) {
      const dir = await shards(pass);
      assert.equal(read(dir, '1.json').runs[0]?.plan?.pass, undefined, 'nothing to tell');
      await mergesAsWhole(dir, 1);
    }
  });

  // A secret's value never enters configHash or the parts: no env is recorded at all, and the
  // suite's pass digest is that of the reference, neither `all` nor `any`.
  it('fails judged for a secret-named pass: holding all in a config with no module', async () => {
    // --tag leaves out the one row the when: tags name (a when: tag no row of the testset has
    // is refused).
    const judgesNone = [
      'evaluators:',
      '  - { use: is-equals, with: { expected: x }, when: { tags: [other] } }',
    ];
    const rows = [
      ...ROWS.map((row) => ({ ...row, __tags__: ['run'] })),
      { id: 'e', output: 'x', __tags__: ['other'] },
    ];
    const dir = await shards(['pass: ${EVAL_PASS_KEY}'], SECRET_ALL, judgesNone, {
      rows,
      args: ['--tag', 'run'],
    });
    assert.equal(read(dir, '1.json').configDataParts?.env, undefined, 'no env recorded');
    await mergesAsWhole(dir, 1);
  });

  // A variable of any name: a non-secret one's value is recorded only as a digest, beside the
  // reference's digest as the suite's pass.
  it("fails judged for today's shards of a pass: variable holding all beside a module", async () => {
    for (const [name, env] of [
      ['EVAL_PASS_KEY', SECRET_ALL],
      ['EVAL_PASS_MODE', { EVAL_PASS_MODE: 'all' }],
    ] as const) {
      const dir = await shards([`pass: \${${name}}`], env);
      assert.equal(read(dir, 'whole.json').verdict, 'fail', name);
      assert.equal(read(dir, '1.json').runs[0]?.plan?.pass, 'evaluators', `${name}: no function`);
      const r = await merge(dir, ['1.json', '2.json'], 'new.json');
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.deepEqual(gateOf(dir, 'new.json'), gateOf(dir, 'whole.json'), name);
      // Beside an old shard of the same run, which may have been run otherwise: refused.
      const mixed = await merge(dir, ['1.json', 'old2.json'], 'mixed.json');
      assert.equal(mixed.code, 2, mixed.stdout + mixed.stderr);
      assert.match(mixed.stderr, /old2\.json was written by an evalgate that did not record/);
      assert.match(mixed.stderr, /\(1\.json records pass: evaluators\): run it again/);
    }
  });

  // Old shards of a config that names a module, whose pass: digest is neither all's nor any's: a
  // pass: module and a secret-named variable holding all look the same. Neither is guessed.
  it('refuses old shards whose verdict hinges on a pass: their config cannot tell', async () => {
    for (const [pass, env] of [
      [['pass: ./ev.mjs#decides'], {}],
      [['pass: ${EVAL_PASS_KEY}'], SECRET_ALL],
      // Not secret-named: its value's digest is recorded, which this reading does not look at.
      [['pass: ${EVAL_PASS_MODE}'], { EVAL_PASS_MODE: 'all' }],
    ] as const) {
      const dir = await shards([...pass], env);
      const r = await merge(dir, ['old1.json', 'old2.json'], 'old.json');
      assert.equal(r.code, 2, `${pass[0]}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /whether a pass: function decided/);
      assert.match(r.stderr, /\(its pass: may be a module, or a variable holding all or any\)/);
      assert.match(r.stderr, /run the shards again with this evalgate/);
    }
  });

  // One shard run again after an upgrade: the same config, and a refusal that says what to do.
  it('refuses an old shard beside one of today, naming the old one to run again', async () => {
    const dir = await shards(['pass: ./ev.mjs#decides']);
    const r = await merge(dir, ['1.json', 'old2.json'], 'mixed.json');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /old2\.json was written by an evalgate that did not record whether a pass: function decided its cases \(1\.json records pass: function\): run it again with this evalgate/,
    );
    assert.doesNotMatch(r.stderr, /run every part with the same config/);
    // Whichever comes first.
    const first = await merge(dir, ['old1.json', '2.json'], 'mixed.json');
    assert.equal(first.code, 2, first.stdout + first.stderr);
    assert.match(first.stderr, /old1\.json was written by .* \(2\.json records pass: function\)/);
  });

  it('merges such old shards when their evaluators judged cases: the pass: cannot change it', async () => {
    const judges = ['evaluators:', '  - { use: is-equals, with: { expected: x } }'];
    const dir = await shards(['pass: ${EVAL_PASS_KEY}'], SECRET_ALL, [
      ...judges,
      '  - { use: ./ev.mjs#skips }',
    ]);
    await mergesAsWhole(dir, 0);
  });
});

describe('evals merge: old shards whose every case errored', () => {
  // The judged condition a run whose every case errored fails does not hinge on a pass:
  // function: the unsharded run fails it either way, so the old shards are merged, not refused.
  it('merges them as the unsharded run was gated, whatever their pass:', async () => {
    const throws = 'export function boom() { throw new Error("down"); }\n';
    const dir = jsonlProject(
      ROWS,
      [
        'hash: [id]',
        'function: ./t.mjs#boom',
        'pass: ./ev.mjs#decides',
        ...SKIPS,
        'gate: { minPassRate: 0 }',
      ],
      { 'ev.mjs': MODULE, 't.mjs': throws },
    );
    const whole = await runCli(['run', '-o', 'whole.json'], { cwd: dir });
    assert.equal(whole.code, 1, whole.stdout + whole.stderr);
    await runShards(dir, {}, [0, 1]);
    const r = await merge(dir, ['old1.json', 'old2.json'], 'old.json');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(gateOf(dir, 'old.json'), gateOf(dir, 'whole.json'));
  });

  // Every evaluation errored (a judge that is down): the run fails its judged condition unless a
  // pass: function decided, but under minPassRate: 0.5 its pass rate of 0 fails it either way.
  it('merges old shards whose every evaluation errored under a pass rate that fails anyway', async () => {
    const dir = jsonlProject(
      ROWS,
      [
        'hash: [id]',
        'pass: ${EVAL_PASS_KEY}',
        'evaluators:',
        '  - { use: ./ev.mjs#throws, threshold: { gte: 1 } }',
        'gate: { minPassRate: 0.5 }',
      ],
      { 'ev.mjs': MODULE },
    );
    const whole = await runCli(['run', '-o', 'whole.json'], { cwd: dir, env: SECRET_ALL });
    assert.equal(whole.code, 1, whole.stdout + whole.stderr);
    await runShards(dir, SECRET_ALL, [0, 1]);
    const r = await merge(dir, ['old1.json', 'old2.json'], 'old.json');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(gateOf(dir, 'old.json'), gateOf(dir, 'whole.json'));
  });
});
