/**
 * A config named in the `args` input (`args: nightly.yaml --suite qa`) is the one that runs, so it
 * is the one whose `${VAR}` values the Action masks and scrubs: the `config` input's file (here
 * absent) must not stand in for it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { workspace, DEPLOY_PAT_CONFIG } from './helpers/action-run.ts';

describe('a config named in args', () => {
  const fixture = useActionFixture();
  const PAT = 'ghp_NightlyDeployPat1234567890ab';

  it("masks and scrubs the values that config reads, not those of the config input's file", async () => {
    const ws = workspace({
      'nightly.yaml': DEPLOY_PAT_CONFIG,
      'testsets/qa.csv': 'expected\nParis\n',
      'app/echo.mjs': "process.stdout.write('using ' + process.env.DEPLOY_PAT);\n",
    });
    const run = await fixture.run(ws, { args: 'nightly.yaml' }, { DEPLOY_PAT: PAT });
    assert.equal(run.outputs.verdict, 'fail', run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`::add-mask::${PAT}`));
    const comment = (fixture.server.state.comments.get(7) ?? []).map((c) => c.body).join('\n');
    const checkRuns = JSON.stringify([...fixture.server.state.checkRuns.values()]);
    const results = readFileSync(join(ws.dir, 'evals-results.json'), 'utf8');
    for (const [where, text] of Object.entries({
      comment,
      checkRuns,
      summary: run.summary,
      results,
    })) {
      assert.ok(!text.includes(PAT), `${where} holds the value the config reads`);
    }
    assert.match(results, /using \[redacted\]/);
  });
});
