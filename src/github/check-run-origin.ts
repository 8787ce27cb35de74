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
 * Legs that run on other operating systems (`runs-on: ${{ matrix.os }}`) are told apart by
 * `RUNNER_OS` (`os`), which a runner label keeps from one attempt to the next; and any two legs,
 * when the token may read the jobs API, by the name GitHub gives the job, which carries the
 * matrix values (`jobName`, a hash of it: `job-name.ts`).
 *
 * What else the runner exposes tells no leg apart soundly, and a leg that looks like another in
 * its next attempt is the worse mistake (its own pass stays green while the job fails), so none
 * of it is recorded: `RUNNER_ARCH` and `ImageOS` can change between two attempts of one leg while
 * GitHub moves a `-latest` label to another image (for a while jobs land on either); `RUNNER_NAME`
 * changes with the machine; `${{ job.check_run_id }}` is an expression, not in the environment,
 * and names each attempt's job anew. The job's name needs `actions: read`, which a workflow that
 * names `checks: write` alone lacks: then legs that differ only in the environment stay one leg.
 */
import { createHash } from 'node:crypto';

/** The workflow run, its attempt, the job (`GITHUB_JOB`) and the leg a check run was posted from. */
export interface CheckRunOrigin {
  runId: string;
  attempt: number;
  job: string;
  /** {@link legOf} the step's inputs; '' when the check run's `external_id` names none. */
  leg: string;
  /** `RUNNER_OS` (`Linux`, `Windows`, `macOS`); '' when not known. */
  os: string;
  /** {@link legOf} the job's name with its matrix values (`job-name.ts`); '' when not known. */
  jobName: string;
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
export function checkRunOrigin(
  env: NodeJS.ProcessEnv,
  leg: string,
  jobName = '',
): CheckRunOrigin | null {
  const runId = env.GITHUB_RUN_ID ?? '';
  const attempt = Number(env.GITHUB_RUN_ATTEMPT);
  const job = env.GITHUB_JOB ?? '';
  if (!/^\d+$/.test(runId) || !Number.isSafeInteger(attempt) || attempt < 1 || job === '') {
    return null;
  }
  // One word (`Linux`, `Windows`, `macOS`); anything else is not recorded.
  const os = /^[A-Za-z0-9]{1,20}$/.test(env.RUNNER_OS ?? '') ? (env.RUNNER_OS ?? '') : '';
  const named = jobName === '' ? '' : legOf([jobName]);
  return { runId, attempt, job: job.slice(0, JOB_MAX_CHARS), leg, os, jobName: named };
}

/**
 * The `external_id` of a create: `evalgate-<uuid>`, then the origin when known
 * (`evalgate-<uuid> run=42 attempt=1 job=evals leg=0f3a9c... os=Linux`). The uuid alone finds a create whose
 * answer was lost (`check-run.ts`); the rest is read back by {@link parseOrigin}.
 */
export function externalId(uuid: string, origin: CheckRunOrigin | null): string {
  const id = `evalgate-${uuid}`;
  if (origin === null) return id;
  const leg = origin.leg === '' ? '' : ` leg=${origin.leg}`;
  const os = origin.os === '' ? '' : ` os=${origin.os}`;
  const named = origin.jobName === '' ? '' : ` jobname=${origin.jobName}`;
  return `${id} run=${origin.runId} attempt=${origin.attempt} job=${origin.job}${leg}${os}${named}`;
}

/**
 * The origin an `external_id` of {@link externalId} records; null for any other. One an evalgate
 * before legs wrote (no `leg=`) has the leg '', and one without `os=` or `jobname=` those ''.
 */
export function parseOrigin(id: string | null | undefined): CheckRunOrigin | null {
  const match =
    /^evalgate-\S+ run=(\d+) attempt=(\d+) job=(\S+?)(?: leg=([0-9a-f]+))?(?: os=([A-Za-z0-9]+))?(?: jobname=([0-9a-f]+))?$/.exec(
      id ?? '',
    );
  if (match === null) return null;
  const attempt = Number(match[2]);
  if (!Number.isSafeInteger(attempt) || attempt < 1) return null;
  const [, runId = '', , job = '', leg = '', os = '', jobName = ''] = match;
  return { runId, attempt, job, leg, os, jobName };
}

/**
 * Whether `posted` (a check run's origin) is this leg's own, from an earlier attempt of the same
 * workflow run: then the check run is this leg's report, which a re-run that now fails replaces.
 * Another job of the run, another leg of this job's matrix (in any attempt), or the same leg in
 * the same attempt is not: those ran beside this one. A leg on another operating system, or
 * whose job GitHub names otherwise, is another leg; either not recorded on one side is taken to
 * be the same (a leg taken for
 * another would leave its own pass green). A pass whose leg is not known (an evalgate before
 * legs posted it) is {@link unknownLegAttempt}'s question.
 */
export function earlierAttempt(
  posted: CheckRunOrigin | null,
  current: CheckRunOrigin | null,
): boolean {
  return (
    posted !== null &&
    current !== null &&
    posted.leg !== '' &&
    posted.leg === current.leg &&
    earlierOfJob(posted, current) &&
    sameRunner(posted, current)
  );
}

/**
 * Whether `posted` is this job's from an earlier attempt of the same workflow run, with no leg
 * recorded (an evalgate before legs posted it): it is this leg's own only when no other leg of
 * the job posted a check run of the name in that attempt, which the caller asks GitHub.
 */
export function unknownLegAttempt(
  posted: CheckRunOrigin | null,
  current: CheckRunOrigin | null,
): posted is CheckRunOrigin {
  return (
    posted !== null &&
    current !== null &&
    posted.leg === '' &&
    earlierOfJob(posted, current) &&
    sameRunner(posted, current)
  );
}

function earlierOfJob(posted: CheckRunOrigin, current: CheckRunOrigin): boolean {
  return (
    posted.runId === current.runId && posted.job === current.job && posted.attempt < current.attempt
  );
}

/** Neither the operating system nor the job's name, where both sides record it, differs. */
function sameRunner(posted: CheckRunOrigin, current: CheckRunOrigin): boolean {
  const same = (a: string, b: string): boolean => a === '' || b === '' || a === b;
  return same(posted.os, current.os) && same(posted.jobName, current.jobName);
}
