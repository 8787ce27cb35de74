/**
 * Which workflow run, attempt and job posted a check run, recorded in its `external_id`. GitHub
 * re-runs a job in the same workflow run (`GITHUB_RUN_ID` stays, `GITHUB_RUN_ATTEMPT` grows, and
 * the commit is the same: docs.github.com, "Re-running workflows and jobs"), so a refusal can tell
 * a passed check run its own job posted in an earlier attempt (which it must replace: the job now
 * fails) from one another job posted (which it must not shadow; `publish-not-started.ts`).
 */

/** The workflow run, its attempt and the job (`GITHUB_JOB`) a check run was posted from. */
export interface CheckRunOrigin {
  runId: string;
  attempt: number;
  job: string;
}

/** GitHub documents no limit on `external_id`; a job id is cut to this many characters in it. */
const JOB_MAX_CHARS = 100;

/** This run's origin from the runner's environment; null outside a runner or without an attempt. */
export function checkRunOrigin(env: NodeJS.ProcessEnv): CheckRunOrigin | null {
  const runId = env.GITHUB_RUN_ID ?? '';
  const attempt = Number(env.GITHUB_RUN_ATTEMPT);
  const job = env.GITHUB_JOB ?? '';
  if (!/^\d+$/.test(runId) || !Number.isSafeInteger(attempt) || attempt < 1 || job === '') {
    return null;
  }
  return { runId, attempt, job: job.slice(0, JOB_MAX_CHARS) };
}

/**
 * The `external_id` of a create: `evalgate-<uuid>`, then the origin when known
 * (`evalgate-<uuid> run=42 attempt=1 job=evals`). The uuid alone finds a create whose answer was
 * lost (`check-run.ts`); the rest is read back by {@link parseOrigin}.
 */
export function externalId(uuid: string, origin: CheckRunOrigin | null): string {
  const id = `evalgate-${uuid}`;
  if (origin === null) return id;
  return `${id} run=${origin.runId} attempt=${origin.attempt} job=${origin.job}`;
}

/** The origin an `external_id` of {@link externalId} records; null for any other. */
export function parseOrigin(id: string | null | undefined): CheckRunOrigin | null {
  const match = /^evalgate-\S+ run=(\d+) attempt=(\d+) job=(\S+)$/.exec(id ?? '');
  if (match === null) return null;
  const attempt = Number(match[2]);
  if (!Number.isSafeInteger(attempt) || attempt < 1) return null;
  return { runId: match[1] ?? '', attempt, job: match[3] ?? '' };
}

/**
 * Whether `posted` (a check run's origin) is this job's own, from an earlier attempt of the same
 * workflow run: then the check run is this job's report, which a re-run that now fails replaces.
 * Another job of the run, or a leg of this job's matrix in the same attempt, is not: those ran
 * beside this one.
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
    posted.attempt < current.attempt
  );
}
