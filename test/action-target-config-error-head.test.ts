/**
 * An invalid config on `pull_request_target` with the base branch checked out (what
 * `actions/checkout` does on that event by default): no code ran, so there is no verdict of the
 * base's code to keep off the pull request, and a failed check run on the base commit would leave
 * the head's required check waiting for good. The failure goes on the pull request's head, with
 * each problem as `file:line:col` in its summary and a note that the files are the base's; it
 * carries no annotations, which GitHub would place on the head's lines of files the pull request
 * may change; the step's errors keep their places. An earlier report's PR comment, updated to say
 * the run could not start, carries the same note. With the head itself checked out, the check
 * run is annotated as on any event. The job summary carries the note too, with a token or
 * without. The built dist/index.js against the fake GitHub on 127.0.0.1, in a real git checkout.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { beforeEach, describe, it } from 'node:test';
import { badConfigCheckout, onMain } from './helpers/action-checkout.ts';
import { onlyCheckRun, useActionFixture } from './helpers/action-fixture.ts';
import { HEAD_SHA, pullRequestEvent } from './helpers/action-run.ts';

const fixture = useActionFixture();
const MARKER = '<!-- evalgate-report config="evals.yaml" job="evals" -->';

/** The summary's note that the problems are lines of the base branch's files, as escaped there. */
function baseNote(sha: string): string {
  return `> pull\\_request\\_target: this job read the files of the base branch main at ${sha}, not of this pull request's head ${HEAD_SHA}.`;
}

beforeEach(() => {
  fixture.server.state.checkRuns.clear();
  fixture.server.state.comments.clear();
});

describe('pull_request_target, an invalid config', () => {
  it("in the base branch's checkout: the failed check run goes on the head, unannotated, with file:line:col in its summary", async () => {
    const { ws, sha } = badConfigCheckout();
    writeFileSync(ws.event, JSON.stringify(pullRequestEvent({ headRepo: 'fork/repo', base: sha })));
    const r = await fixture.run(ws, {}, onMain('pull_request_target', sha));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'error');
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, HEAD_SHA, 'where the required check waits, not the base');
    assert.equal(run.conclusion, 'failure');
    assert.match(run.output.title ?? '', /^could not start: /);
    assert.match(run.output.summary ?? '', /evals\.yaml:6:5 {2}suites\[0\]: unknown key "colour"/);
    assert.match(
      run.output.summary ?? '',
      new RegExp(
        `read the files of the base branch main at ${sha}, not of this pull request's head ${HEAD_SHA}`,
      ),
    );
    assert.match(
      run.output.summary ?? '',
      /fix them on main: a push to the pull request does not change/,
    );
    assert.deepEqual(run.annotations, [], "no annotation on the head's lines");
    // Not annotated on the check run, so the step's error keeps its place (the job's own commit).
    assert.match(
      r.stdout,
      /^::error [^\n]*file=evals\.yaml,line=6,col=5[^\n]*::suites\[0\]: unknown key "colour"/m,
    );
    assert.match(
      r.stdout,
      new RegExp(
        `^::warning::evalgate: pull_request_target: the run could not start on the base branch main at ${sha}, not on the pull request's head ${HEAD_SHA}`,
        'm',
      ),
    );
    assert.doesNotMatch(r.stdout, /so the check run goes on/);
    assert.ok(r.summary.includes(baseNote(sha)), r.summary);
    assert.match(r.summary, /fix them on main: a push to the pull request does not change/);
  });

  it('without a token the job summary still says whose files the problems are', async () => {
    const { ws, sha } = badConfigCheckout();
    writeFileSync(ws.event, JSON.stringify(pullRequestEvent({ headRepo: 'fork/repo', base: sha })));
    const r = await fixture.run(ws, { 'github-token': '' }, onMain('pull_request_target', sha));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(fixture.server.state.checkRuns.size, 0);
    assert.match(r.summary, /evals\.yaml:6:5 {2}suites\[0\]: unknown key "colour"/);
    assert.ok(r.summary.includes(baseNote(sha)), r.summary);
    // The note sits above the problems it is about.
    assert.ok(r.summary.indexOf(baseNote(sha)) < r.summary.indexOf('evals.yaml:6:5'), r.summary);
  });

  it("the earlier report's comment on the pull request says the same, with check-run: false too", async () => {
    const { ws, sha } = badConfigCheckout();
    writeFileSync(ws.event, JSON.stringify(pullRequestEvent({ headRepo: 'fork/repo', base: sha })));
    fixture.server.addComment(7, {
      body: `${MARKER}\n### evals: evals.yaml\n**Passed** 3 of 3`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    const r = await fixture.run(ws, { 'check-run': 'false' }, onMain('pull_request_target', sha));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(fixture.server.state.checkRuns.size, 0);
    const body = fixture.server.state.comments.get(7)?.[0]?.body ?? '';
    assert.match(body, /could not start/);
    assert.match(body, /fix them on main: a push to the pull request does not change/);
    assert.doesNotMatch(
      r.stdout,
      /^::warning::evalgate: pull_request_target/m,
      'no check run to warn of',
    );
  });

  it('with the head checked out: on the head, annotated at the line', async () => {
    const { ws, sha } = badConfigCheckout();
    writeFileSync(
      ws.event,
      JSON.stringify(pullRequestEvent({ headRepo: 'fork/repo', head: sha, base: 'c'.repeat(40) })),
    );
    const r = await fixture.run(ws, {}, onMain('pull_request_target', 'c'.repeat(40)));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, sha);
    assert.deepEqual(
      run.annotations.map((a) => [a['path'], a['start_line']]),
      [['evals.yaml', 6]],
    );
    assert.doesNotMatch(run.output.summary ?? '', /read the files of/);
    assert.doesNotMatch(r.summary, /read the files of/);
    assert.doesNotMatch(r.stdout, /^::warning::evalgate: pull_request_target/m);
  });
});
