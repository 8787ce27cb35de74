/**
 * (With action-baseline-not-compared.test.ts: a missing file, and `mode: report`.)
 * A baseline the Action could not compare with: one that shares no case with the run (the team
 * changed `hash:` fields, or the baseline comes from an unrelated branch), one that is not there,
 * or none yet on the base branch. The run still passes (a new suite or new case ids must not block
 * every pull request), but the PR comment, the job summary and the check run say plainly that it
 * was not compared and why: a reviewer must not read a green report as "no regressions".
 *
 * The Action runs from src/ (through tsx) in a child process, against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAction, sourceCheckout, type Workspace } from './helpers/action-run.ts';
import { startGitHubServer, type GitHubServer } from './helpers/github-server.ts';
import { notComparedNote, renamedRows, reports } from './helpers/uncompared-baseline.ts';

describe('the Action with a baseline file it could not compare with, or in mode: report', () => {
  let server: GitHubServer;
  let action = '';
  let ws: Workspace;
  before(async () => {
    server = await startGitHubServer();
    action = sourceCheckout();
    ({ ws } = await renamedRows(true));
  });
  after(() => server.close());

  it('a baseline file that is not there: the reports say so too', async () => {
    const run = await runAction(action, ws, server, { baseline: 'gone.json', report: 'false' });
    assert.equal(run.code, 0, run.stdout);
    for (const [where, text] of Object.entries(reports(server, run))) {
      assert.match(notComparedNote(text), /gone\.json does not exist/, `${where}:\n${text}`);
    }
  });

  it('mode: report with a baseline sharing no case: the reports say it was not compared', async () => {
    const run = await runAction(action, ws, server, {
      mode: 'report',
      results: 'evals-results.json',
      baseline: 'base.json',
    });
    assert.equal(run.code, 0, run.stdout);
    for (const [where, text] of Object.entries(reports(server, run))) {
      assert.match(notComparedNote(text), /shares no case id/, `${where}:\n${text}`);
    }
  });

  it('a baseline that was compared: no such note', async () => {
    const run = await runAction(action, ws, server, {
      mode: 'report',
      results: 'evals-results.json',
      baseline: 'evals-results.json',
    });
    assert.equal(run.code, 0, run.stdout);
    for (const text of Object.values(reports(server, run))) assert.equal(notComparedNote(text), '');
  });
});
