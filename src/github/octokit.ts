/**
 * The one octokit type `src/github/` works with: what `@actions/github`'s `getOctokit` returns
 * (core + REST endpoint methods + paginate, and no retry or throttling plugin).
 */
import type { getOctokit } from '@actions/github';

/** An authenticated client from `getOctokit(token, options)`. */
export type Octokit = ReturnType<typeof getOctokit>;
