/**
 * A re-run of a job that passed, refused this time, replaces its own green check run. GitHub
 * re-runs a job in the same workflow run on the same commit (`GITHUB_RUN_ID` kept,
 * `GITHUB_RUN_ATTEMPT` one more), and a required check reads the commit's latest check run of a
 * name: a refusal that stood down for its own earlier pass would leave the check green while the
 * job now fails (a variable or secret removed, a baseline expired). So every check run records the
 * run, attempt and job that posted it in its `external_id`, and a refusal posts its failure over a
 * pass of its own job from an earlier attempt; a pass of another job of the run, or of a leg of
 * the same job in the same attempt, is still never shadowed. The built dist/index.js against the
 * fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ALL_PASS, HEAD_SHA, suiteFiles, workspace } from './helpers/action-run.ts';
import { newCheckRun } from './helpers/github-server-replies.ts';
import type { StoredCheckRun } from './helpers/github-server-types.ts';

const fixture = useActionFixture();
const NAME = 'evals: evals.yaml';

beforeEach(() => {
  fixture.server.state.checkRuns.clear();
  fixture.server.state.comments.clear();
});

/** ALL_PASS's suite, its testset path read from `QA_SET`: unset, the config is refused. */
function suite(): ReturnType<typeof workspace> {
  const files = suiteFiles(ALL_PASS);
  const config = (files['evals.yaml'] ?? '').replace('path: testsets/qa.csv', 'path: "${QA_SET}"');
  assert.notEqual(config, files['evals.yaml']);
  return workspace({ ...files, 'evals.yaml': config });
}

function checkRuns(): StoredCheckRun[] {
  return [...fixture.server.state.checkRuns.values()];
}

/** A passed check run of the name on the head, posted as `externalId` says. */
function seedPass(externalId: string): StoredCheckRun {
  const run = newCheckRun(9001, 'octo', 'repo', {
    name: NAME,
    head_sha: HEAD_SHA,
    external_id: externalId,
    status: 'completed',
    conclusion: 'success',
    output: { title: 'pass: 0 of 1 runs failed', summary: 'the report' },
  });
  fixture.server.state.checkRuns.set(run.id, run);
  return run;
}

describe('a re-run of the same job that is refused this time', () => {
  it('attempt 1 passes; attempt 2, its variable removed, replaces the green check run with a failure', async () => {
    const ws = suite();
    const first = await fixture.run(ws, {}, { QA_SET: 'testsets/qa.csv', GITHUB_RUN_ATTEMPT: '1' });
    assert.equal(first.code, 0, `${first.stdout}\n${first.stderr}`);
    const [passed] = checkRuns();
    assert.equal(passed?.conclusion, 'success', first.stdout);
    assert.match(passed?.external_id ?? '', /^evalgate-\S+ run=42 attempt=1 job=evals$/);

    const again = await fixture.run(ws, {}, { GITHUB_RUN_ATTEMPT: '2' });
    assert.equal(again.code, 1, `${again.stdout}\n${again.stderr}`);
    assert.equal(again.outputs['verdict'], 'error');
    const runs = checkRuns();
    assert.equal(runs.length, 2, again.stdout);
    const latest = runs.at(-1);
    assert.equal(
      latest?.conclusion,
      'failure',
      'the latest check run of the name, as a required check reads it',
    );
    assert.equal(latest?.head_sha, HEAD_SHA);
    assert.match(latest?.external_id ?? '', / run=42 attempt=2 job=evals$/);
    assert.match(latest?.output.summary ?? '', /passed in attempt 1 of this workflow run/);
    assert.match(latest?.output.summary ?? '', /QA_SET is not set/);
    assert.match(
      again.stdout,
      /^::warning::evalgate: the check run "evals: evals\.yaml" \S+ on a{40} passed in attempt 1 of this workflow run \(42, job evals\); this re-run \(attempt 2\) could not start/m,
    );
    assert.doesNotMatch(again.stdout, /posted no failed check run/);
  });

  it("this job's pass from attempt 1, read back from its external_id: attempt 3's refusal replaces it", async () => {
    const own = seedPass('evalgate-0 run=42 attempt=1 job=evals');
    const r = await fixture.run(suite(), {}, { GITHUB_RUN_ATTEMPT: '3' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const runs = checkRuns();
    assert.equal(runs.length, 2, r.stdout);
    assert.equal(own.conclusion, 'success', 'the old one is left as it was');
    assert.equal(runs.at(-1)?.conclusion, 'failure');
    assert.doesNotMatch(r.stdout, /posted no failed check run|turned the check run/);
  });

  it("another job's pass in an earlier attempt of the run is not shadowed", async () => {
    const right = seedPass('evalgate-0 run=42 attempt=1 job=report');
    const r = await fixture.run(suite(), {}, { GITHUB_RUN_ATTEMPT: '2' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.deepEqual(
      checkRuns().map((run) => run.id),
      [right.id],
    );
    assert.match(r.stdout, /^::warning::evalgate: posted no failed check run: /m);
  });

  it("this job's pass in the same attempt (a leg of its matrix) is not shadowed", async () => {
    const leg = seedPass('evalgate-0 run=42 attempt=2 job=evals');
    const r = await fixture.run(suite(), {}, { GITHUB_RUN_ATTEMPT: '2' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.deepEqual(
      checkRuns().map((run) => run.id),
      [leg.id],
    );
  });

  it("a pass of another workflow run's job of the same name is not shadowed", async () => {
    const other = seedPass('evalgate-0 run=41 attempt=1 job=evals');
    const r = await fixture.run(suite(), {}, { GITHUB_RUN_ATTEMPT: '2' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.deepEqual(
      checkRuns().map((run) => run.id),
      [other.id],
    );
  });

  it('a pass whose external_id names no run (an older evalgate) is not shadowed', async () => {
    const old = seedPass('evalgate-7b0c');
    const r = await fixture.run(suite(), {}, { GITHUB_RUN_ATTEMPT: '3' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.deepEqual(
      checkRuns().map((run) => run.id),
      [old.id],
    );
  });
});
