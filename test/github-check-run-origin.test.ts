/**
 * The origin a check run's `external_id` records (`src/github/check-run-origin.ts`): the runner's
 * workflow run, attempt and job, written by a create and read back by a refusal, which replaces
 * only a pass its own job posted in an earlier attempt of the same workflow run.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkRunOrigin,
  earlierAttempt,
  externalId,
  parseOrigin,
} from '../src/github/check-run-origin.ts';

const RUNNER = { GITHUB_RUN_ID: '1658821493', GITHUB_RUN_ATTEMPT: '2', GITHUB_JOB: 'evals' };

describe('check-run origin', () => {
  it('is read from the runner, written into external_id and read back', () => {
    const origin = checkRunOrigin(RUNNER);
    assert.deepEqual(origin, { runId: '1658821493', attempt: 2, job: 'evals' });
    const id = externalId('3f2c', origin);
    assert.equal(id, 'evalgate-3f2c run=1658821493 attempt=2 job=evals');
    assert.deepEqual(parseOrigin(id), origin);
  });

  it('is unknown without a run id, a valid attempt or a job; the external_id is then the uuid alone', () => {
    for (const env of [
      { ...RUNNER, GITHUB_RUN_ID: '' },
      { ...RUNNER, GITHUB_RUN_ATTEMPT: undefined },
      { ...RUNNER, GITHUB_RUN_ATTEMPT: '0' },
      { ...RUNNER, GITHUB_RUN_ATTEMPT: 'two' },
      { ...RUNNER, GITHUB_JOB: '' },
    ]) {
      assert.equal(checkRunOrigin(env), null, JSON.stringify(env));
    }
    assert.equal(externalId('3f2c', null), 'evalgate-3f2c');
    assert.equal(parseOrigin('evalgate-3f2c'), null);
    assert.equal(parseOrigin(null), null);
    assert.equal(parseOrigin('other-app run=1 attempt=1 job=evals'), null);
    assert.equal(parseOrigin('evalgate-3f2c run=1 attempt=0 job=evals'), null);
  });

  it('an earlier attempt is the same run and job with a smaller attempt, nothing else', () => {
    const now = { runId: '42', attempt: 2, job: 'evals' };
    assert.equal(earlierAttempt({ ...now, attempt: 1 }, now), true);
    assert.equal(earlierAttempt(now, now), false, 'a matrix leg of this attempt');
    assert.equal(earlierAttempt({ ...now, attempt: 3 }, now), false);
    assert.equal(earlierAttempt({ ...now, attempt: 1, job: 'report' }, now), false);
    assert.equal(earlierAttempt({ ...now, attempt: 1, runId: '41' }, now), false);
    assert.equal(earlierAttempt(null, now), false);
    assert.equal(earlierAttempt({ ...now, attempt: 1 }, null), false);
  });
});
