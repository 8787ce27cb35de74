/**
 * A baseline file the Action refuses as not JSON, where a secret is written unquoted: the reason
 * is said in the log, the PR comment, the job summary and the check run, quoting the token cut
 * to 20 characters. The quote must be scrubbed whole before the cut, of the environment's
 * secret-named variables too (as the CLI does), not only of the values the config reads: after
 * the cut, the secret's first characters are a piece that no scrubbing recognises.
 *
 * The Action runs from src/ (through tsx) in a child process, against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';
import { reports } from './helpers/uncompared-baseline.ts';

const TOKEN = 'QZ7XW9KP3LM2NV8RJ4TY';

describe('the Action with a baseline file that is not JSON at a secret', () => {
  const fixture = useSourceAction();

  it('says why without any piece of the secret, in the log and every report', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    writeFileSync(join(ws.dir, 'base.json'), `{"schemaVersion": 1 ${'x'.repeat(15)}${TOKEN}}`);
    const run = await fixture.run(
      ws,
      { baseline: 'base.json', report: 'false' },
      // A secret-named variable the config does not read: the environment's secret all the same.
      { MY_SERVICE_TOKEN: TOKEN },
    );
    assert.match(run.stdout, /^::warning::evalgate: .*base\.json is not JSON/m);
    const texts = { log: run.stdout + run.stderr, ...reports(fixture.server, run) };
    for (const [where, text] of Object.entries(texts)) {
      for (let i = 0; i + 4 <= TOKEN.length; i++) {
        const piece = TOKEN.slice(i, i + 4);
        assert.equal(text.includes(piece), false, `${where} shows ${piece}:\n${text}`);
      }
    }
  });
});

describe('mode: report with a results file that is not JSON at a secret', () => {
  const fixture = useSourceAction();

  it('refuses it without any piece of the secret, in the log, the check run and the summary', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    const results = `{"schemaVersion": 1 ${'x'.repeat(15)}${TOKEN}}`;
    writeFileSync(join(ws.dir, 'evals-results.json'), results);
    const run = await fixture.run(ws, { mode: 'report' }, { MY_SERVICE_TOKEN: TOKEN });
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /evals-results\.json is not JSON/);
    const checkRuns = JSON.stringify([...fixture.server.state.checkRuns.values()]);
    assert.match(checkRuns, /is not JSON/);
    const texts = { log: run.stdout + run.stderr, summary: run.summary, checkRuns };
    for (const [where, text] of Object.entries(texts)) {
      for (let i = 0; i + 4 <= TOKEN.length; i++) {
        const piece = TOKEN.slice(i, i + 4);
        assert.equal(text.includes(piece), false, `${where} shows ${piece}:\n${text}`);
      }
    }
  });
});
