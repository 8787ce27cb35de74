/**
 * The Action refusing to start for reasons other than the config: an invalid input of its own
 * (`mode: bogus`, a bad number), a results file `mode: report` refuses (a damaged file), a
 * `working-directory` that is not there, a `head-sha` that is not the triggering run's commit.
 * Nothing runs and the step fails, as before; and a required check named `evals: evals.yaml` must
 * not stay "Expected — waiting" for good, so a completed failed check run of that name says why,
 * scrubbed of secrets. The Action from src/ against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { workflowRunEvent } from './helpers/action-checkout.ts';
import { onlyCheckRun, useSourceAction } from './helpers/action-fixture.ts';
import { HEAD_SHA, ONE_FAILING, QUEUE_SHA, suiteFiles, workspace } from './helpers/action-run.ts';

const fixture = useSourceAction();

beforeEach(() => {
  fixture.server.state.checkRuns.clear();
  fixture.server.state.comments.clear();
  fixture.server.requests.length = 0;
});

describe('an invalid input of the Action', () => {
  it('fails the step, and a failed check run of the usual name says which input and why', async () => {
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { mode: 'bogus' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'error');
    assert.match(r.stdout, /^::error::input mode: expected run or report, found "bogus"$/m);
    assert.match(r.stdout, /^::error::evalgate: 1 invalid input$/m);
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.name, 'evals: evals.yaml');
    assert.equal(run.head_sha, HEAD_SHA);
    assert.equal(run.status, 'completed');
    assert.equal(run.conclusion, 'failure');
    assert.equal(run.output.title, "could not start: the Action's inputs are invalid (1 problem)");
    assert.match(run.output.summary ?? '', /input mode: expected run or report, found "bogus"/);
    assert.equal(run.annotations.length, 0, 'an input has no line in the repository');
    assert.match(r.summary, /could not start/);
    assert.equal(fixture.server.state.comments.size, 0, 'no comment is created for it');
  });

  it("in a merge queue: the failed check run goes on the group's head, which the queue waits for", async () => {
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING), 'merge_group'), {
      'max-annotations': 'lots',
    });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, QUEUE_SHA);
    assert.equal(run.conclusion, 'failure');
    assert.match(run.output.summary ?? '', /input max-annotations: .*"lots"/);
  });

  it('lists every bad input, with a secret quoted in one of them redacted', async () => {
    const secret = 'sk-input-secret-0123456789';
    const r = await fixture.run(
      workspace(suiteFiles(ONE_FAILING)),
      { 'max-annotations': secret, 'fail-on': 'sometimes' },
      { OPENAI_API_KEY: secret },
    );
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.output.title, "could not start: the Action's inputs are invalid (2 problems)");
    assert.match(run.output.summary ?? '', /input fail-on: expected gate or never/);
    assert.match(run.output.summary ?? '', /input max-annotations: .*\[redacted\]/);
    assert.ok(!JSON.stringify(run).includes(secret), 'not in the check run');
    assert.ok(!r.summary.includes(secret), 'not in the job summary');
  });

  it('a bad check-run input posts none: whether one was wanted is not known', async () => {
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'check-run': 'maybe' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'error');
    assert.match(r.stdout, /^::error::input check-run: expected true or false, found "maybe"$/m);
    assert.equal(fixture.server.state.checkRuns.size, 0);
    assert.match(r.summary, /could not start/);
  });

  it('a working-directory that is not there: the step error, and the check run says it', async () => {
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), {
      'working-directory': 'no/such/dir',
    });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(
      r.stdout,
      /^::error::input working-directory: there is no folder .*no\/such\/dir$/m,
    );
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.name, 'evals: no/such/dir/evals.yaml');
    assert.equal(run.conclusion, 'failure');
    assert.match(run.output.summary ?? '', /there is no folder/);
  });
});

describe('mode: report refusing its results file', () => {
  it('a damaged results file: the step error, and a failed check run with the reason', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    writeFileSync(join(ws.dir, 'evals-results.json'), '{"schemaVersion": 1, "runs": [');
    const r = await fixture.run(ws, { mode: 'report' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'error');
    assert.match(r.stdout, /^::error::evalgate \(mode: report\): evals-results\.json /m);
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.name, 'evals: evals.yaml');
    assert.equal(run.head_sha, HEAD_SHA);
    assert.equal(run.conclusion, 'failure');
    assert.equal(
      run.output.title,
      'could not start: the results file was refused (mode: report) (1 problem)',
    );
    assert.match(run.output.summary ?? '', /evals-results\.json/);
    assert.equal(fixture.server.state.comments.size, 0);
  });
});

describe('a workflow_run whose head-sha input is not the triggering run', () => {
  const triggering = 'd'.repeat(40);
  const forged = 'f'.repeat(40);

  it("refused, and the failed check run goes on the triggering run's commit, not the input's", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    writeFileSync(ws.event, workflowRunEvent(triggering));
    const r = await fixture.run(
      ws,
      { mode: 'report', 'head-sha': forged, 'pr-number': '7' },
      { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_REF: 'refs/heads/main' },
    );
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(
      r.stdout,
      /^::error::input head-sha: f{40} is not the commit of the workflow run/m,
    );
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, triggering);
    assert.equal(run.conclusion, 'failure');
  });
});

describe('a workflow_run refused for another input: the check run still never goes on a head-sha it cannot trust', () => {
  const triggering = 'd'.repeat(40);
  const event = workflowRunEvent(triggering);
  const env = { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_REF: 'refs/heads/main' };

  it("a forged head-sha beside a bad pr-number: the check run goes on the triggering run's commit", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    writeFileSync(ws.event, event);
    const r = await fixture.run(
      ws,
      { mode: 'report', 'head-sha': 'f'.repeat(40), 'pr-number': 'seven' },
      env,
    );
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^::error::input pr-number: expected a pull request number/m);
    assert.match(
      r.stdout,
      /^::error::input head-sha: f{40} is not the commit of the workflow run/m,
    );
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, triggering);
    assert.equal(run.conclusion, 'failure');
  });

  it("a head-sha that is no sha: the check run goes on the triggering run's commit, not on it", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    writeFileSync(ws.event, event);
    const r = await fixture.run(ws, { mode: 'report', 'head-sha': 'main' }, env);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^::error::input head-sha: expected a full 40-character commit sha/m);
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, triggering);
  });
});
