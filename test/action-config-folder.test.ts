/**
 * A config input (or a config in `args`) may name a folder holding evals.yaml, as `evals run`
 * accepts: the Action reads that evals.yaml for the values to mask, and in `mode: report` places
 * annotations relative to it. The built dist/index.js against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace, DEPLOY_PAT_CONFIG } from './helpers/action-run.ts';

describe('a config named by its folder', () => {
  const fixture = useActionFixture();
  const PAT = 'ghp_FolderConfigDeployPat12345678';

  const named: Record<string, string>[] = [{ config: 'bot' }, { args: 'bot' }];
  for (const inputs of named) {
    it(`${JSON.stringify(inputs)}: the values its evals.yaml reads are masked and scrubbed`, async () => {
      const ws = workspace({
        'bot/evals.yaml': DEPLOY_PAT_CONFIG,
        'bot/testsets/qa.csv': 'expected\nParis\n',
        'bot/app/echo.mjs': "process.stdout.write('using ' + process.env.DEPLOY_PAT);\n",
      });
      fixture.server.state.comments.clear();
      const run = await fixture.run(ws, inputs, { DEPLOY_PAT: PAT });
      assert.equal(run.outputs.verdict, 'fail', run.stdout + run.stderr);
      assert.match(run.stdout, new RegExp(`::add-mask::${PAT}`));
      const comment = (fixture.server.state.comments.get(7) ?? []).map((c) => c.body).join('\n');
      const checkRuns = JSON.stringify([...fixture.server.state.checkRuns.values()]);
      const results = readFileSync(join(ws.dir, 'evals-results.json'), 'utf8');
      const posted = { comment, checkRuns, summary: run.summary, results };
      for (const [where, text] of Object.entries(posted)) {
        assert.ok(!text.includes(PAT), `${where} holds the value the config reads`);
      }
    });
  }

  it('mode: report annotates the rows relative to the folder’s evals.yaml, as mode: run does', async () => {
    const files = suiteFiles(ONE_FAILING);
    const ws = workspace(
      Object.fromEntries(Object.entries(files).map(([path, text]) => [`bot/${path}`, text])),
    );
    const made = await fixture.run(ws, { config: 'bot', 'fail-on': 'never' });
    assert.equal(made.code, 0, made.stdout);
    const ran = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.deepEqual(
      ran?.annotations.map((a) => a['path']),
      ['bot/testsets/qa.csv'],
    );
    const reported = await fixture.run(ws, { config: 'bot', mode: 'report', 'fail-on': 'never' });
    assert.equal(reported.code, 0, reported.stdout);
    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.name, ran?.name);
    assert.deepEqual(
      posted?.annotations.map((a) => a['path']),
      ['bot/testsets/qa.csv'],
    );
  });
});
