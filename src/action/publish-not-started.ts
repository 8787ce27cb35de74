/**
 * Publishing a run that could not start (`not-started.ts`): what a pull request needs to see it,
 * a completed check run of the report's usual name, conclusion `failure` (so a required check does
 * not wait for good), with the problems and their annotations, and a short job summary; then the
 * step fails, with an error for each problem. An error is placed at its line only when the check
 * run does not carry that annotation: GitHub shows both on the pull request's diff. No PR comment
 * is created for it; an earlier run's comment of this report is updated to say this run could not
 * start, so that a stale green report does not stay up. The same limits as `publish.ts`: nothing
 * is written on a fork's read-only pull request run, nor without a token or a repository, nor
 * with `check-run: false` / `comment: false`, and what GitHub refuses is a warning.
 */
import * as core from '@actions/core';
import * as github from '@actions/github';
import { publishCheckRun } from '../github/check-run.ts';
import { upsertStickyComment } from '../github/comment.ts';
import type { ReportingFailure } from '../github/errors.ts';
import type { Octokit } from '../github/octokit.ts';
import type { ChatOpsPullRequest } from './chatops.ts';
import { eventSubject, forkPullRequest } from './event.ts';
import {
  notStartedAnnotations,
  notStartedMarkdown,
  notStartedTitle,
  type NotStarted,
} from './not-started.ts';
import { checkRunTarget } from './check-run-target.ts';
import { forkMessage, runLinks, runStamp } from './publish.ts';
import { reportIdentity } from './report-identity.ts';
import type { ActionSettings } from './settings.ts';
import { escapeNote } from './summary-notes.ts';

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
  try {
    await core.summary.addRaw(notStartedMarkdown(run, title, forkNote)).write();
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
  if (settings.comment && prNumber !== null) {
    const posted = await upsertStickyComment(
      octokit,
      { owner, repo, issueNumber: prNumber },
      identity.marker,
      notStartedMarkdown(run, title),
      runStamp(env, context),
      { create: false },
    );
    if (!posted.ok) failures.push(posted.failure);
    else if (posted.action === 'updated') {
      core.info(`evalgate: the PR comment ${posted.url} now says this run could not start`);
    }
  }
  if (settings.checkRun) {
    const { commit } = await checkRunTarget(settings, env, pullRequest, wiringRefused);
    if (commit.warning !== null) core.warning(`evalgate: ${commit.warning}`);
    const links = runLinks(env);
    const published = await publishCheckRun(
      octokit,
      { owner, repo },
      {
        name: title,
        headSha: commit.sha,
        conclusion: 'failure',
        title: notStartedTitle(run),
        summary: notStartedMarkdown(run, title),
        annotations: notStartedAnnotations(run),
        ...(links.run ? { detailsUrl: links.run } : {}),
      },
    );
    if (published.ok) core.info(`evalgate: check run ${published.url} says the run did not start`);
    else failures.push(published.failure);
    annotated = published.ok ? published.annotations : (published.partial?.annotations ?? 0);
  }
  for (const failure of failures) core.warning(`evalgate: ${failure.message}`);
  return annotated;
}
