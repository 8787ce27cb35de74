/**
 * `automatic-battle`'s first run records every case as its own baseline, which passes, and
 * writes the file to be committed. In CI, where that file stays on the runner, a project that never
 * committed it recorded again on every run and passed, judging nothing. A run with `CI` set now
 * records nothing: each case is an evaluation error that says to run `--update-baselines` and
 * commit the file, unless that run was asked to record (`--update-baselines`). Outside CI the first
 * run records as before. The real CLI against a loopback judge.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  BASELINES_FILE,
  battleConfig,
  runOf,
  type BattleEvaluation,
} from './helpers/battle-baselines.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

/** Two recorded outputs battled against the baselines in battles/s/vs.json (none yet). */
function battleProject(): string {
  const dir = scratch();
  writeFiles(dir, {
    'rows.csv': 'q,output\nq1,a\nq2,b\n',
    'evals.yaml': battleConfig(server.url, 'rows.csv', ['- { id: vs, use: automatic-battle }']),
  });
  return dir;
}

function evaluations(dir: string): BattleEvaluation[] {
  return runOf(dir).cases.flatMap((c) => c.evaluations);
}

describe('automatic-battle without a baselines file', () => {
  it('in CI: every case errors, saying how to record, and no file is written', async () => {
    const dir = battleProject();
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, env: { CI: 'true' } });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const errors = evaluations(dir).map((e) => e.error);
    assert.equal(errors.length, 2);
    for (const error of errors) {
      assert.equal(
        error,
        `no baseline for this case: ${BASELINES_FILE} does not exist, and a run in CI (CI=true) does not record it; run \`evals run evals.yaml --update-baselines\` and commit the file`,
      );
    }
    assert.equal(existsSync(join(dir, BASELINES_FILE)), false);
    assert.equal(server.requests.length, 0, 'nothing to battle');
  });

  it('in CI with --update-baselines: recorded as asked', async () => {
    const dir = battleProject();
    const r = await runCli(['run', '--update-baselines', '-o', 'out.json'], {
      cwd: dir,
      env: { CI: 'true' },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // Recorded, so not judged: no evaluation (see battle-first-baselines-unjudged.test.ts).
    assert.deepEqual(evaluations(dir), []);
    assert.ok(existsSync(join(dir, BASELINES_FILE)));
  });

  it('outside CI (CI empty or false): the first run records, and passes', async () => {
    for (const ci of ['', 'false']) {
      const dir = battleProject();
      const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, env: { CI: ci } });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.ok(existsSync(join(dir, BASELINES_FILE)), `CI=${ci}`);
    }
  });
});
