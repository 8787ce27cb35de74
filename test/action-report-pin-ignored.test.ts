/**
 * The Action refuses `--ignore-pin` in `mode: run` (a pull request is gated on the pinned
 * testsets), but `mode: report` posted a green check for results made with it, as the sharded
 * workflow makes them (`evals run --ignore-pin --shard …`, `evals merge`, then `mode: report`): a
 * testset that no longer matched its pin passed the pull request. `mode: report` now refuses such
 * results as it refuses one shard's: verdict error, the reason, nothing posted. The Action runs
 * from src (`sourceCheckout`) against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import {
  ALL_PASS,
  runAction,
  sourceCheckout,
  suiteFiles,
  workspace,
} from './helpers/action-run.ts';
import { startGitHubServer } from './helpers/github-server.ts';

/** A passing suite whose testset is pinned to a revision it no longer has. */
function stalePin(): ReturnType<typeof workspace> {
  const files = suiteFiles(ALL_PASS);
  const config = files['evals.yaml']!.replace(
    'testset: { path: testsets/qa.csv }',
    'testset: { path: testsets/qa.csv, revision: "abcdef12" }',
  );
  return workspace({ ...files, 'evals.yaml': config });
}

describe('mode: report of results made with --ignore-pin', () => {
  it('merged shards that ignored the pin: verdict error, the reason, a failed check run and no comment', async () => {
    const ws = stalePin();
    for (const shard of ['1/2', '2/2']) {
      const r = await runCli(['run', '--ignore-pin', '--shard', shard, '-o', `s${shard[0]}.json`], {
        cwd: ws.dir,
      });
      assert.equal(r.code, 0, r.stdout + r.stderr);
    }
    const merged = await runCli(['merge', 's1.json', 's2.json', '-o', 'evals-results.json'], {
      cwd: ws.dir,
    });
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);

    const server = await startGitHubServer();
    try {
      const before = server.requests.length;
      const r = await runAction(sourceCheckout(), ws, server, { mode: 'report' });
      assert.equal(r.code, 1, r.stdout);
      assert.equal(r.outputs.verdict, 'error');
      assert.match(
        r.stdout,
        /^::error::evalgate \(mode: report\): evals-results\.json was run with --ignore-pin \(pinIgnored: true\): a testset did not match its pinned revision/m,
      );
      const writes = server.requests.slice(before).filter((q) => q.method !== 'GET');
      assert.deepEqual(
        writes.map((q) => `${q.method} ${q.path}`),
        ['POST /repos/octo/repo/check-runs'],
        'a check run, no comment',
      );
      const [run] = [...server.state.checkRuns.values()];
      assert.equal(run?.conclusion, 'failure');
      assert.match(run?.output.summary ?? '', /was run with --ignore-pin/);
    } finally {
      await server.close();
    }
  });

  it('results at the pin are reported as before', async () => {
    const ws = workspace(suiteFiles(ALL_PASS));
    const made = await runCli(['run'], { cwd: ws.dir });
    assert.equal(made.code, 0, made.stdout + made.stderr);
    const server = await startGitHubServer();
    try {
      const r = await runAction(sourceCheckout(), ws, server, { mode: 'report' });
      assert.equal(r.code, 0, r.stdout);
      assert.equal(r.outputs.verdict, 'pass');
    } finally {
      await server.close();
    }
  });
});
