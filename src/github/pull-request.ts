/**
 * Reading one pull request's commits (`GET /repos/{owner}/{repo}/pulls/{pull_number}`): its head,
 * its test merge commit and its base. An `issue_comment` payload names the pull request but none
 * of its commits, so a ChatOps job asks GitHub which commit it ran (`action/chatops.ts`).
 */
import type { ReportingFailure } from './errors.ts';
import type { Octokit } from './octokit.ts';
import { refusalOf } from './token-user.ts';

/** The commits of a pull request, as the pulls API names them. */
export interface PullRequestCommits {
  number: number;
  /** `head.sha`: the commit GitHub shows the pull request's checks for. */
  headSha: string;
  /**
   * `merge_commit_sha`: before the pull request is merged, the test merge commit that
   * `refs/pull/N/merge` points at; null while GitHub computes it, or when the PR conflicts.
   */
  mergeCommitSha: string | null;
  /** `base.ref`, the branch the pull request goes into (`main`). */
  baseRef: string;
  /** `base.sha`, the base branch's commit as the pulls API last saw it. */
  baseSha: string;
  /**
   * Whether it was merged (`merged_at`): its code is then in its base branch, and
   * `merge_commit_sha` names the commit the merge made there, no test merge.
   */
  merged?: boolean;
}

/** What {@link readPullRequest} found, or why it could not. */
export type PullRequestRead =
  { ok: true; pullRequest: PullRequestCommits } | { ok: false; failure: ReportingFailure };

/** Reads pull request `number`; a refusal, a 404 or a payload without a head is a failure. */
export async function readPullRequest(
  octokit: Octokit,
  target: { owner: string; repo: string; number: number },
): Promise<PullRequestRead> {
  const what = `read pull request #${target.number}`;
  try {
    const { data } = await octokit.rest.pulls.get({
      owner: target.owner,
      repo: target.repo,
      pull_number: target.number,
    });
    const headSha = shaOf(data.head?.sha);
    if (headSha === null) {
      return {
        ok: false,
        failure: { code: 'github.failed', message: `could not ${what}: GitHub named no head.sha` },
      };
    }
    return {
      ok: true,
      pullRequest: {
        number: target.number,
        headSha,
        mergeCommitSha: shaOf(data.merge_commit_sha),
        baseRef: data.base?.ref ?? '',
        baseSha: shaOf(data.base?.sha) ?? '',
        merged: typeof data.merged_at === 'string' && data.merged_at !== '',
      },
    };
  } catch (error) {
    return {
      ok: false,
      failure: await refusalOf(octokit, error, what, 'pull-requests: read', 'read'),
    };
  }
}

function shaOf(value: unknown): string | null {
  return typeof value === 'string' && /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/i.test(value)
    ? value.toLowerCase()
    : null;
}
