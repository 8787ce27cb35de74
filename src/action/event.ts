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
 * - anything else (`push`, `workflow_dispatch`, `workflow_run`): no PR unless the `pr-number`
 *   input names one, `GITHUB_SHA`, and `GITHUB_BASE_REF` when the runner sets it.
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
  return {
    pullRequest: null,
    headSha: context.sha,
    baseBranch: env.GITHUB_BASE_REF || null,
    mergeQueue: false,
  };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object'
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Why a `workflow_run` report must not post: its `head-sha` input names another commit than the
 * run that triggered it. In the fork-safe pattern that input comes from the workflow; one taken
 * from the untrusted run's own artifact would let a fork post a passing check run on any commit.
 * Null when the event is not a `workflow_run`, or the input is unset or agrees.
 */
export function workflowRunMismatch(
  settings: { headSha: string | null },
  context: EventContext,
): string | null {
  if (context.eventName !== 'workflow_run' || settings.headSha === null) return null;
  const eventSha = text(record(context.payload.workflow_run)?.head_sha);
  if (eventSha === undefined || eventSha.toLowerCase() === settings.headSha.toLowerCase())
    return null;
  return `input head-sha: ${settings.headSha} is not the commit of the workflow run that triggered this one (${eventSha}); refusing to report on it. Pass head-sha: \${{ github.event.workflow_run.head_sha }}, never a value read from the run's artifact (docs/action.md#pull-requests-from-forks-safely)`;
}
