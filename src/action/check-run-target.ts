/**
 * Where a report's check run goes: the commit the event (or `head-sha`) names, moved to the
 * commit whose code ran when the checkout is another one (`event.ts`, `chatops.ts`).
 */
import { dirname } from 'node:path';
import * as github from '@actions/github';
import { readGitInfo } from '../pipeline/git-info.ts';
import {
  gitParents,
  reportedCommit,
  type ChatOpsPullRequest,
  type ReportedCommit,
} from './chatops.ts';
import { eventSubject, targetPullRequest } from './event.ts';
import { runConfigPath } from './run-evals.ts';
import type { ActionSettings } from './settings.ts';
import { escapeNote } from './summary-notes.ts';

/**
 * The commit the check run goes on (`reportedCommit`), and the checkout's HEAD: in `mode: run`
 * the evals ran (or were to run) the checkout, which need not be the event's commit: the one
 * holding the config (with actions/checkout's `path:` the workspace is no repository).
 * `wiringRefused`: the run was refused for its inputs before it read anything of the checkout,
 * so no code of it was judged; on the events that name the commit a required check waits on
 * (`pull_request_target`: the head; `workflow_run`: the triggering run's) the failure goes there
 * rather than on a checkout of the base or default branch, which would leave that check waiting.
 */
export async function checkRunTarget(
  settings: ActionSettings,
  env: NodeJS.ProcessEnv,
  pullRequest: ChatOpsPullRequest | null,
  wiringRefused = false,
): Promise<{ commit: ReportedCommit; checkedOut: string | null }> {
  const context = github.context;
  const subject = eventSubject(context, env);
  const checkoutIgnored = wiringRefused && NAMES_ITS_COMMIT.includes(context.eventName);
  const checkedOut =
    settings.mode === 'run' && !checkoutIgnored
      ? ((await readGitInfo(dirname(runConfigPath(settings)), {}))?.sha ?? null)
      : null;
  const commit = await reportedCommit({
    context,
    subjectSha: settings.headSha ?? subject.headSha,
    headShaInput: settings.headSha !== null,
    checkedOut,
    pullRequest,
    parentsOf: gitParents(dirname(runConfigPath(settings))),
  });
  return { commit, checkedOut };
}

/** Where a run that could not start posts its failed check run, and what it says there. */
export interface RefusalTarget {
  sha: string;
  /** Said in the step's log. */
  warning: string | null;
  /** Whether the check run carries the problems' annotations: they are lines of `sha`'s files. */
  annotate: boolean;
  /** A note above the problems in the check run's summary (Markdown), or ''. */
  note: string;
}

/**
 * The commit a refusal's failed check run goes on: where a report would ({@link checkRunTarget}),
 * but on `pull_request_target` never on a checkout that is not the pull request's code (the base
 * branch, which `actions/checkout` gives such a job by default). A verdict of that code posted on
 * the head would pass the pull request for code it does not have, so a report goes on the
 * checkout; but a refusal judged no code, and only fails: on the head, where a required check
 * waits, it tells the pull request why the check will not pass, where on the base it would leave
 * the check waiting for good. Its problems are lines of the checkout's files, which the head's
 * may not match (the pull request may change them), so they are not annotated on the head: the
 * summary lists each as `file:line:col`, and the step's errors (the job's own annotations, on the
 * commit the workflow run is for) keep their places.
 */
export async function refusalTarget(
  settings: ActionSettings,
  env: NodeJS.ProcessEnv,
  pullRequest: ChatOpsPullRequest | null,
  wiringRefused: boolean,
): Promise<RefusalTarget> {
  const { commit, checkedOut } = await checkRunTarget(settings, env, pullRequest, wiringRefused);
  const context = github.context;
  if (
    !NAMES_ITS_COMMIT.includes(context.eventName) ||
    checkedOut === null ||
    commit.warning === null
  ) {
    return { sha: commit.sha, warning: commit.warning, annotate: true, note: '' };
  }
  // A head-sha that is not the triggering run's was refused before (`workflowRunMismatch`), and
  // the refusal is published without it: this is `workflow_run.head_sha` then.
  const head = settings.headSha ?? eventSubject(context, env).headSha;
  if (context.eventName === 'workflow_run')
    return workflowRunRefusal(
      context.sha,
      checkedOut,
      head,
      settings.prNumber !== null || triggeredByPullRequest(context),
    );
  const pr = targetPullRequest(context);
  const same = (sha: string | undefined): boolean =>
    sha?.toLowerCase() === checkedOut.toLowerCase();
  const onBase = same(pr?.baseSha) || same(context.sha);
  const branch = pr !== null && pr.baseRef !== '' ? pr.baseRef : null;
  const read = onBase
    ? `the base branch${branch === null ? '' : ` ${branch}`} at ${checkedOut}`
    : `the checked-out commit ${checkedOut}`;
  const fix = onBase
    ? `fix them on ${branch ?? 'the base branch'}: a push to the pull request does not change the files this job reads`
    : 'fix them in that commit, or check out the pull request';
  return {
    sha: head,
    warning: `pull_request_target: the run could not start on ${read}, not on the pull request's head ${head}: no code was judged, so the failed check run goes on the head, where a required check waits for it; its problems are lines of ${checkedOut}'s files, listed in its summary but not annotated on the head's lines, which may differ (docs/action.md#when-the-config-is-invalid-or-the-run-is-refused)`,
    annotate: false,
    note: `> [!IMPORTANT]\n> ${escapeNote(`pull_request_target: this job read the files of ${read}, not of this pull request's head ${head}. The problems below are lines of those files, so they are not annotated on the head's; ${fix}.`)}`,
  };
}

/**
 * {@link refusalTarget} on `workflow_run`, whose checkout is the default branch's unless the job
 * checked out the triggering run's commit: the failed check run goes on that commit
 * (`workflow_run.head_sha`), where a required check is read (a pull request's, or a branch's
 * protection), for the same reasons as on `pull_request_target`. `pullRequest`: whether the
 * triggering run was for a pull request; a push's run has none, and the fix names none.
 */
function workflowRunRefusal(
  defaultTip: string,
  checkedOut: string,
  head: string,
  pullRequest: boolean,
): RefusalTarget {
  const onDefault = defaultTip.toLowerCase() === checkedOut.toLowerCase();
  const read = onDefault
    ? `the default branch at ${checkedOut}`
    : `the checked-out commit ${checkedOut}`;
  const fix = onDefault
    ? pullRequest
      ? 'fix them on the default branch: a push to the pull request does not change the files this job reads'
      : `fix them on the default branch: this job reads its latest files, whatever ${head} holds`
    : 'fix them in that commit, or check out the commit of the triggering run';
  return {
    sha: head,
    warning: `workflow_run: the run could not start on ${read}, not on ${head}, the commit of the workflow run that triggered this one: no code was judged, so the failed check run goes on ${head}, where a required check waits for it; its problems are lines of ${checkedOut}'s files, listed in its summary but not annotated on ${head}'s lines, which may differ (docs/action.md#when-the-config-is-invalid-or-the-run-is-refused)`,
    annotate: false,
    note: `> [!IMPORTANT]\n> ${escapeNote(`workflow_run: this job read the files of ${read}, not of ${head}, the commit of the workflow run that triggered it. The problems below are lines of those files, so they are not annotated on ${head}'s; ${fix}.`)}`,
  };
}

/**
 * The events whose payload names the commit the report is about while `actions/checkout` checks
 * out another one by default (`checkRunCommit`): a refusal of the wiring goes on the former.
 */
export const NAMES_ITS_COMMIT: readonly string[] = ['pull_request_target', 'workflow_run'];

/**
 * Whether a `workflow_run` event's triggering run was for a pull request: its event is one of a
 * pull request's, or it names pull requests (`workflow_run.pull_requests`, which GitHub leaves
 * empty for a fork's, hence the event too). A `push`, `schedule` or `workflow_dispatch` run is not.
 */
function triggeredByPullRequest(context: { payload: Record<string, unknown> }): boolean {
  const run = context.payload.workflow_run;
  if (run === null || typeof run !== 'object') return false;
  const { event, pull_requests: pulls } = run as { event?: unknown; pull_requests?: unknown };
  return (
    (typeof event === 'string' && event.startsWith('pull_request')) ||
    (Array.isArray(pulls) && pulls.length > 0)
  );
}
