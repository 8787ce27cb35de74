/**
 * Publishing a run that could not start (`not-started.ts`): what a pull request needs to see it,
 * a completed check run of the report's usual name, conclusion `failure` (so a required check does
 * not wait for good), with the problems and their annotations, and a short job summary; then the
 * step fails, with an error for each problem. An error is placed at its line only when the check
 * run does not carry that annotation: GitHub shows both on the pull request's diff. No PR comment
 * is created for it; an earlier run's comment of this report is updated to say this run could not
 * start, so that a stale green report does not stay up. The same limits as `publish.ts`: nothing
 * is written on a fork's read-only pull request run, nor without a token or a repository, nor
 * with `check-run: false` / `comment: false`, and what GitHub refuses is a warning. A check run
 * of the name that passed on the commit is never shadowed, unless this job posted it in an earlier
 * attempt of the workflow run (`postCheckRun`).
 */
import * as core from '@actions/core';
import * as github from '@actions/github';
import {
  passedCheckRun,
  publishCheckRun,
  yieldCheckRun,
  type PassedCheckRun,
} from '../github/check-run.ts';
import { postsOfAttempt } from '../github/attempt-posts.ts';
import {
  checkRunOrigin,
  earlierAttempt,
  unknownLegAttempt,
  type CheckRunOrigin,
} from '../github/check-run-origin.ts';
import { upsertStickyComment } from '../github/comment.ts';
import { jobName } from '../github/job-name.ts';
import type { ReportingFailure } from '../github/errors.ts';
import type { Octokit } from '../github/octokit.ts';
import type { ChatOpsPullRequest } from './chatops.ts';
import { eventSubject, forkPullRequest, forkTokenPossible } from './event.ts';
import {
  cut,
  notStartedAnnotations,
  notStartedMarkdown,
  notStartedTitle,
  type NotStarted,
} from './not-started.ts';
import { NAMES_ITS_COMMIT, refusalTarget, type RefusalTarget } from './check-run-target.ts';
import { forkMessage, runLinks, runStamp } from './publish.ts';
import { reportIdentity } from './report-identity.ts';
import type { ActionSettings } from './settings.ts';
import { escapeNote, unpostedSummaryNote } from './summary-notes.ts';

/**
 * Writes the job summary, then (with a token that may write) the check run and comment, then
 * fails the step, whatever went wrong in between. `wiringRefused`: refused for its inputs
 * before any code was read, so the check run goes where the event says (`checkRunTarget`).
 */
export async function publishNotStarted(
  run: NotStarted,
  settings: ActionSettings,
  octokit: Octokit | null,
  env: NodeJS.ProcessEnv,
  pullRequest: ChatOpsPullRequest | null,
  wiringRefused = false,
): Promise<void> {
  let annotated = 0;
  try {
    annotated = await publish(run, settings, octokit, env, pullRequest, wiringRefused);
  } finally {
    failStep(run, annotated);
  }
}

/**
 * The step's errors, one a problem, then its failure. The first `annotated` problems that have a
 * line in the repository are on the check run already: their errors keep the message and drop the
 * place, so the diff shows each problem once.
 */
function failStep(run: NotStarted, annotated: number): void {
  let onCheckRun = annotated;
  for (const problem of run.problems) {
    const carried = problem.at !== undefined && onCheckRun-- > 0;
    if (problem.log === undefined) continue;
    const {
      file: _file,
      startLine: _line,
      startColumn: _col,
      ...unplaced
    } = problem.log.properties;
    core.error(problem.log.message, carried ? unplaced : problem.log.properties);
  }
  core.setOutput('verdict', 'error');
  core.setFailed(run.failure);
}

/** The job summary, check run and comment; how many annotations the check run got. */
async function publish(
  run: NotStarted,
  settings: ActionSettings,
  octokit: Octokit | null,
  env: NodeJS.ProcessEnv,
  pullRequest: ChatOpsPullRequest | null,
  wiringRefused: boolean,
): Promise<number> {
  const identity = reportIdentity({
    configPath: run.configPath,
    name: settings.name,
    args: run.args,
    job: env.GITHUB_JOB ?? '',
  });
  const title = `evals: ${identity.label}`;
  const context = github.context;
  const prNumber = settings.prNumber ?? eventSubject(context, env).pullRequest;
  const fork =
    settings.checkRun || (settings.comment && prNumber !== null)
      ? forkPullRequest(context, env)
      : null;
  const said = fork === null ? '' : escapeNote(forkMessage(fork, false));
  const forkNote =
    said === '' ? '' : `> [!NOTE]\n> ${said.charAt(0).toUpperCase()}${said.slice(1)}`;
  if (fork !== null) core.info(`evalgate: ${forkMessage(fork, false)}`);
  // Where the check run goes, and the note on whose files the problems are (a checkout of the
  // base or default branch, not the commit the event names), which the job summary carries as
  // the check run, the comment and the log do: the job summary is the one place a run without a
  // token, or refused its writes, says it.
  let placed: RefusalTarget | null = NAMES_ITS_COMMIT.includes(context.eventName)
    ? await refusalTarget(settings, env, pullRequest, wiringRefused)
    : null;
  const summaryNote = [forkNote, placed?.note ?? ''].filter((note) => note !== '').join('\n\n');
  try {
    await core.summary.addRaw(notStartedMarkdown(run, title, summaryNote)).write();
  } catch (error) {
    core.warning(`evalgate: could not write the job summary: ${(error as Error).message}`);
  }
  if (fork !== null) return 0;
  if (octokit === null) {
    if (settings.checkRun) {
      core.warning(
        'evalgate: no github-token was given, so no check run could say that the run did not start',
      );
    }
    return 0;
  }
  // `context.repo` throws without GITHUB_REPOSITORY (a runner always sets it; a local run may not).
  if (!env.GITHUB_REPOSITORY) {
    if (settings.checkRun || settings.comment) {
      core.warning(
        'evalgate: GITHUB_REPOSITORY is not set, so no check run could say that the run did not start',
      );
    }
    return 0;
  }

  const failures: ReportingFailure[] = [];
  let annotated = 0;
  const { owner, repo } = context.repo;
  const commented = settings.comment && prNumber !== null;
  // On the other events the comment needs no note (there the pull request is not read to place it).
  if (placed === null && settings.checkRun) {
    placed = await refusalTarget(settings, env, pullRequest, wiringRefused);
  }
  if (commented) {
    const posted = await upsertStickyComment(
      octokit,
      { owner, repo, issueNumber: prNumber },
      identity.marker,
      notStartedMarkdown(run, title, placed?.note ?? ''),
      runStamp(env, context),
      { create: false },
    );
    if (!posted.ok) failures.push(posted.failure);
    else if (posted.action === 'updated') {
      core.info(`evalgate: the PR comment ${posted.url} now says this run could not start`);
    }
  }
  if (settings.checkRun && placed !== null) {
    if (placed.warning !== null) core.warning(`evalgate: ${placed.warning}`);
    annotated = await postCheckRun(run, title, { owner, repo }, placed, octokit, {
      env,
      leg: settings.leg,
      failures,
    });
  }
  for (const failure of failures) core.warning(`evalgate: ${failure.message}`);
  // The not-started summary stays under 30,000 characters (`not-started.ts`): room for the note.
  const unposted = unpostedSummaryNote(failures, forkTokenPossible(context, env), false);
  if (unposted !== '') {
    try {
      await core.summary.addRaw(unposted).write();
    } catch (error) {
      core.warning(`evalgate: could not write the job summary: ${(error as Error).message}`);
    }
  }
  return annotated;
}

/**
 * The refusal's failed check run on `placed.sha`, unless the latest check run of its name there
 * passed: that is the report of a job that ran (the rightly wired job beside a wrongly wired one
 * posting the same name), and GitHub takes the latest check run of a name for a required check, so
 * a refusal, which judged no code, posted after it would turn it red. Looked for before the
 * create, and again after it, for one that landed in between (the two jobs racing): then this one
 * is turned `neutral`, which never hides a passed report. A pass this job (the same leg of its
 * matrix: `from.leg`) posted in an earlier attempt of this workflow run is no such report: the
 * job is re-run, and now fails (a secret removed, a baseline expired), so the failure replaces it
 * (`check-run-origin.ts`). How many annotations the check run got; what GitHub refused goes to
 * `failures`.
 */
async function postCheckRun(
  run: NotStarted,
  title: string,
  target: { owner: string; repo: string },
  placed: RefusalTarget,
  octokit: Octokit,
  from: { env: NodeJS.ProcessEnv; leg: string; failures: ReportingFailure[] },
): Promise<number> {
  const { env, failures } = from;
  const sha = placed.sha;
  const origin = checkRunOrigin(env, from.leg, await jobName(octokit, target, env));
  const kept = (passed: PassedCheckRun): string =>
    `the check run "${title}" ${passed.url} on ${sha} passed: a report of a job that ran, which this run (it could not start, so it has no verdict) does not overwrite. This step still fails: fix its wiring (the errors below) (docs/action.md#when-the-config-is-invalid-or-the-run-is-refused)`;
  // A pass this job posted in an earlier attempt is the one check run a refusal replaces; one
  // that names no leg (an older evalgate's) only when it is the one check run of the name the
  // job posted in that attempt: then no other leg posts the name.
  const rerun = async (passed: PassedCheckRun | null): Promise<CheckRunOrigin | null> => {
    if (passed === null) return null;
    if (earlierAttempt(passed.origin, origin)) return passed.origin;
    if (!unknownLegAttempt(passed.origin, origin)) return null;
    const posts = await postsOfAttempt(octokit, target, { name: title, sha }, passed.origin);
    return posts === 1 ? passed.origin : null;
  };
  const before = await passedCheckRun(octokit, target, { name: title, sha });
  const replaced = await rerun(before);
  if (before !== null && replaced === null) {
    core.warning(`evalgate: posted no failed check run: ${kept(before)}`);
    return 0;
  }
  const notes = [placed.note];
  if (before !== null && replaced !== null) {
    const said = `the check run "${title}" ${before.url} on ${sha} passed in attempt ${replaced.attempt} of this workflow run (${replaced.runId}, job ${replaced.job}); this re-run (attempt ${origin?.attempt ?? '?'}) could not start, so the job fails now, and its failed check run replaces that pass, which a required check would otherwise still read (docs/action.md#when-the-config-is-invalid-or-the-run-is-refused)`;
    core.warning(`evalgate: ${said}`);
    notes.push(`> [!WARNING]\n> ${escapeNote(said.charAt(0).toUpperCase() + said.slice(1))}`);
  }
  const links = runLinks(env);
  const summary = notStartedMarkdown(run, title, notes.filter((n) => n !== '').join('\n\n'));
  const published = await publishCheckRun(octokit, target, {
    name: title,
    headSha: sha,
    conclusion: 'failure',
    title: notStartedTitle(run),
    summary,
    annotations: placed.annotate ? notStartedAnnotations(run) : [],
    ...(links.run ? { detailsUrl: links.run } : {}),
    origin,
    forkPossible: forkTokenPossible(github.context, env),
  });
  if (!published.ok) {
    failures.push(published.failure);
    return published.partial?.annotations ?? 0;
  }
  const raced = await passedCheckRun(octokit, target, { name: title, sha, exceptId: published.id });
  if (raced === null || (await rerun(raced)) !== null) {
    core.info(`evalgate: check run ${published.url} says the run did not start`);
    return published.annotations;
  }
  const refused = await yieldCheckRun(octokit, target, published.id, {
    title: cut(`superseded: ${notStartedTitle(run)}`, 200),
    // Under 65,535: the not-started summary stays under 30,000 characters (`not-started.ts`).
    summary: `> [!NOTE]\n> A check run of this name on this commit passed (${raced.url}) while this one was posted: it is the report of a job that ran, and this run could not start, so this check run is neutral rather than failed, and does not hide it.\n\n${summary}`,
  });
  if (refused !== null) failures.push(refused);
  else core.warning(`evalgate: turned the check run ${published.url} neutral: ${kept(raced)}`);
  return published.annotations;
}
