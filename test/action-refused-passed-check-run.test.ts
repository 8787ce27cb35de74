/**
 * A refusal never shadows a report that ran. GitHub takes the latest check run of a name on a
 * commit for a required check, so a wrongly wired `mode: report` job (its results file missing
 * or damaged) posting `evals: evals.yaml` as failed after the rightly wired job posted it as
 * passed would turn the pull request red for a wiring mistake. With a passed check run of the
 * name on the commit, the refusal posts none (a warning says why, the step still fails); when the
 * passed one lands while the refusal is being posted (the two jobs racing: the first read saw
 * none), the refusal's check run is turned neutral. A failed earlier check run is no reason to
 * hold back. The Action from src/ against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { HEAD_SHA, ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';
import { newCheckRun } from './helpers/github-server-replies.ts';
import type { StoredCheckRun } from './helpers/github-server-types.ts';

const fixture = useSourceAction();
const NAME = 'evals: evals.yaml';
const LIST = /^\/repos\/octo\/repo\/commits\/[^/]+\/check-runs$/;

beforeEach(() => {
  fixture.server.state.checkRuns.clear();
  fixture.server.state.comments.clear();
  fixture.server.requests.length = 0;
});

/** The rightly wired job's check run, already on the pull request's head. */
function seed(conclusion: 'success' | 'failure', id = 9001): StoredCheckRun {
  const run = newCheckRun(id, 'octo', 'repo', {
    name: NAME,
    head_sha: HEAD_SHA,
    external_id: 'evalgate-right-job',
    status: 'completed',
    conclusion,
    output: { title: `${conclusion}: 0 of 1 runs failed`, summary: 'the report' },
  });
  fixture.server.state.checkRuns.set(run.id, run);
  return run;
}

/** A `mode: report` job whose results file is damaged: refused before anything is reported. */
async function refusedReport(): Promise<Awaited<ReturnType<typeof fixture.run>>> {
  const ws = workspace(suiteFiles(ONE_FAILING));
  writeFileSync(join(ws.dir, 'evals-results.json'), '{"schemaVersion": 1, "runs": [');
  const r = await fixture.run(ws, { mode: 'report' });
  assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
  assert.equal(r.outputs['verdict'], 'error');
  return r;
}

describe('a refused mode: report job beside a job whose check run of the same name passed', () => {
  it('posts no failed check run over it; the step fails and says why', async () => {
    const right = seed('success');
    const r = await refusedReport();
    const runs = [...fixture.server.state.checkRuns.values()];
    assert.deepEqual(
      runs.map((run) => run.id),
      [right.id],
      'no check run of this name was created',
    );
    assert.equal(right.conclusion, 'success');
    assert.match(
      r.stdout,
      /^::warning::evalgate: posted no failed check run: the check run "evals: evals\.yaml" \S+ on a{40} passed: a report of a job that ran/m,
    );
    assert.match(r.stdout, /^::error::evalgate \(mode: report\): evals-results\.json /m);
    assert.match(r.summary, /could not start/);
  });

  it('the passed one landing while the refusal is posted: the refusal turns neutral', async () => {
    const right = seed('success');
    // The refusal's first read sees the commit as it was before the right job posted.
    fixture.server.failNext('GET', LIST, 200, 1, { total_count: 0, check_runs: [] });
    const r = await refusedReport();
    const mine = [...fixture.server.state.checkRuns.values()].filter((run) => run.id !== right.id);
    assert.equal(mine.length, 1, r.stdout);
    assert.equal(mine[0]?.conclusion, 'neutral', 'never a failure that hides the passed report');
    assert.match(mine[0]?.output.title ?? '', /^superseded: could not start: /);
    assert.equal(right.conclusion, 'success');
    assert.match(r.stdout, /^::warning::evalgate: turned the check run \S+ neutral: /m);
  });

  it('beside a pass that a later failure of the name replaced: the refusal is posted as failed', async () => {
    // What a required check reads is the latest check run of the name, here the failure.
    seed('success', 9001);
    seed('failure', 9002);
    const r = await refusedReport();
    const runs = [...fixture.server.state.checkRuns.values()];
    assert.equal(runs.length, 3, r.stdout);
    assert.equal(runs.at(-1)?.conclusion, 'failure');
    assert.doesNotMatch(r.stdout, /posted no failed check run/);
  });

  it('beside a failed check run of the name: the refusal is posted as failed, as before', async () => {
    seed('failure');
    const r = await refusedReport();
    const runs = [...fixture.server.state.checkRuns.values()];
    assert.equal(runs.length, 2, r.stdout);
    assert.equal(runs.at(-1)?.conclusion, 'failure');
    assert.doesNotMatch(r.stdout, /posted no failed check run/);
  });
});
