/**
 * An invalid config on `workflow_run` in `mode: run` with the default branch checked out (what
 * `actions/checkout` does on that event by default) posted its failed check run on the checkout,
 * so the required check of the triggering run's commit waited for good. No code ran, so the
 * failure now goes on `workflow_run.head_sha`, unannotated (the problems are lines of the default
 * branch's files), each problem as `file:line:col` in its summary with a note saying whose files
 * they are. With the triggering commit checked out it is annotated as on any event. The built
 * dist/index.js against the fake GitHub on 127.0.0.1, in a real git checkout.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { beforeEach, describe, it } from 'node:test';
import {
  TRIGGERING,
  badConfigCheckout,
  onMain,
  workflowRunEvent,
} from './helpers/action-checkout.ts';
import { onlyCheckRun, useActionFixture } from './helpers/action-fixture.ts';

const fixture = useActionFixture();

beforeEach(() => {
  fixture.server.state.checkRuns.clear();
});

describe('workflow_run, an invalid config', () => {
  it("in the default branch's checkout: the failed check run goes on workflow_run.head_sha, unannotated", async () => {
    const { ws, sha } = badConfigCheckout();
    writeFileSync(ws.event, workflowRunEvent(TRIGGERING));
    const r = await fixture.run(ws, {}, onMain('workflow_run', sha));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'error');
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, TRIGGERING, 'where the required check waits, not the checkout');
    assert.equal(run.conclusion, 'failure');
    assert.match(run.output.summary ?? '', /evals\.yaml:6:5 {2}suites\[0\]: unknown key "colour"/);
    assert.ok(
      (run.output.summary ?? '').includes(
        `workflow\\_run: this job read the files of the default branch at ${sha}, not of ${TRIGGERING}, the commit of the workflow run that triggered it`,
      ),
      run.output.summary ?? '',
    );
    assert.deepEqual(run.annotations, [], "no annotation on the triggering commit's lines");
    assert.match(
      r.stdout,
      /^::error [^\n]*file=evals\.yaml,line=6,col=5[^\n]*::suites\[0\]: unknown key "colour"/m,
    );
    assert.ok(
      r.stdout.includes(
        `::warning::evalgate: workflow_run: the run could not start on the default branch at ${sha}, not on ${TRIGGERING}`,
      ),
      r.stdout,
    );
    assert.match(run.output.summary ?? '', /a push to the pull request does not change/);
    assert.ok(r.summary.includes('workflow\\_run: this job read the files of'), r.summary);
  });

  it('triggered by a push (no pull request): the same, and no word of a pull request', async () => {
    const { ws, sha } = badConfigCheckout();
    writeFileSync(ws.event, workflowRunEvent(TRIGGERING, 'push'));
    const r = await fixture.run(ws, {}, onMain('workflow_run', sha));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, TRIGGERING);
    const said = [run.output.summary ?? '', r.summary, r.stdout];
    for (const text of said) {
      assert.doesNotMatch(text, /pull request/, text);
    }
    assert.match(
      run.output.summary ?? '',
      new RegExp(
        `fix them on the default branch: this job reads its latest files, whatever ${TRIGGERING} holds`,
      ),
    );
    assert.match(r.summary, /fix them on the default branch: this job reads its latest files/);
  });

  it('with the triggering commit checked out: on it, annotated at the line', async () => {
    const { ws, sha } = badConfigCheckout();
    writeFileSync(ws.event, workflowRunEvent(sha));
    const r = await fixture.run(ws, {}, onMain('workflow_run', 'c'.repeat(40)));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, sha);
    assert.deepEqual(
      run.annotations.map((a) => [a['path'], a['start_line']]),
      [['evals.yaml', 6]],
    );
    assert.doesNotMatch(run.output.summary ?? '', /read the files of/);
    assert.doesNotMatch(r.stdout, /^::warning::evalgate: workflow_run: the run could not start/m);
  });
});
