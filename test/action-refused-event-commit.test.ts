/**
 * A run refused for its wiring (an invalid input, a forged head-sha) evaluated no code, so the
 * checkout says nothing about where its failed check run belongs: on `pull_request_target` and
 * `workflow_run` in `mode: run` it goes on the commit the event names (the pull request's head,
 * the triggering run's `head_sha`), where the required check waits, never on the checked-out
 * base or default branch, which `actions/checkout` gives such a job unless told otherwise. The
 * Action from src/ against the fake GitHub on 127.0.0.1, in a real git checkout.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { beforeEach, describe, it } from 'node:test';
import { TRIGGERING, mainCheckout, onMain, workflowRunEvent } from './helpers/action-checkout.ts';
import { onlyCheckRun, useSourceAction } from './helpers/action-fixture.ts';
import { HEAD_SHA, pullRequestEvent } from './helpers/action-run.ts';

const fixture = useSourceAction();

beforeEach(() => {
  fixture.server.state.checkRuns.clear();
  fixture.server.state.comments.clear();
});

describe('pull_request_target with the base branch checked out, refused for its inputs', () => {
  it("the failed check run goes on the pull request's head, with no warning about the checkout", async () => {
    const { ws, sha } = mainCheckout();
    writeFileSync(ws.event, JSON.stringify(pullRequestEvent({ headRepo: 'fork/repo', base: sha })));
    const r = await fixture.run(ws, { mode: 'bogus' }, onMain('pull_request_target', sha));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'error');
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, HEAD_SHA, 'the head the required check waits on, not the base');
    assert.equal(run.conclusion, 'failure');
    assert.doesNotMatch(r.stdout, /the evals ran the checked-out commit/);
  });
});

describe('workflow_run in mode: run with the default branch checked out, refused', () => {
  const event = workflowRunEvent(TRIGGERING);

  it("a bad input: the failed check run goes on the triggering run's commit", async () => {
    const { ws, sha } = mainCheckout();
    writeFileSync(ws.event, event);
    const r = await fixture.run(ws, { 'max-annotations': 'lots' }, onMain('workflow_run', sha));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, TRIGGERING);
    assert.doesNotMatch(r.stdout, /the evals ran the checked-out commit/);
  });

  it("a forged head-sha: refused, and the check run goes on the triggering run's commit, neither the input's nor the checkout's", async () => {
    const { ws, sha } = mainCheckout();
    writeFileSync(ws.event, event);
    const r = await fixture.run(ws, { 'head-sha': 'f'.repeat(40) }, onMain('workflow_run', sha));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(
      r.stdout,
      /^::error::input head-sha: f{40} is not the commit of the workflow run/m,
    );
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, TRIGGERING);
  });
});
