/**
 * The origin a check run's `external_id` records (`src/github/check-run-origin.ts`): the runner's
 * workflow run, attempt and job, and the step's leg (a hash of its inputs), written by a create
 * and read back by a refusal, which replaces only a pass its own leg of its own job posted in an
 * earlier attempt of the same workflow run.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkRunOrigin,
  earlierAttempt,
  externalId,
  unknownLegAttempt,
  legOf,
  parseOrigin,
} from '../src/github/check-run-origin.ts';
import { readSettings } from '../src/action/settings.ts';

const RUNNER = { GITHUB_RUN_ID: '1658821493', GITHUB_RUN_ATTEMPT: '2', GITHUB_JOB: 'evals' };
const LEG = legOf(['.', 'evals.yaml', '--grid model=small', '', '', '', '', '']);

describe('check-run origin', () => {
  it('is read from the runner and the leg, written into external_id and read back', () => {
    const origin = checkRunOrigin(RUNNER, LEG);
    assert.deepEqual(origin, {
      runId: '1658821493',
      attempt: 2,
      job: 'evals',
      leg: LEG,
      os: '',
      jobName: '',
    });
    assert.match(LEG, /^[0-9a-f]{16}$/);
    const id = externalId('3f2c', origin);
    assert.equal(id, `evalgate-3f2c run=1658821493 attempt=2 job=evals leg=${LEG}`);
    assert.deepEqual(parseOrigin(id), origin);
  });

  it("records the runner's operating system (RUNNER_OS), one word or nothing", () => {
    const origin = checkRunOrigin({ ...RUNNER, RUNNER_OS: 'Windows' }, LEG);
    assert.equal(origin?.os, 'Windows');
    const id = externalId('3f2c', origin);
    assert.equal(id, `evalgate-3f2c run=1658821493 attempt=2 job=evals leg=${LEG} os=Windows`);
    assert.deepEqual(parseOrigin(id), origin);
    assert.equal(checkRunOrigin({ ...RUNNER, RUNNER_OS: 'Linux x64' }, LEG)?.os, '');
  });

  it('one an evalgate before legs wrote reads back with the leg unknown', () => {
    assert.deepEqual(parseOrigin('evalgate-3f2c run=42 attempt=1 job=evals'), {
      runId: '42',
      attempt: 1,
      job: 'evals',
      leg: '',
      os: '',
      jobName: '',
    });
  });

  it('is unknown without a run id, a valid attempt or a job; the external_id is then the uuid alone', () => {
    for (const env of [
      { ...RUNNER, GITHUB_RUN_ID: '' },
      { ...RUNNER, GITHUB_RUN_ATTEMPT: undefined },
      { ...RUNNER, GITHUB_RUN_ATTEMPT: '0' },
      { ...RUNNER, GITHUB_RUN_ATTEMPT: 'two' },
      { ...RUNNER, GITHUB_JOB: '' },
    ]) {
      assert.equal(checkRunOrigin(env, LEG), null, JSON.stringify(env));
    }
    assert.equal(externalId('3f2c', null), 'evalgate-3f2c');
    assert.equal(parseOrigin('evalgate-3f2c'), null);
    assert.equal(parseOrigin(null), null);
    assert.equal(parseOrigin('other-app run=1 attempt=1 job=evals'), null);
    assert.equal(parseOrigin('evalgate-3f2c run=1 attempt=0 job=evals'), null);
  });

  it('an earlier attempt is the same run, job and leg with a smaller attempt, nothing else', () => {
    const now = { runId: '42', attempt: 2, job: 'evals', leg: LEG, os: 'Linux', jobName: '' };
    assert.equal(earlierAttempt({ ...now, attempt: 1 }, now), true);
    assert.equal(earlierAttempt(now, now), false, 'a matrix leg of this attempt');
    assert.equal(earlierAttempt({ ...now, attempt: 3 }, now), false);
    assert.equal(earlierAttempt({ ...now, attempt: 1, job: 'report' }, now), false);
    assert.equal(earlierAttempt({ ...now, attempt: 1, runId: '41' }, now), false);
    const other = legOf(['.', 'evals.yaml', '--grid model=large', '', '', '', '', '']);
    assert.equal(earlierAttempt({ ...now, attempt: 1, leg: other }, now), false, 'another leg');
    assert.equal(earlierAttempt({ ...now, attempt: 1, leg: '' }, now), false, 'leg unknown');
    assert.equal(earlierAttempt(null, now), false);
    assert.equal(earlierAttempt({ ...now, attempt: 1 }, null), false);
  });

  it('a leg on another operating system is another leg; an os not recorded is no difference', () => {
    const now = { runId: '42', attempt: 2, job: 'evals', leg: LEG, os: 'Linux', jobName: '' };
    assert.equal(earlierAttempt({ ...now, attempt: 1, os: 'Windows' }, now), false);
    assert.equal(earlierAttempt({ ...now, attempt: 1, os: '' }, now), true, 'an older evalgate');
    assert.equal(earlierAttempt({ ...now, attempt: 1 }, { ...now, os: '' }), true);
  });

  it("records the job's name GitHub shows (its matrix values) as a hash; another name is another leg", () => {
    const small = checkRunOrigin({ ...RUNNER, RUNNER_OS: 'Linux' }, LEG, 'evals (small)');
    const large = checkRunOrigin({ ...RUNNER, RUNNER_OS: 'Linux' }, LEG, 'evals (large)');
    assert.match(small?.jobName ?? '', /^[0-9a-f]{16}$/);
    const id = externalId('3f2c', small);
    assert.equal(
      id,
      `evalgate-3f2c run=1658821493 attempt=2 job=evals leg=${LEG} os=Linux jobname=${small?.jobName}`,
    );
    assert.deepEqual(parseOrigin(id), small);
    assert.ok(small !== null && large !== null);
    assert.equal(earlierAttempt({ ...small, attempt: 1 }, large), false, 'another leg');
    assert.equal(earlierAttempt({ ...small, attempt: 1 }, small), true, 'its own');
    assert.equal(earlierAttempt({ ...small, attempt: 1, jobName: '' }, large), true, 'not known');
  });

  it("a pass with no leg is the job's earlier attempt's, left to ask GitHub how many legs posted", () => {
    const now = { runId: '42', attempt: 2, job: 'evals', leg: LEG, os: 'Linux', jobName: '' };
    const old = { runId: '42', attempt: 1, job: 'evals', leg: '', os: '', jobName: '' };
    assert.equal(unknownLegAttempt(old, now), true);
    assert.equal(unknownLegAttempt({ ...old, attempt: 2 }, now), false, 'the same attempt');
    assert.equal(unknownLegAttempt({ ...old, job: 'report' }, now), false);
    assert.equal(unknownLegAttempt({ ...old, runId: '41' }, now), false);
    assert.equal(unknownLegAttempt({ ...old, os: 'macOS' }, now), false);
    assert.equal(unknownLegAttempt({ ...old, leg: LEG }, now), false, 'a leg: earlierAttempt');
    assert.equal(unknownLegAttempt(null, now), false);
  });
});

describe('the leg the inputs make (settings.ts)', () => {
  const leg = (inputs: Record<string, string>, workspace = '/home/runner/work/r/r'): string => {
    const read = readSettings((name) => inputs[name] ?? '', workspace);
    assert.ok(read.ok, JSON.stringify(read));
    return read.settings.leg;
  };

  it('is the same for the same inputs in another attempt, even in another workspace path', () => {
    const inputs = { config: 'evals.yaml', args: '--grid model=small', name: 'evals' };
    assert.equal(leg(inputs), leg({ ...inputs }));
    assert.equal(leg(inputs), leg(inputs, '/srv/runner-2/_work/r/r'));
  });

  it('differs between legs that differ in args, results, config or working-directory', () => {
    const base = { config: 'evals.yaml', args: '--shard 1/2', name: 'evals' };
    const legs = new Set([
      leg(base),
      leg({ ...base, args: '--shard 2/2' }),
      leg({ ...base, results: 'small.json' }),
      leg({ ...base, config: 'other.yaml' }),
      leg({ ...base, 'working-directory': 'packages/a' }),
      leg({ ...base, name: 'evals small' }),
    ]);
    assert.equal(legs.size, 6);
  });

  it('does not depend on the token or on how the step publishes', () => {
    const base = { config: 'evals.yaml', 'github-token': 'ghs_one' };
    assert.equal(
      leg(base),
      leg({ ...base, 'github-token': 'ghs_two', comment: 'false', 'max-annotations': '10' }),
    );
  });
});
