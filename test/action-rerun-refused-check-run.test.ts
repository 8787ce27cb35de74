/**
 * A re-run of a job that passed, refused this time, replaces its own green check run. GitHub
 * re-runs a job in the same workflow run on the same commit (`GITHUB_RUN_ID` kept,
 * `GITHUB_RUN_ATTEMPT` one more), and a required check reads the commit's latest check run of a
 * name: a refusal that stood down for its own earlier pass would leave the check green while the
 * job now fails (a variable or secret removed, a baseline expired). So every check run records the
 * run, attempt, job and leg (a hash of the step's inputs, and `RUNNER_OS`) that posted it in its
 * `external_id`, and a refusal posts its failure over a pass of its own leg of its own job from an
 * earlier attempt (one an older evalgate posted without a leg only when it was the job's one check
 * run of the name in that attempt); a pass of another job of the run, of another leg of the same
 * job (the legs of a matrix share `GITHUB_JOB`), or of a leg in the same attempt, is still never
 * shadowed. The built dist/index.js against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { legOf } from '../src/github/check-run-origin.ts';
import { LEG_INPUTS } from '../src/action/settings.ts';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ALL_PASS, HEAD_SHA, suiteFiles, workspace } from './helpers/action-run.ts';
import { newCheckRun } from './helpers/github-server-replies.ts';
import type { StoredCheckRun } from './helpers/github-server-types.ts';

const fixture = useActionFixture();
const NAME = 'evals: evals.yaml';
/** The leg of a step with the inputs `runAction` gives by default. */
const LEG = legOf(
  LEG_INPUTS.map(
    (key) =>
      ({ 'working-directory': '.', config: 'evals.yaml', results: 'evals-results.json' })[key] ??
      '',
  ),
);

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

/**
 * Runs the step of `ws` with `inputs` and `env` (its attempt; QA_SET unset unless `env` sets it,
 * so the config is refused) and asserts that it failed.
 */
async function refused(
  ws: ReturnType<typeof workspace>,
  env: Record<string, string>,
  inputs: Record<string, string> = {},
): Promise<Awaited<ReturnType<typeof fixture.run>>> {
  const r = await fixture.run(ws, inputs, env);
  assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
  return r;
}

/**
 * Attempt 1 of each leg of `ws` in turn, with its `env` and `inputs` and QA_SET set: each
 * passes, and the check run it posted is returned, in that order.
 */
async function passInAttempt1(
  ws: ReturnType<typeof workspace>,
  legs: { env?: Record<string, string>; inputs?: Record<string, string> }[],
): Promise<StoredCheckRun[]> {
  const passes: StoredCheckRun[] = [];
  for (const leg of legs) {
    const r = await fixture.run(ws, leg.inputs ?? {}, {
      QA_SET: 'testsets/qa.csv',
      GITHUB_RUN_ATTEMPT: '1',
      ...leg.env,
    });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    const posted = checkRuns().at(-1);
    assert.ok(posted !== undefined && posted.conclusion === 'success', r.stdout);
    passes.push(posted);
  }
  return passes;
}

/** Asserts the commit's check runs are `kept`, no more: the refusal posted no failure over them. */
function assertOnly(kept: StoredCheckRun[], message?: string): void {
  assert.deepEqual(
    checkRuns().map((run) => run.id),
    kept.map((run) => run.id),
    message,
  );
}

/** A passed check run of the name on the head (id `id`), posted as `externalId` says. */
function seedPass(externalId: string, id = 9001): StoredCheckRun {
  const run = newCheckRun(id, 'octo', 'repo', {
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
    assert.match(
      passed?.external_id ?? '',
      /^evalgate-\S+ run=42 attempt=1 job=evals leg=[0-9a-f]{16}$/,
    );

    const again = await refused(ws, { GITHUB_RUN_ATTEMPT: '2' });
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
    assert.match(latest?.external_id ?? '', / run=42 attempt=2 job=evals leg=[0-9a-f]{16}$/);
    assert.match(latest?.output.summary ?? '', /passed in attempt 1 of this workflow run/);
    assert.match(latest?.output.summary ?? '', /QA_SET is not set/);
    assert.match(
      again.stdout,
      /^::warning::evalgate: the check run "evals: evals\.yaml" \S+ on a{40} passed in attempt 1 of this workflow run \(42, job evals\); this re-run \(attempt 2\) could not start/m,
    );
    assert.doesNotMatch(again.stdout, /posted no failed check run/);
  });

  it("this job's pass from attempt 1, read back from its external_id: attempt 3's refusal replaces it", async () => {
    const own = seedPass(`evalgate-0 run=42 attempt=1 job=evals leg=${LEG}`);
    const r = await refused(suite(), { GITHUB_RUN_ATTEMPT: '3' });
    const runs = checkRuns();
    assert.equal(runs.length, 2, r.stdout);
    assert.equal(own.conclusion, 'success', 'the old one is left as it was');
    assert.equal(runs.at(-1)?.conclusion, 'failure');
    assert.doesNotMatch(r.stdout, /posted no failed check run|turned the check run/);
  });

  it("another job's pass in an earlier attempt of the run is not shadowed", async () => {
    const right = seedPass(`evalgate-0 run=42 attempt=1 job=report leg=${LEG}`);
    const r = await refused(suite(), { GITHUB_RUN_ATTEMPT: '2' });
    assertOnly([right]);
    assert.match(r.stdout, /^::warning::evalgate: posted no failed check run: /m);
  });

  it("this job's pass in the same attempt (a leg of its matrix) is not shadowed", async () => {
    const leg = seedPass(`evalgate-0 run=42 attempt=2 job=evals leg=${LEG}`);
    const r = await refused(suite(), { GITHUB_RUN_ATTEMPT: '2' });
    assertOnly([leg], r.stdout);
  });

  it("a pass of another workflow run's job of the same name is not shadowed", async () => {
    const other = seedPass(`evalgate-0 run=41 attempt=1 job=evals leg=${LEG}`);
    const r = await refused(suite(), { GITHUB_RUN_ATTEMPT: '2' });
    assertOnly([other], r.stdout);
  });

  it('a pass whose external_id names no run (an older evalgate) is not shadowed', async () => {
    const old = seedPass('evalgate-7b0c');
    const r = await refused(suite(), { GITHUB_RUN_ATTEMPT: '3' });
    assertOnly([old], r.stdout);
  });

  it('a pass this job posted in attempt 1 before legs were recorded (no leg=), the only one of its name then, is replaced', async () => {
    const old = seedPass('evalgate-0 run=42 attempt=1 job=evals');
    const r = await refused(suite(), { GITHUB_RUN_ATTEMPT: '2' });
    const runs = checkRuns();
    assert.deepEqual(
      runs.map((run) => [run.id === old.id, run.conclusion]),
      [
        [true, 'success'],
        [false, 'failure'],
      ],
      r.stdout,
    );
    assert.match(r.stdout, /passed in attempt 1 of this workflow run \(42, job evals\)/);
  });

  it("a pass with no leg= is replaced when attempt 1's other pass of the name is another job's", async () => {
    seedPass('evalgate-1 run=42 attempt=1 job=report', 9001);
    const own = seedPass('evalgate-2 run=42 attempt=1 job=evals', 9002);
    const r = await refused(suite(), { GITHUB_RUN_ATTEMPT: '2' });
    const runs = checkRuns();
    assert.equal(runs.length, 3, r.stdout);
    assert.equal(own.conclusion, 'success', 'the old one is left as it was');
    assert.equal(runs.at(-1)?.conclusion, 'failure');
    assert.match(r.stdout, /passed in attempt 1 of this workflow run \(42, job evals\)/);
  });

  it("passes with no leg= from two legs of attempt 1 are not shadowed: the latest may be the other leg's", async () => {
    seedPass('evalgate-1 run=42 attempt=1 job=evals', 9001);
    const other = seedPass('evalgate-2 run=42 attempt=1 job=evals', 9002);
    const r = await refused(suite(), { GITHUB_RUN_ATTEMPT: '2' });
    assert.equal(checkRuns().length, 2, r.stdout);
    assert.equal(checkRuns().at(-1)?.id, other.id);
    assert.match(r.stdout, /^::warning::evalgate: posted no failed check run: /m);
  });
});

describe('two legs of a matrix job on two operating systems, the same inputs, re-run', () => {
  const OS_LEGS = [{ env: { RUNNER_OS: 'Linux' } }, { env: { RUNNER_OS: 'Windows' } }];

  it("the Linux leg refused in attempt 2 does not replace the Windows leg's later pass", async () => {
    const ws = suite();
    const passes = await passInAttempt1(ws, OS_LEGS);
    assert.match(passes[1]?.external_id ?? '', / leg=[0-9a-f]{16} os=Windows$/);
    const r = await refused(ws, { GITHUB_RUN_ATTEMPT: '2', RUNNER_OS: 'Linux' });
    assertOnly(passes, "the Windows leg's pass is a report of a leg that ran");
    assert.match(r.stdout, /^::warning::evalgate: posted no failed check run: /m);
  });

  it('the Windows leg refused in attempt 2 replaces its own pass, the latest', async () => {
    const ws = suite();
    await passInAttempt1(ws, OS_LEGS);
    const r = await refused(ws, { GITHUB_RUN_ATTEMPT: '2', RUNNER_OS: 'Windows' });
    assert.equal(checkRuns().length, 3, r.stdout);
    assert.equal(checkRuns().at(-1)?.conclusion, 'failure');
  });
});

describe('two legs of a matrix job that differ only in their environment, re-run', () => {
  // `env: { MODEL: ${{ matrix.model }} }`: the same inputs and runner OS. GitHub names the jobs
  // `evals (small)` and `evals (large)` in every attempt, each on a runner of its own.
  const jobs = (attempt: number, runners: [string, string]) =>
    fixture.server.state.jobs.set(`42/${attempt}`, [
      { name: 'evals (small)', runner_name: runners[0], status: 'in_progress' },
      { name: 'evals (large)', runner_name: runners[1], status: 'in_progress' },
    ]);

  async function bothPass(): Promise<ReturnType<typeof workspace>> {
    fixture.server.state.jobs.clear();
    jobs(1, ['runner-1', 'runner-2']);
    jobs(2, ['runner-3', 'runner-4']);
    const ws = suite();
    const [small, large] = await passInAttempt1(ws, [
      { env: { RUNNER_NAME: 'runner-1' } },
      { env: { RUNNER_NAME: 'runner-2' } },
    ]);
    assert.match(small?.external_id ?? '', / jobname=[0-9a-f]{16}$/);
    assert.notEqual(
      (small?.external_id ?? '').split(' jobname=')[1],
      (large?.external_id ?? '').split(' jobname=')[1],
    );
    return ws;
  }

  it("the small leg refused in attempt 2 does not replace the large leg's later pass", async () => {
    const ws = await bothPass();
    const r = await refused(ws, { GITHUB_RUN_ATTEMPT: '2', RUNNER_NAME: 'runner-3' });
    assert.equal(checkRuns().length, 2, r.stdout);
    assert.match(r.stdout, /^::warning::evalgate: posted no failed check run: /m);
  });

  it('the large leg refused in attempt 2 replaces its own pass', async () => {
    const ws = await bothPass();
    const r = await refused(ws, { GITHUB_RUN_ATTEMPT: '2', RUNNER_NAME: 'runner-4' });
    assert.equal(checkRuns().length, 3, r.stdout);
    assert.equal(checkRuns().at(-1)?.conclusion, 'failure');
    assert.match(r.stdout, /passed in attempt 1 of this workflow run \(42, job evals\)/);
  });
});

describe('two legs of a matrix job that post one check run name, re-run', () => {
  // The legs differ in their results input only: one check run name (`evals: evals.yaml`) and
  // one GITHUB_JOB, as GitHub runs them; the runner gives no matrix value in the environment.
  const legs = { small: { results: 'small.json' }, large: { results: 'large.json' } };

  /** Attempt 1: both legs pass, `first` then `second`; returns the passes in that order. */
  async function bothPass(first: keyof typeof legs, second: keyof typeof legs) {
    const ws = suite();
    const passes = await passInAttempt1(ws, [{ inputs: legs[first] }, { inputs: legs[second] }]);
    assert.notEqual(passes[0]?.external_id, passes[1]?.external_id);
    assert.equal(passes[0]?.name, NAME);
    assert.equal(passes[1]?.name, NAME);
    return { ws, passes };
  }

  it("one leg refused in attempt 2 does not replace the other leg's later pass", async () => {
    const { ws, passes } = await bothPass('small', 'large');
    const r = await refused(ws, { GITHUB_RUN_ATTEMPT: '2' }, legs.small);
    assertOnly(passes, "the large leg's pass is a report of a leg that ran");
    assert.match(r.stdout, /^::warning::evalgate: posted no failed check run: /m);
    assert.doesNotMatch(r.stdout, /passed in attempt 1 of this workflow run/);
  });

  it('the leg whose own pass is the latest replaces it when refused in attempt 2', async () => {
    const { ws } = await bothPass('large', 'small');
    const r = await refused(ws, { GITHUB_RUN_ATTEMPT: '2' }, legs.small);
    const runs = checkRuns();
    assert.equal(runs.length, 3, r.stdout);
    assert.equal(runs.at(-1)?.conclusion, 'failure');
    assert.match(r.stdout, /passed in attempt 1 of this workflow run \(42, job evals\)/);
  });
});
