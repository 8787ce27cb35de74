/**
 * A baseline the Action could not compare with: one that shares no case with the run (the team
 * changed `hash:` fields, or the baseline comes from an unrelated branch), one that is not there,
 * or none yet on the base branch. The run still passes (a new suite or new case ids must not block
 * every pull request), but the PR comment, the job summary and the check run say plainly that it
 * was not compared and why: a reviewer must not read a green report as "no regressions".
 *
 * The Action runs from src/ (through tsx) in a child process, against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { addResultsArtifact, resultsZip, useSourceAction } from './helpers/action-fixture.ts';
import { type Workspace } from './helpers/action-run.ts';
import { notComparedNote, renamedRows, reports } from './helpers/uncompared-baseline.ts';

describe('the Action with a baseline it could not compare with', () => {
  const fixture = useSourceAction();
  let ws: Workspace;
  let base = '';
  before(async () => {
    ({ ws, base } = await renamedRows());
    addResultsArtifact(fixture.server, 'main', base);
  });

  it('sharing no case: passes, and every report says it was not compared and why', async () => {
    const run = await fixture.run(ws, { baseline: 'base.json', report: 'false' });
    assert.equal(run.code, 0, `a pass, not a block on an empty comparison\n${run.stdout}`);
    assert.equal(run.outputs['verdict'], 'pass');
    assert.match(run.stdout, /^::warning::evalgate: .*no common cases between/m);
    for (const [where, text] of Object.entries(reports(fixture.server, run))) {
      const note = notComparedNote(text);
      assert.match(note, /regressions were not checked/, `${where}:\n${text}`);
      assert.match(note, /no common cases between .*base\.json and this run/, where);
      assert.match(note, /shares no case id/, where);
    }
  });

  it('baseline: auto sharing no case: the note names the artifact, not a temporary file', async () => {
    const run = await fixture.run(ws, { baseline: 'auto', report: 'false' });
    assert.equal(run.code, 0, run.stdout);
    for (const [where, text] of Object.entries(reports(fixture.server, run))) {
      const note = notComparedNote(text);
      assert.match(
        note,
        /no common cases between evals-results from main \(/,
        `${where}:\n${text}`,
      );
      assert.doesNotMatch(note, /evalgate-baseline-/, where);
    }
  });

  it('baseline: auto finding only a workflow_run upload on the base branch: the note says why it is passed over', async () => {
    fixture.server.addArtifact({
      name: 'evals-results',
      branch: 'develop',
      zip: resultsZip(base),
      event: 'workflow_run',
    });
    const event = JSON.parse(readFileSync(ws.event, 'utf8')) as {
      pull_request: { base: { ref: string } };
    };
    event.pull_request.base.ref = 'develop';
    writeFileSync(ws.event, JSON.stringify(event));
    const run = await fixture.run(ws, { baseline: 'auto', report: 'false' });
    assert.equal(run.code, 0, run.stdout);
    for (const [where, text] of Object.entries(reports(fixture.server, run))) {
      const note = notComparedNote(text);
      assert.match(
        note,
        /no results artifact named evals-results from develop yet/,
        `${where}:\n${text}`,
      );
      assert.match(note, /Passed over 1 uploaded by workflow\\_run runs/, where);
      assert.doesNotMatch(note, /running without a comparison/, where);
    }
  });
});
