/**
 * The built-in `automatic-battle` of evals.yaml scored a case it recorded the first baseline of
 * as a 0.5 tie with itself: an evaluation that passed `gte: 0.5` (and so a case under `pass: any`)
 * on a run that compared nothing. It now does as the SDK's `BaseAutomaticBattle`: no evaluation
 * for that case, which the results name in `recordedBaseline`; a run whose every case was
 * recorded passes `judged` saying so, and the next run judges. A battle that errored is still an
 * error. The real CLI against a loopback judge.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  BASELINES_FILE,
  RECORDED_NOTE,
  battleConfig,
  judged,
  runOf,
} from './helpers/battle-baselines.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

/**
 * Cases of `rows.json` (`q`, `output`, and `answer`, the value under test, which a case may lack:
 * its battle then errors), battled by `vs`. `suite` lines are added under the suite and `extra`
 * evaluators after the battle.
 */
function project(
  rows: Record<string, unknown>[],
  suite: string[] = [],
  extra: string[] = [],
): string {
  const dir = scratch();
  writeFiles(dir, {
    'rows.json': JSON.stringify(rows),
    'evals.yaml': battleConfig(
      server.url,
      'rows.json',
      ["- { id: vs, use: automatic-battle, with: { actual: '{{case.answer}}' } }", ...extra],
      suite,
    ),
  });
  return dir;
}

const TWO = [
  { q: 'q1', output: 'a', answer: 'a' },
  { q: 'q2', output: 'b', answer: 'b' },
];

describe('automatic-battle in evals.yaml, recording its first baselines', () => {
  it('gives no evaluation and passes with the note, judging nothing; the next run judges', async () => {
    const dir = project(TWO);
    const first = await runCli(['run', '-o', 'out.json'], { cwd: dir, env: { CI: '' } });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.ok(
      first.stdout.includes(
        `note: judged: expected at least 1 case evaluated, got ${RECORDED_NOTE}`,
      ),
      first.stdout,
    );
    const recorded = runOf(dir);
    assert.deepEqual(judged(recorded), { actual: RECORDED_NOTE, passed: true });
    assert.equal(recorded.summary.baselinesRecorded, 2);
    assert.equal(recorded.summary.evaluators.vs?.count ?? 0, 0, 'no tie scored');
    assert.deepEqual(
      recorded.cases.map((c) => [c.recordedBaseline, c.evaluations.length]),
      [
        [['vs'], 0],
        [['vs'], 0],
      ],
    );
    assert.ok(existsSync(join(dir, BASELINES_FILE)), 'the baselines are written');
    assert.equal(server.requests.length, 0, 'nothing battled yet');

    const second = await runCli(['run', '-o', 'out.json'], { cwd: dir, env: { CI: '' } });
    assert.equal(second.code, 0, second.stdout + second.stderr);
    const battled = runOf(dir);
    assert.equal(judged(battled), undefined);
    assert.equal(battled.summary.baselinesRecorded, undefined);
    assert.deepEqual(
      battled.cases.map((c) => [c.recordedBaseline, c.evaluations.map((e) => e.evaluator)]),
      [
        [undefined, ['vs']],
        [undefined, ['vs']],
      ],
    );
    assert.equal(server.requests.length, 4, 'each case battled, in both orders');
  });

  it('in CI with --update-baselines, and with trials, the same way', async () => {
    const updated = project(TWO);
    const r = await runCli(['run', '--update-baselines', '-o', 'out.json'], {
      cwd: updated,
      env: { CI: 'true' },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(judged(runOf(updated)), { actual: RECORDED_NOTE, passed: true });
    assert.ok(existsSync(join(updated, BASELINES_FILE)));

    const trials = project(TWO);
    const t = await runCli(['run', '--trials', '2', '-o', 'out.json'], {
      cwd: trials,
      env: { CI: '' },
    });
    assert.equal(t.code, 0, t.stdout + t.stderr);
    const run = runOf(trials);
    assert.deepEqual(judged(run), { actual: RECORDED_NOTE, passed: true });
    assert.deepEqual(
      run.cases.map((c) => [c.recordedBaseline, c.evaluations.length]),
      [
        [['vs'], 0],
        [['vs'], 0],
      ],
    );
    assert.equal(server.requests.length, 0);
  });

  it('a tie no longer passes a case under pass: any that its other evaluator failed', async () => {
    const dir = project(
      TWO,
      ['pass: any', 'gate: { minPassRate: 1 }'],
      ['- { id: says-z, use: contains, with: { values: [zzz] } }'],
    );
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, env: { CI: '' } });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const run = runOf(dir);
    assert.equal(run.verdict, 'fail');
    assert.deepEqual(
      run.cases.map((c) => [c.passed, c.evaluations.map((e) => [e.evaluator, e.passed])]),
      [
        [false, [['says-z', false]]],
        [false, [['says-z', false]]],
      ],
    );
    assert.equal(run.summary.baselinesRecorded, 2);
  });

  it("the gate's rules on the battle say it judged nothing rather than measure a tie", async () => {
    const dir = project(TWO, [
      'gate: { evaluators: { vs: { mean: { gte: 0.5 }, passRate: { gte: 1 } } } }',
    ]);
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, env: { CI: '' } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(
      runOf(dir)
        .gate.conditions.filter((c) => c.name.startsWith('evaluators.vs.'))
        .map((c) => [c.name, c.actual, c.passed]),
      [
        ['evaluators.vs.mean', RECORDED_NOTE, true],
        ['evaluators.vs.passRate', RECORDED_NOTE, true],
      ],
    );
  });

  it('a battle that errored is still an error: its case fails', async () => {
    const dir = project([
      { q: 'q1', output: 'a', answer: 'a' },
      { q: 'q2', output: 'b' },
    ]);
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, env: { CI: '' } });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const run = runOf(dir);
    assert.equal(run.verdict, 'fail');
    assert.equal(run.summary.baselinesRecorded, 1);
    assert.deepEqual(
      run.cases.map((c) => [c.passed, c.recordedBaseline, c.evaluations.length]),
      [
        [true, ['vs'], 0],
        [false, undefined, 1],
      ],
    );
    assert.ok(run.cases[1]?.evaluations[0]?.error, 'the battle errored');
  });

  it('evals merge of shards that recorded decides as the run did', async () => {
    const dir = project([
      ...TWO,
      { q: 'q3', output: 'c', answer: 'c' },
      { q: 'q4', output: 'd', answer: 'd' },
    ]);
    for (const shard of ['1/2', '2/2']) {
      const r = await runCli(
        ['run', '--update-baselines', '--shard', shard, '-o', `shard-${shard[0]}.json`],
        { cwd: dir, env: { CI: '' } },
      );
      assert.equal(r.code, 0, r.stdout + r.stderr);
    }
    const merged = await runCli(['merge', 'shard-1.json', 'shard-2.json', '-o', 'merged.json'], {
      cwd: dir,
    });
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    assert.deepEqual(judged(runOf(dir, 'merged.json')), {
      actual:
        'baselines recorded for 4 cases; nothing judged yet (the next run judges against them)',
      passed: true,
    });
  });
});
