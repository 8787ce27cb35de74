/**
 * What the workflow's event says this run is about: the pull request to comment on, the commit
 * the check run belongs to, and the branch `baseline: auto` compares with. One place reads the
 * event payload, so the comment, the check run and the baseline never disagree about it.
 *
 * - `pull_request` / `pull_request_target`: the PR, its head commit (not the merge commit
 *   `GITHUB_SHA` names) and its base branch.
 * - `merge_group` (a merge queue): no PR to comment on (a group may hold several, and each
 *   already has its comment from its `pull_request` run); the check run goes on the group's
 *   head commit, which is what the queue waits for; the baseline is the queue's target branch.
 * - `workflow_run`: no PR unless the `pr-number` input names one, and the commit of the run that
 *   triggered this one (`workflow_run.head_sha`): `GITHUB_SHA` is the default branch's latest
 *   commit there, where a report on a pull request's results does not belong.
 * - `issue_comment` (ChatOps: a `/evals` comment): the pull request commented on, when it is one
 *   (`issue.pull_request` is there only then; a plain issue has no PR), and `GITHUB_SHA`, the
 *   default branch's latest commit: the payload does not name the PR's head. What the job checked
 *   out, compared with the pull request as GitHub's pulls API describes it, decides where the
 *   check run goes (`chatops.ts`); the same read names the base branch for `baseline: auto`.
 * - anything else (`push`, `workflow_dispatch`): no PR unless the `pr-number` input names one,
 *   `GITHUB_SHA`, and `GITHUB_BASE_REF` when the runner sets it.
 */

/** The part of `@actions/github`'s context this reads. */
export interface EventContext {
  eventName: string;
  sha: string;
  payload: Record<string, unknown>;
}

/** What the event says, before the `pr-number` and `head-sha` inputs override it. */
export interface EventSubject {
  pullRequest: number | null;
  headSha: string;
  /** The branch `baseline: auto` compares with (`main`, not `refs/heads/main`), or null. */
  baseBranch: string | null;
  /** `merge queue` when the run checks a merge group, for the messages that say why. */
  mergeQueue: boolean;
}

export function eventSubject(context: EventContext, env: NodeJS.ProcessEnv): EventSubject {
  const pr = record(context.payload.pull_request);
  if (pr !== undefined) {
    return {
      pullRequest: typeof pr.number === 'number' ? pr.number : null,
      headSha: text(record(pr.head)?.sha) ?? context.sha,
      baseBranch: text(record(pr.base)?.ref) ?? (env.GITHUB_BASE_REF || null),
      mergeQueue: false,
    };
  }
  const group = record(context.payload.merge_group);
  if (context.eventName === 'merge_group' && group !== undefined) {
    const baseRef = text(group.base_ref);
    return {
      pullRequest: null,
      headSha: text(group.head_sha) ?? context.sha,
      baseBranch: baseRef === undefined ? null : baseRef.replace(/^refs\/heads\//, ''),
      mergeQueue: true,
    };
  }
  const issue = context.eventName === 'issue_comment' ? record(context.payload.issue) : undefined;
  if (issue !== undefined && record(issue.pull_request) !== undefined) {
    return {
      pullRequest: positiveInteger(issue.number),
      headSha: context.sha,
      baseBranch: env.GITHUB_BASE_REF || null,
      mergeQueue: false,
    };
  }
  const triggering =
    context.eventName === 'workflow_run'
      ? text(record(context.payload.workflow_run)?.head_sha)
      : undefined;
  return {
    pullRequest: null,
    headSha: triggering ?? context.sha,
    baseBranch: env.GITHUB_BASE_REF || null,
    mergeQueue: false,
  };
}

/** A workflow run and its attempt, as `GITHUB_RUN_ID` and `GITHUB_RUN_ATTEMPT` name them. */
export interface WorkflowRunId {
  id: number;
  attempt: number;
}

/**
 * On `workflow_run`, the run that triggered this one (`workflow_run.id` and `run_attempt`): the
 * run whose results a report job reports, so the one that orders reports by push. This run's own
 * id follows the order the triggering runs finished in: an older push's slower run gets the later
 * report job. Null on other events, or when the payload does not say.
 */
export function triggeringRun(context: EventContext): WorkflowRunId | null {
  if (context.eventName !== 'workflow_run') return null;
  const run = record(context.payload.workflow_run);
  const id = run?.id;
  const attempt = run?.run_attempt ?? 1;
  return typeof id === 'number' &&
    Number.isSafeInteger(id) &&
    id > 0 &&
    typeof attempt === 'number' &&
    Number.isSafeInteger(attempt) &&
    attempt > 0
    ? { id, attempt }
    : null;
}

/** A pull request from a fork, as the event describes it. */
export interface ForkPullRequest {
  /** The fork (`someone/repo`), or null when it was deleted after the pull request was opened. */
  head: string | null;
  /** The repository the pull request is for, `owner/repo`. */
  base: string;
  /** The event, one of {@link FORK_READ_ONLY_EVENTS}: for messages. */
  event: string;
}

/**
 * The events whose runs for a fork's pull request get a read-only GITHUB_TOKEN and no secrets
 * (docs.github.com, "Events that trigger workflows": the same rule for all three).
 */
export const FORK_READ_ONLY_EVENTS: readonly string[] = [
  'pull_request',
  'pull_request_review',
  'pull_request_review_comment',
];

/**
 * The fork a `pull_request` event's pull request comes from, when its token certainly cannot
 * write: GitHub gives such a run a read-only GITHUB_TOKEN and no secrets, so a comment or check
 * run could only be refused (403). So it does a run for a review of a fork's pull request, or a
 * comment on its diff ({@link FORK_READ_ONLY_EVENTS}). Null on every other event
 * (`pull_request_target` and `workflow_run` run with the base repository's token), for a pull
 * request within the repository, and in a private repository, whose owner may choose to send
 * fork pull requests write tokens and secrets. `head.repo` is null when the fork was deleted.
 */
export function forkPullRequest(
  context: EventContext,
  env: NodeJS.ProcessEnv,
): ForkPullRequest | null {
  if (!FORK_READ_ONLY_EVENTS.includes(context.eventName)) return null;
  const pr = record(context.payload.pull_request);
  const head = record(pr?.head);
  if (pr === undefined || head === undefined || !('repo' in head)) return null;
  if (record(context.payload.repository)?.private === true) return null;
  const base =
    text(record(record(pr.base)?.repo)?.full_name) ??
    text(record(context.payload.repository)?.full_name) ??
    text(env.GITHUB_REPOSITORY);
  if (base === undefined) return null;
  const fork = head.repo === null ? null : text(record(head.repo)?.full_name);
  if (fork === undefined) return null;
  return fork !== null && fork.toLowerCase() === base.toLowerCase()
    ? null
    : { head: fork, base, event: context.eventName };
}

/**
 * Whether this run's token may be a fork's read-only one, as far as the event tells: on
 * {@link FORK_READ_ONLY_EVENTS}, unless the pull request's head is this repository itself (in a
 * private repository too, where {@link forkPullRequest} says nothing). False on every other event,
 * whose token is the repository's own: a refused write there is a missing permission.
 */
export function forkTokenPossible(context: EventContext, env: NodeJS.ProcessEnv): boolean {
  if (!FORK_READ_ONLY_EVENTS.includes(context.eventName)) return false;
  const pr = record(context.payload.pull_request);
  const head = text(record(record(pr?.head)?.repo)?.full_name);
  const base =
    text(record(record(pr?.base)?.repo)?.full_name) ??
    text(record(context.payload.repository)?.full_name) ??
    text(env.GITHUB_REPOSITORY);
  return head === undefined || base === undefined || head.toLowerCase() !== base.toLowerCase();
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object'
    ? (value as Record<string, unknown>)
    : undefined;
}

function positiveInteger(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Why a `workflow_run` report must not post: its `head-sha` input names another commit than the
 * run that triggered it. In the fork-safe pattern that input comes from the workflow; one taken
 * from the untrusted run's own artifact would let a fork post a passing check run on any commit.
 * Without the input the check run goes on the triggering run's commit (`eventSubject`), so a
 * payload that names none is refused too rather than reported on `GITHUB_SHA`, the default
 * branch's tip. Null when the event is not a `workflow_run`, or the commit is known and agrees.
 */
export function workflowRunMismatch(
  settings: { headSha: string | null },
  context: EventContext,
): string | null {
  if (context.eventName !== 'workflow_run') return null;
  const eventSha = text(record(context.payload.workflow_run)?.head_sha);
  if (settings.headSha === null) {
    return eventSha !== undefined
      ? null
      : `the workflow_run event names no workflow_run.head_sha, so there is no commit to report on (GITHUB_SHA is the default branch's latest commit, not the triggering run's); pass head-sha: \${{ github.event.workflow_run.head_sha }} (docs/action.md#pull-requests-from-forks-safely)`;
  }
  if (eventSha === undefined || eventSha.toLowerCase() === settings.headSha.toLowerCase())
    return null;
  return `input head-sha: ${settings.headSha} is not the commit of the workflow run that triggered this one (${eventSha}); refusing to report on it. Pass head-sha: \${{ github.event.workflow_run.head_sha }}, or leave it empty, never a value read from the run's artifact (docs/action.md#pull-requests-from-forks-safely)`;
}

/** The commit a check run goes on, and the warning to give when it is not the event's. */
export interface CheckRunCommit {
  sha: string;
  /** Why the check run does not go on the commit the event names; null when it does. */
  warning: string | null;
}

/**
 * Where the check run of a run that evaluated the checkout belongs. On `pull_request_target` and
 * `workflow_run` the event is about one commit (the PR's head, the triggering run's commit) while
 * `actions/checkout` checks out another by default (the base branch, the default branch's tip):
 * a verdict on that code posted as the PR head's check would pass a PR that breaks the evals.
 * Other events go on `GITHUB_SHA`, which a job may also not have checked out: an `issue_comment`
 * ChatOps job that checks out the pull request (`GITHUB_SHA` is the default branch's tip there;
 * `chatops.ts` tells the PR's head and merge commit apart when GitHub says what they are), a
 * `workflow_dispatch` or `schedule` job checking out another ref. So when `checkedOut` (HEAD of
 * the checkout holding the config; null when unknown, or in `mode: report`) differs, the check
 * run goes on `checkedOut`, with a warning. The pull request events run the test merge commit
 * (`GITHUB_SHA`) by design, and it counts as the PR's code, as `merge_commit_sha` does on
 * `pull_request_target`.
 */
export function checkRunCommit(
  context: EventContext,
  subjectSha: string,
  checkedOut: string | null,
): CheckRunCommit {
  const same = (a: string | undefined): boolean =>
    a !== undefined && checkedOut !== null && a.toLowerCase() === checkedOut.toLowerCase();
  const pr = record(context.payload.pull_request);
  if (
    checkedOut === null ||
    same(subjectSha) ||
    !checksCheckout(context.eventName) ||
    (context.eventName === 'pull_request_target' && same(text(pr?.merge_commit_sha)))
  ) {
    return { sha: subjectSha, warning: null };
  }
  const ran = `the evals ran the checked-out commit ${checkedOut}`;
  const onPost = `so the check run goes on ${checkedOut}, not on ${subjectSha}`;
  const docs = 'docs/action.md#which-commit-the-check-run-goes-on';
  if (context.eventName === 'pull_request_target') {
    const base =
      same(text(record(pr?.base)?.sha)) || same(context.sha)
        ? ' (the base branch: on pull_request_target actions/checkout checks it out unless told otherwise)'
        : '';
    return {
      sha: checkedOut,
      warning: `pull_request_target: ${ran}${base}, not the pull request's head ${subjectSha}: this verdict is about that code, not the pull request's changes, ${onPost} (${docs})`,
    };
  }
  if (context.eventName === 'workflow_run') {
    const tip = same(context.sha) ? " (GITHUB_SHA, the default branch's latest commit)" : '';
    return {
      sha: checkedOut,
      warning: `workflow_run: ${ran}${tip}, not ${subjectSha}, the commit of the workflow run that triggered this one: this verdict is about that code, ${onPost}; to report on the triggering run's results use mode: report (${docs})`,
    };
  }
  const named =
    subjectSha.toLowerCase() === context.sha.toLowerCase()
      ? 'GITHUB_SHA'
      : 'the commit the event names';
  return {
    sha: checkedOut,
    warning: `${context.eventName}: ${ran}, not ${named} ${subjectSha}: this verdict is about that code, ${onPost} (${docs})`,
  };
}

/**
 * Whether the check run follows the checked-out commit when it is not the event's
 * ({@link checkRunCommit}): on every event but those of a pull request, whose runs check out the
 * test merge commit by design.
 */
function checksCheckout(eventName: string): boolean {
  return !FORK_READ_ONLY_EVENTS.includes(eventName);
}

/**
 * On `pull_request_target`, the pull request's commits as the payload names them (the event's
 * head, test merge commit and base), so a job that checked out the merge can say so without
 * asking the pulls API (`chatops.ts`). Null on other events, or without a head or a number.
 */
export function targetPullRequest(context: EventContext): {
  number: number;
  headSha: string;
  mergeCommitSha: string | null;
  baseRef: string;
  baseSha: string;
} | null {
  if (context.eventName !== 'pull_request_target') return null;
  const pr = record(context.payload.pull_request);
  const number = positiveInteger(pr?.number);
  const headSha = text(record(pr?.head)?.sha);
  if (number === null || headSha === undefined) return null;
  const base = record(pr?.base);
  return {
    number,
    headSha,
    mergeCommitSha: text(pr?.merge_commit_sha) ?? null,
    baseRef: text(base?.ref) ?? '',
    baseSha: text(base?.sha) ?? '',
  };
}

/**
 * Why a ChatOps report on a pull request is about other code: on `issue_comment` the pull request
 * comes from the event ({@link eventSubject}) or the `pr-number` input, and either way the comment
 * goes on it; but the job checked out `GITHUB_SHA`, the default branch's latest commit (what
 * `actions/checkout` does there unless told otherwise), so the evals ran that code, not the pull
 * request's, and the comment on the PR would pass it as the PR's verdict. Null on other events,
 * when the checkout is unknown or another commit (the PR's, checked out as the docs say), or when
 * no comment goes on a PR.
 */
export function chatOpsDefaultBranch(
  context: EventContext,
  pullRequest: number | null,
  checkedOut: string | null,
): string | null {
  if (context.eventName !== 'issue_comment' || pullRequest === null || checkedOut === null)
    return null;
  if (checkedOut.toLowerCase() !== context.sha.toLowerCase()) return null;
  return `issue_comment: the evals ran GITHUB_SHA ${checkedOut}, the default branch's latest commit, not the code of pull request #${pullRequest}, whose comment this report goes on: this verdict is about the default branch. To evaluate the pull request, check it out first (actions/checkout with ref: refs/pull/${pullRequest}/head) (docs/action.md#chatops-evals-on-a-comment)`;
}
