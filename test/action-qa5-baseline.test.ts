/**
 * QA round 5, the Action's own decisions, end to end on the built Action (`helpers/action-run.ts`):
 * an unreadable baseline is a warning, not a false `verdict: error` (#1); invalid inputs still set
 * `verdict` (#4); `baseline: auto` in `mode: report` says it is not used (#5); `-o` in `args` is
 * refused (#8); a `workflow_run` report refuses a `head-sha` other than the event's (#9).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { addResultsArtifact, cliResults, useActionFixture } from './helpers/action-fixture.ts';
import { ALL_PASS, HEAD_SHA, REPOSITORY, suiteFiles, workspace } from './helpers/action-run.ts';

describe('the Action with a baseline that is not a readable results artifact (QA5 #1)', () => {
  const fixture = useActionFixture();
  let genuine: string;
  before(async () => {
    genuine = await cliResults(workspace(suiteFiles(ALL_PASS)), 'base.json', 0);
  });

  const cases: { name: string; data: () => string; why: RegExp }[] = [
    { name: 'truncated', data: () => genuine.slice(0, 300), why: /not JSON|JSON/ },
    { name: 'not a results artifact', data: () => '{}', why: /schemaVersion|results/ },
    {
      name: 'a newer schemaVersion',
      data: () => genuine.replace('"schemaVersion": 1', '"schemaVersion": 2'),
      why: /newer evalgate/,
    },
  ];
  for (const [index, { name, data, why }] of cases.entries()) {
    it(`baseline: auto, ${name}: a warning, the run goes on and is reported (fail-on: never)`, async () => {
      assert.notEqual(data(), genuine, 'the fixture differs from the genuine file');
      const branch = `base-${index}`;
      addResultsArtifact(fixture.server, branch, data());
      const ws = workspace(suiteFiles(ALL_PASS));
      // The base branch of this event's pull request is the artifact's branch.
      const event = JSON.parse(readFileSync(ws.event, 'utf8')) as {
        pull_request: { base: { ref: string } };
      };
      event.pull_request.base.ref = branch;
      writeFileSync(ws.event, JSON.stringify(event));
      fixture.server.state.comments.delete(7);
      const r = await fixture.run(ws, { baseline: 'auto', 'fail-on': 'never' });
      assert.equal(r.code, 0, `every case passes\n${r.stdout}${r.stderr}`);
      assert.equal(r.outputs['verdict'], 'pass', r.stdout);
      assert.match(r.stdout, /::warning::.*baseline is not a readable results artifact/);
      assert.match(r.stdout, why);
      assert.match(r.stdout, /running without a comparison/);
      assert.doesNotMatch(r.stdout, /evalgate-baseline-[^\n]*::/, 'no annotation on a temp file');
      assert.equal((fixture.server.state.comments.get(7) ?? []).length, 1, 'the comment went out');
      assert.notEqual(r.summary, '', 'the job summary was written');
    });
  }

  it('baseline: <path> that is not JSON: a warning, the run goes on', async () => {
    const ws = workspace(suiteFiles(ALL_PASS, { 'base.json': '<html>not json</html>' }));
    fixture.server.state.comments.delete(7);
    const r = await fixture.run(ws, { baseline: 'base.json' });
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.outputs['verdict'], 'pass');
    assert.match(r.stdout, /::warning::.*baseline is not a readable results artifact/);
  });
});

describe('the Action refuses bad inputs with verdict: error (QA5 #4, #8, #9) and says what it skips (#5)', () => {
  const fixture = useActionFixture();

  const invalid: Record<string, string>[] = [
    { 'fail-on': 'warn' },
    { 'max-annotations': '-5' },
    { mode: 'Report' },
    { comment: 'maybe' },
    { args: '--suite "open' },
    { 'head-sha': 'abc' },
    { 'pr-number': 'seven' },
  ];
  for (const inputs of invalid) {
    it(`invalid input ${JSON.stringify(inputs)}: the step fails and verdict is error`, async () => {
      const ws = workspace(suiteFiles(ALL_PASS));
      const r = await fixture.run(ws, inputs);
      assert.equal(r.code, 1, r.stdout);
      assert.equal(r.outputs['verdict'], 'error', r.stdout);
    });
  }

  it('-o in args is refused, pointing to the results input', async () => {
    const ws = workspace(suiteFiles(ALL_PASS));
    const r = await fixture.run(ws, { args: '-o other.json' });
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.outputs['verdict'], 'error');
    assert.match(
      r.stdout,
      /::error::input args: "-o" is refused here: the results file is the results input/,
    );
  });

  it('baseline: auto in mode: report says it is not used', async () => {
    const ws = workspace(suiteFiles(ALL_PASS));
    await cliResults(ws, 'evals-results.json', 0);
    const r = await fixture.run(ws, { mode: 'report', baseline: 'auto' });
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /baseline: auto is not used in mode: report/);
  });

  it("workflow_run: a head-sha other than the triggering run's is refused; only a failed check run on the triggering commit says so", async () => {
    const ws = workspace(suiteFiles(ALL_PASS));
    await cliResults(ws, 'evals-results.json', 0);
    writeFileSync(
      ws.event,
      JSON.stringify({
        action: 'completed',
        workflow_run: { head_sha: HEAD_SHA, pull_requests: [] },
        repository: REPOSITORY,
      }),
    );
    fixture.server.state.comments.delete(8);
    // A passed check run of the name left by an earlier test would be kept, not posted over
    // (action-refused-passed-check-run.test.ts): the commit starts without one.
    fixture.server.state.checkRuns.clear();
    const checkRuns = fixture.server.state.checkRuns.size;
    const forged = 'd'.repeat(40);
    const inputs = { mode: 'report', 'pr-number': '8', 'head-sha': forged };
    const r = await fixture.run(ws, inputs, { GITHUB_EVENT_NAME: 'workflow_run' });
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.outputs['verdict'], 'error');
    assert.match(r.stdout, /is not the commit of the workflow run that triggered this one/);
    assert.equal(fixture.server.state.comments.get(8), undefined, 'no comment on PR 8');
    // Never on the forged commit: on the triggering run's, failed, so a required check is told.
    const refused = [...fixture.server.state.checkRuns.values()].slice(checkRuns);
    assert.deepEqual(
      refused.map((run) => [run.head_sha, run.conclusion]),
      [[HEAD_SHA, 'failure']],
    );

    const ok = await fixture.run(
      ws,
      { ...inputs, 'head-sha': HEAD_SHA },
      {
        GITHUB_EVENT_NAME: 'workflow_run',
      },
    );
    assert.equal(ok.code, 0, ok.stdout);
    assert.equal(
      (fixture.server.state.comments.get(8) ?? []).length,
      1,
      'the matching sha is reported',
    );
  });
});
