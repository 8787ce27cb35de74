/**
 * Where a ChatOps job's check run goes: an `issue_comment` job (a `/evals` comment) on a pull
 * request. There GITHUB_SHA is the default branch's latest commit and the payload names none of
 * the pull request's commits, so the commit the job checked out is compared with the pull request
 * as the pulls API describes it (`github/pull-request.ts`): its head (`refs/pull/N/head`), its
 * test merge commit (`refs/pull/N/merge`), or neither. GitHub shows a pull request the check runs
 * of its head commit (a check run's `pull_requests` are the open pull requests whose head matches
 * it), never those of the merge commit, so a run of either goes on the head: for a merge, with a
 * note that the results are for the merge. Any other commit gets the check run, with a warning.
 * A `pull_request_target` job that checked out the merge (`merge_commit_sha`, which its payload
 * names, so GitHub is not asked) gets the same note.
 */
import { execFile } from 'node:child_process';
import type { Octokit } from '../github/octokit.ts';
import {
  readPullRequest,
  type PullRequestCommits,
  type PullRequestRead,
} from '../github/pull-request.ts';
import {
  checkRunCommit,
  targetPullRequest,
  type CheckRunCommit,
  type EventContext,
} from './event.ts';

/**
 * The pull request an `issue_comment` run is about (or `pr-number`'s, on any event), read from
 * the pulls API when first asked for and never again: `baseline: auto` takes its base branch
 * from it when the event names none (`baseline.ts`), and on `issue_comment` the check run its
 * commits ({@link reportedCommit}), so the two cannot disagree, and one call serves both.
 */
export interface ChatOpsPullRequest {
  number: number;
  /** The one read: the same answer (or failure) to every call. */
  read(): Promise<PullRequestRead>;
}

/**
 * The {@link ChatOpsPullRequest} of pull request `number` (`pr-number`, or the one commented on,
 * or the event's); null when there is no pull request. It is read only when needed: on a pull
 * request's own events the payload names its commits and base branch, while a
 * `workflow_dispatch` or `workflow_run` given `pr-number` learns the base branch for `baseline:
 * auto` from it, as `issue_comment` does. Without a token the read fails, saying so.
 * `repository` is asked for only when the pull request is read (`github.context.repo` throws
 * without GITHUB_REPOSITORY).
 */
export function chatOpsPullRequest(
  number: number | null,
  octokit: Octokit | null,
  repository: () => { owner: string; repo: string },
): ChatOpsPullRequest | null {
  if (number === null) return null;
  let read: Promise<PullRequestRead> | undefined;
  return {
    number,
    read: () =>
      (read ??=
        octokit === null
          ? Promise.resolve({
              ok: false,
              failure: {
                code: 'github.forbidden',
                message: 'no github-token was given to ask GitHub',
              },
            })
          : readPullRequest(octokit, { ...repository(), number })),
  };
}

/** The check run's commit, its warning, and what the results are for when more than that. */
export interface ReportedCommit extends CheckRunCommit {
  /** Said above the report when the results are for a merge of the check run's commit. */
  note: string | null;
}

/** A commit's parents as the checkout knows them (`[base, head]` for a merge), null if unknown. */
export type ParentsOf = (sha: string) => Promise<readonly string[] | null>;

/** What {@link reportedCommit} needs; `subjectSha` is the commit the event (or head-sha) names. */
export interface ReportedCommitInput {
  context: EventContext;
  subjectSha: string;
  /** Whether the `head-sha` input named the commit: the workflow chose it, not the pull request. */
  headShaInput: boolean;
  /** HEAD of the checkout holding the config; null when unknown, or in `mode: report`. */
  checkedOut: string | null;
  /** The pull request of an `issue_comment` run ({@link chatOpsPullRequest}); null when none. */
  pullRequest: ChatOpsPullRequest | null;
  parentsOf: ParentsOf;
}

/**
 * The commit the check run goes on ({@link checkRunCommit}), and on `issue_comment` with a pull
 * request, what the pulls API says of the checked-out commit ({@link chatOpsCommit}). When GitHub
 * cannot be asked (no token) or does not answer, the check run follows the checkout as on any
 * other event, and the warning says why the pull request's commits are not known. On
 * `pull_request_target`, a checkout of the payload's `merge_commit_sha` gets the merge's note.
 */
export async function reportedCommit(input: ReportedCommitInput): Promise<ReportedCommit> {
  const { context, subjectSha, checkedOut, pullRequest } = input;
  const byEvent = { ...checkRunCommit(context, subjectSha, checkedOut), note: null };
  const target = input.headShaInput ? null : targetPullRequest(context);
  if (target !== null && checkedOut !== null && same(target.mergeCommitSha ?? '', checkedOut)) {
    // The payload names the merge: its check run is the head's (`checkRunCommit`), with the note.
    const parents = await input.parentsOf(checkedOut);
    return { ...byEvent, note: mergeNote(context, target, checkedOut, parents).note };
  }
  if (
    !namesNoPullRequest(context.eventName) ||
    checkedOut === null ||
    pullRequest === null ||
    input.headShaInput
  ) {
    return byEvent;
  }
  const read = await pullRequest.read();
  if (!read.ok) {
    const unknown = `whether it is the head of pull request #${pullRequest.number} is not known: ${read.failure.message}`;
    if (byEvent.warning !== null) return { ...byEvent, warning: `${byEvent.warning}; ${unknown}` };
    // On issue_comment `chatOpsDefaultBranch` says the checkout (GITHUB_SHA) is not the PR's.
    if (context.eventName === 'issue_comment') return byEvent;
    return {
      ...byEvent,
      warning: `${context.eventName}: the evals ran the checked-out commit ${checkedOut}; ${unknown}, so this verdict may be about other code than the pull request's (docs/action.md#which-commit-the-check-run-goes-on)`,
    };
  }
  // Reported after the merge (a workflow_run of the base branch's push, say): its code is the
  // base branch's now, and what ran is told as on any other event.
  if (read.pullRequest.merged === true && context.eventName !== 'issue_comment') return byEvent;
  const merge = read.pullRequest.mergeCommitSha;
  const parents = merge !== null && same(merge, checkedOut) ? await input.parentsOf(merge) : null;
  return chatOpsCommit(context, read.pullRequest, checkedOut, parents);
}

/**
 * Where the check run of an `issue_comment` job that checked out `checkedOut` goes, given the
 * pull request's commits: the head, when it ran the head or the test merge commit (with a note
 * naming the merge's base, from `parents` when the checkout knows them, else from the pulls API);
 * the default branch's commit (GITHUB_SHA) stays there, and `chatOpsDefaultBranch` warns of it;
 * any other commit gets the check run, with a warning naming the pull request's head.
 */
export function chatOpsCommit(
  context: EventContext,
  pr: PullRequestCommits,
  checkedOut: string,
  parents: readonly string[] | null,
): ReportedCommit {
  if (same(pr.headSha, checkedOut)) return { sha: pr.headSha, warning: null, note: null };
  if (pr.mergeCommitSha !== null && same(pr.mergeCommitSha, checkedOut)) {
    return mergeNote(context, pr, checkedOut, parents);
  }
  if (same(context.sha, checkedOut)) {
    // On issue_comment `chatOpsDefaultBranch` says so (it warns without the pulls API too).
    if (context.eventName === 'issue_comment')
      return { sha: checkedOut, warning: null, note: null };
    return {
      sha: checkedOut,
      warning: `${context.eventName}: the evals ran GITHUB_SHA ${checkedOut}, not the code of pull request #${pr.number} (its head ${pr.headSha}), which pr-number names: this verdict is about that code, so the check run goes on ${checkedOut}. To evaluate the pull request, check it out first (actions/checkout with ref: refs/pull/${pr.number}/head) (docs/action.md#which-commit-the-check-run-goes-on)`,
      note: null,
    };
  }
  return {
    sha: checkedOut,
    warning: `${context.eventName}: the evals ran the checked-out commit ${checkedOut}, neither the head of pull request #${pr.number} (${pr.headSha}) nor its test merge commit: this verdict is about that code, so the check run goes on ${checkedOut}, not on ${pr.headSha} (docs/action.md#which-commit-the-check-run-goes-on)`,
    note: null,
  };
}

/**
 * The check run of a run of pull request `pr`'s test merge commit `checkedOut`: on the head,
 * with a note that the results are for the merge, naming its base from `parents` (`[base, head]`,
 * from the checkout) when known, else from `pr`.
 */
function mergeNote(
  context: EventContext,
  pr: PullRequestCommits,
  checkedOut: string,
  parents: readonly string[] | null,
): ReportedCommit {
  const [base, head] = parents?.length === 2 ? parents : [pr.baseSha, pr.headSha];
  const into = base === '' || base === undefined ? pr.baseRef : `${pr.baseRef} at ${base}`;
  const merged = head ?? pr.headSha;
  const docs =
    context.eventName === 'issue_comment'
      ? 'chatops-evals-on-a-comment'
      : 'which-commit-the-check-run-goes-on';
  return {
    sha: merged,
    warning: null,
    note: `${context.eventName}: these results are for the test merge commit ${checkedOut} of pull request #${pr.number}, the merge of its head ${merged} into ${into}, not for the head alone; the check run goes on the head, where GitHub shows the pull request's checks (docs/action.md#${docs})`,
  };
}

/**
 * {@link ParentsOf} through `git cat-file commit` in `dir`: the commit object names its parents
 * even in the shallow clone `actions/checkout` makes (where `HEAD^1` is unknown). Null when git
 * is missing, the commit is not there, or git takes longer than a few seconds.
 */
export function gitParents(dir: string): ParentsOf {
  return (sha) =>
    new Promise((resolve) => {
      execFile(
        'git',
        ['cat-file', 'commit', sha],
        { cwd: dir, timeout: 5000, windowsHide: true, maxBuffer: 1024 * 1024 },
        (error, stdout) => {
          if (error) return resolve(null);
          const header = stdout.split('\n\n', 1)[0] ?? '';
          resolve([...header.matchAll(/^parent ([0-9a-f]{40,64})$/gm)].map((m) => m[1] ?? ''));
        },
      );
    });
}

/**
 * Whether the pull request a report goes on comes from the comment or `pr-number` while the job
 * may have checked out any commit (`issue_comment`, `workflow_dispatch`, `workflow_run`): what
 * it evaluated is then compared with the pull request ({@link reportedCommit}). The pull request
 * events name their commits; a merge queue's group is no one pull request; a `push` or `schedule`
 * given `pr-number` reports its branch's code (a merged pull request's, say), as the docs say.
 */
function namesNoPullRequest(eventName: string): boolean {
  return ['issue_comment', 'workflow_dispatch', 'workflow_run'].includes(eventName);
}

function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
