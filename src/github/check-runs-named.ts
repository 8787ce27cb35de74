/**
 * The one way `src/github/` lists a commit's check runs of one name: the refusal's checks, the
 * attempt count and the lookup of a lost create all read the same endpoint with the same page size.
 */
import type { Octokit } from './octokit.ts';

/** Check runs one page of the list holds: GitHub's largest page. */
export const CHECK_RUNS_PER_PAGE = 100;

/**
 * One page (the first unless `page` says) of the check runs named `name` on commit `sha`:
 * `filter: 'all'` lists every attempt's, `'latest'` only the newest, as a required check reads it.
 * The answer is octokit's (its `data` and `headers`); a failed request throws, for the caller to read.
 */
export function listCheckRunsNamed(
  octokit: Octokit,
  { owner, repo }: { owner: string; repo: string },
  query: { name: string; sha: string; filter: 'all' | 'latest'; page?: number },
) {
  return octokit.rest.checks.listForRef({
    owner,
    repo,
    ref: query.sha,
    check_name: query.name,
    filter: query.filter,
    per_page: CHECK_RUNS_PER_PAGE,
    ...(query.page === undefined ? {} : { page: query.page }),
  });
}
