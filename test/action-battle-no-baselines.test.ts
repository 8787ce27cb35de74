/**
 * The Action runs on a runner, where GitHub sets `CI=true`: an `automatic-battle` whose baselines
 * file was never committed must fail the check, not record the file on the runner and pass
 * (every case a tie with itself). The Action end to end, as a workflow runs it.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  ALL_PASS,
  runAction,
  sourceCheckout,
  suiteFiles,
  workspace,
} from './helpers/action-run.ts';
import { startGitHubServer } from './helpers/github-server.ts';

describe('the Action with an automatic-battle whose baselines file was never committed', () => {
  it('fails the check: each case errors, and no file is recorded on the runner', async () => {
    const files = suiteFiles(ALL_PASS);
    const config = files['evals.yaml']!.replace(
      'version: 1\n',
      [
        'version: 1',
        // Never called: without a baselines file nothing is battled.
        'defaults:',
        '  judge: { model: judge-mini, baseUrl: "http://127.0.0.1:8080/v1", apiKey: test-key }',
        '',
      ].join('\n'),
    ).concat('      - { id: vs, use: automatic-battle }\n');
    const ws = workspace({ ...files, 'evals.yaml': config });
    const server = await startGitHubServer();
    try {
      const r = await runAction(sourceCheckout(), ws, server);
      assert.equal(r.code, 1, r.stdout);
      assert.equal(r.outputs.verdict, 'fail', r.stdout);
      const results = JSON.parse(readFileSync(join(ws.dir, 'evals-results.json'), 'utf8')) as {
        runs: { cases: { evaluations: { evaluator: string; error: string | null }[] }[] }[];
      };
      const errors = results.runs[0]!.cases.map(
        (c) => c.evaluations.find((e) => e.evaluator === 'vs')?.error,
      );
      assert.equal(errors.length, 2);
      for (const error of errors) {
        assert.match(
          error ?? '',
          /^no baseline for this case: battles\/qa\/vs\.json does not exist, and a run in CI \(CI=true\) does not record it/,
        );
      }
      assert.equal(existsSync(join(ws.dir, 'battles', 'qa', 'vs.json')), false);
    } finally {
      await server.close();
    }
  });
});
