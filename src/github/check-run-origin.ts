/**
 * Which workflow run, attempt, job and leg posted a check run, recorded in its `external_id`.
 * GitHub re-runs a job in the same workflow run (`GITHUB_RUN_ID` stays, `GITHUB_RUN_ATTEMPT`
 * grows, and the commit is the same: docs.github.com, "Re-running workflows and jobs"), so a
 * refusal can tell a passed check run its own job posted in an earlier attempt (which it must
 * replace: the job now fails) from one another job posted (which it must not shadow;
 * `publish-not-started.ts`).
 *
 * The legs of a matrix job share `GITHUB_JOB`, and the runner puts no matrix value in the
 * environment (`matrix` and `strategy` are expression contexts only), so two legs that post one
 * check run name would each take the other's pass for their own. What a leg does differ in is
 * what the workflow passes the step (`args: --grid model=${{ matrix.model }}`, `results`, ...):
 * {@link legOf} hashes those inputs into the `leg`, and only a pass of the same leg is replaced.
 */
import { createHash } from 'node:crypto';

/** The workflow run, its attempt, the job (`GITHUB_JOB`) and the leg a check run was posted from. */
export interface CheckRunOrigin {
  runId: string;
  attempt: number;
  job: string;
  /** {@link legOf} the step's inputs; '' when the check run's `external_id` names none. */
  leg: string;
}

/** Hex digits of the leg kept: enough that two legs of one job never share one by chance. */
const LEG_CHARS = 16;

/**
 * The leg a step is, from the inputs that say what it runs and reports (each as the workflow
 * wrote it, so a self-hosted runner's other workspace path makes no other leg): the same values
 * give the same leg in every attempt of the workflow run, and legs that differ in any give others.
 */
export function legOf(inputs: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, LEG_CHARS);
}

/** GitHub documents no limit on `external_id`; a job id is cut to this many characters in it. */
const JOB_MAX_CHARS = 100;

/**
 * This run's origin from the runner's environment and the step's `leg` ({@link legOf}); null
 * outside a runner or without an attempt.
 */
export function checkRunOrigin(env: NodeJS.ProcessEnv, leg: string): CheckRunOrigin | null {
  const runId = env.GITHUB_RUN_ID ?? '';
  const attempt = Number(env.GITHUB_RUN_ATTEMPT);
  const job = env.GITHUB_JOB ?? '';
  if (!/^\d+$/.test(runId) || !Number.isSafeInteger(attempt) || attempt < 1 || job === '') {
    return null;
  }
  return { runId, attempt, job: job.slice(0, JOB_MAX_CHARS), leg };
}

/**
 * The `external_id` of a create: `evalgate-<uuid>`, then the origin when known
 * (`evalgate-<uuid> run=42 attempt=1 job=evals leg=0f3a9c...`). The uuid alone finds a create whose
 * answer was lost (`check-run.ts`); the rest is read back by {@link parseOrigin}.
 */
export function externalId(uuid: string, origin: CheckRunOrigin | null): string {
  const id = `evalgate-${uuid}`;
  if (origin === null) return id;
  const leg = origin.leg === '' ? '' : ` leg=${origin.leg}`;
  return `${id} run=${origin.runId} attempt=${origin.attempt} job=${origin.job}${leg}`;
}

/**
 * The origin an `external_id` of {@link externalId} records; null for any other. One an evalgate
 * before legs wrote (no `leg=`) has the leg ''.
 */
export function parseOrigin(id: string | null | undefined): CheckRunOrigin | null {
  const match = /^evalgate-\S+ run=(\d+) attempt=(\d+) job=(\S+?)(?: leg=([0-9a-f]+))?$/.exec(
    id ?? '',
  );
  if (match === null) return null;
  const attempt = Number(match[2]);
  if (!Number.isSafeInteger(attempt) || attempt < 1) return null;
  return { runId: match[1] ?? '', attempt, job: match[3] ?? '', leg: match[4] ?? '' };
}

/**
 * Whether `posted` (a check run's origin) is this leg's own, from an earlier attempt of the same
 * workflow run: then the check run is this leg's report, which a re-run that now fails replaces.
 * Another job of the run, another leg of this job's matrix (in any attempt), or the same leg in
 * the same attempt is not: those ran beside this one. Nor is a pass whose leg is not known (an
 * evalgate before legs posted it): it may be another leg's.
 */
export function earlierAttempt(
  posted: CheckRunOrigin | null,
  current: CheckRunOrigin | null,
): boolean {
  return (
    posted !== null &&
    current !== null &&
    posted.runId === current.runId &&
    posted.job === current.job &&
    posted.leg !== '' &&
    posted.leg === current.leg &&
    posted.attempt < current.attempt
  );
}
