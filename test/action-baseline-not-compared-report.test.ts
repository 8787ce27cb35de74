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
import { before, describe, it } from 'node:test';
import { type Workspace } from './helpers/action-run.ts';
import { useSourceAction } from './helpers/action-fixture.ts';
import { notComparedNote, renamedRows, reports } from './helpers/uncompared-baseline.ts';

describe('the Action with a baseline file it could not compare with, or in mode: report', () => {
  const fixture = useSourceAction();
  let ws: Workspace;
  before(async () => {
    ({ ws } = await renamedRows(true));
  });

  it('a baseline file that is not there: the reports say so too', async () => {
    const run = await fixture.run(ws, { baseline: 'gone.json', report: 'false' });
    assert.equal(run.code, 0, run.stdout);
    for (const [where, text] of Object.entries(reports(fixture.server, run))) {
      assert.match(notComparedNote(text), /gone\.json does not exist/, `${where}:\n${text}`);
    }
  });

  it('mode: report with a baseline sharing no case: the reports say it was not compared', async () => {
    const run = await fixture.run(ws, {
      mode: 'report',
      results: 'evals-results.json',
      baseline: 'base.json',
    });
    assert.equal(run.code, 0, run.stdout);
    for (const [where, text] of Object.entries(reports(fixture.server, run))) {
      assert.match(notComparedNote(text), /shares no case id/, `${where}:\n${text}`);
    }
  });

  it('a baseline that was compared: no such note', async () => {
    const run = await fixture.run(ws, {
      mode: 'report',
      results: 'evals-results.json',
      baseline: 'evals-results.json',
    });
    assert.equal(run.code, 0, run.stdout);
    for (const text of Object.values(reports(fixture.server, run)))
      assert.equal(notComparedNote(text), '');
  });
});
