/**
 * A suite whose only evaluator is the SDK's `BaseAutomaticBattle` failed `judged` on the run that
 * recorded its first baselines (the class gives a recorded case no evaluation, as the Autoblocks
 * SDK does), also with `--update-baselines`: the run a user records baselines with failed. Now a
 * case whose battle recorded its first baseline is not counted as one that ran unjudged: a run
 * whose every case was recorded passes, saying so, and the next run, with the baselines, judges.
 * A battle that errored is still an error. The real CLI (a module of the class named in
 * evals.yaml) against a loopback judge.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import {
  RECORDED_NOTE,
  battleConfig,
  judged,
  runOf,
  type BattleRun,
} from './helpers/battle-baselines.ts';
import { repoRoot, runCli, scratch, writeFiles } from './helpers/cli.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const TESTING = JSON.stringify(pathToFileURL(join(repoRoot, 'src', 'testing.ts')).href);

/**
 * Cases q1 and q2 (and q3 when `third`), battled by the class `Vs`; its mapper throws for an
 * output of `bad`, so that case's battle errors. `gate` lines are added under the suite.
 */
function project(outputs: string[], gate: string[] = [], evaluators: string[] = []): string {
  const dir = scratch();
  writeFiles(dir, {
    'rows.csv': ['q,output', ...outputs.map((output, i) => `q${i + 1},${output}`), ''].join('\n'),
    'battle.ts': [
      `import { BaseAutomaticBattle } from ${TESTING};`,
      'export class Vs extends BaseAutomaticBattle<Record<string, unknown>, string> {',
      "  criteria = 'The more accurate answer.';",
      '  outputMapper({ output }: { output: string }): string {',
      "    if (output === 'bad') throw new Error('cannot map this output');",
      '    return output;',
      '  }',
      '}',
      '',
    ].join('\n'),
    'skip.mjs': 'export const skip = { evaluateTestCase: () => undefined };\n',
    'evals.yaml': battleConfig(
      server.url,
      'rows.csv',
      ['- { id: vs, use: ./battle.ts#Vs }', ...evaluators],
      gate,
    ),
  });
  return dir;
}

describe('a suite of an SDK automatic battle alone, recording its first baselines', () => {
  it('passes with a note on the run that records them, and the next run judges', async () => {
    const dir = project(['a', 'b']);
    const first = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(
      first.stdout,
      new RegExp(
        `note: judged: expected at least 1 case evaluated, got ${RECORDED_NOTE.replace(/[()]/g, '\\$&')}`,
      ),
    );
    assert.doesNotMatch(first.stdout, /skipped every one/);
    const recorded = runOf(dir);
    assert.deepEqual(judged(recorded), { actual: RECORDED_NOTE, passed: true });
    assert.equal(recorded.summary.baselinesRecorded, 2);
    assert.deepEqual(
      recorded.cases.map((c) => [c.recordedBaseline, c.evaluations.length]),
      [
        [['vs'], 0],
        [['vs'], 0],
      ],
    );
    assert.equal(server.requests.length, 0, 'nothing battled yet');

    const second = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(second.code, 0, second.stdout + second.stderr);
    const battled = runOf(dir);
    assert.equal(judged(battled), undefined, 'judged: nothing to excuse or fail');
    assert.equal(battled.summary.baselinesRecorded, undefined);
    assert.ok(
      battled.cases.every((c) => c.recordedBaseline === undefined && c.evaluations.length === 1),
    );
    assert.equal(server.requests.length, 4, 'each case battled, in both orders');
  });

  it('another evaluator that returned nothing for every case still fails judged, named', async () => {
    // The battle's first baselines excuse the battle only: `skip` had none to wait for and
    // checked nothing, so the run checked nothing it was asked to, as without the battle.
    const dir = project(['a', 'b'], [], ['- { id: skip, use: ./skip.mjs#skip }']);
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const run = runOf(dir);
    assert.equal(run.verdict, 'fail');
    assert.equal(run.summary.baselinesRecorded, 2);
    assert.deepEqual(judged(run), {
      actual:
        'none of the 2 cases that ran: skip skipped every one; vs only recorded first baselines (2)',
      passed: false,
    });
    assert.match(r.stdout, /skip evaluated none of the 2 cases that ran \(it skipped every one\)/);
    assert.doesNotMatch(r.stdout, /vs evaluated none/);
    assert.doesNotMatch(r.stdout, /note: judged/);
  });

  it('in CI with --update-baselines too', async () => {
    const dir = project(['a', 'b']);
    const r = await runCli(['run', '--update-baselines', '-o', 'out.json'], {
      cwd: dir,
      env: { CI: 'true' },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(judged(runOf(dir)), { actual: RECORDED_NOTE, passed: true });
  });

  it('with trials, a case recorded in its trials is excused the same way', async () => {
    const dir = project(['a', 'b']);
    const r = await runCli(['run', '--trials', '2', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const run = runOf(dir);
    assert.deepEqual(judged(run), { actual: RECORDED_NOTE, passed: true });
    assert.deepEqual(run.cases[0]?.recordedBaseline, ['vs']);
  });

  it('a battle that errored is still an error: the default gate fails its case', async () => {
    const dir = project(['a', 'bad']);
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const run = runOf(dir);
    assert.equal(run.verdict, 'fail');
    assert.match(r.stdout, /cannot map this output/);
    assert.equal(run.summary.baselinesRecorded, 1);
  });

  it('and under minPassRate: 0 the case it errored on is not excused from judged', async () => {
    const dir = project(['a', 'bad'], ['gate: { minPassRate: 0 }']);
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(judged(runOf(dir)), {
      actual:
        'none of the 1 case that ran without recording a first baseline: every evaluation of vs errored',
      passed: false,
    });
  });

  it("the gate's rules on the battle pass too, saying so, and measure the next run", async () => {
    const rules = ['gate: { evaluators: { vs: { mean: { gte: 0.5 }, passRate: { gte: 0.9 } } } }'];
    const dir = project(['a', 'b'], rules);
    const first = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const ruled = (run: BattleRun) =>
      run.gate.conditions
        .filter((c) => c.name.startsWith('evaluators.vs.'))
        .map((c) => [c.name, c.actual, c.passed]);
    assert.deepEqual(ruled(runOf(dir)), [
      ['evaluators.vs.mean', RECORDED_NOTE, true],
      ['evaluators.vs.passRate', RECORDED_NOTE, true],
    ]);
    // The next run is measured: the judge's default answer here is a tie (0.5) or better.
    const second = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.ok(
      ruled(runOf(dir)).every(([, actual]) => actual !== RECORDED_NOTE),
      second.stdout,
    );
  });

  it('a rule on a battle that errored on a case it could not record still fails', async () => {
    const dir = project(
      ['a', 'bad'],
      ['gate: { minPassRate: 0, evaluators: { vs: { mean: { gte: 0.5 } } } }'],
    );
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const mean = runOf(dir).gate.conditions.find((c) => c.name === 'evaluators.vs.mean');
    assert.deepEqual([mean?.actual, mean?.passed], ['no scores', false]);
  });

  it('evals merge of shards that recorded decides as the run did', async () => {
    const dir = project(['a', 'b', 'c', 'd']);
    for (const shard of ['1/2', '2/2']) {
      const r = await runCli(
        ['run', '--update-baselines', '--shard', shard, '-o', `shard-${shard[0]}.json`],
        { cwd: dir },
      );
      assert.equal(r.code, 0, r.stdout + r.stderr);
    }
    const merged = await runCli(['merge', 'shard-1.json', 'shard-2.json', '-o', 'merged.json'], {
      cwd: dir,
    });
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    const run = runOf(dir, 'merged.json');
    assert.deepEqual(judged(run), {
      actual:
        'baselines recorded for 4 cases; nothing judged yet (the next run judges against them)',
      passed: true,
    });
  });
});
