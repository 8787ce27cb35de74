/**
 * How many check runs of a name one attempt of a job posted on a commit: a refusal asks before it
 * replaces a pass whose leg its `external_id` does not record (`check-run-origin.ts`), since the
 * pass is this leg's own only when no other leg of the job posted that name in that attempt.
 */
import { parseOrigin, type CheckRunOrigin } from './check-run-origin.ts';
import { listCheckRunsNamed } from './check-runs-named.ts';
import type { Octokit } from './octokit.ts';

/**
 * The number of check runs named `name` on `sha` whose `external_id` names `of`'s workflow run,
 * attempt and job; null when they cannot be read, or there are more than one page holds (then
 * whose the pass is stays unknown, and the caller leaves it alone).
 */
export async function postsOfAttempt(
  octokit: Octokit,
  target: { owner: string; repo: string },
  query: { name: string; sha: string },
  of: CheckRunOrigin,
): Promise<number | null> {
  try {
    // One page is read; past it, the count is not known.
    const { data } = await listCheckRunsNamed(octokit, target, { ...query, filter: 'all' });
    if (data.total_count > data.check_runs.length) return null;
    return data.check_runs.filter((run) => {
      const posted = parseOrigin(run.external_id);
      return (
        run.name === query.name &&
        posted !== null &&
        posted.runId === of.runId &&
        posted.job === of.job &&
        posted.attempt === of.attempt
      );
    }).length;
  } catch {
    return null;
  }
}
