/**
 * The Action's GitHub client for tests of `src/github/`: `createOctokit` (retries, throttling,
 * headers) against the fake GitHub, with every wait shortened a thousandfold (a second of
 * waiting lasts a millisecond) so retries are exercised without sleeping.
 */
import { createOctokit, type Octokit } from '../../src/github/octokit.ts';
import { RetryBudget } from '../../src/github/retry-budget.ts';

/** A client for `baseUrl`; `log` collects what it says about retries. */
export function testOctokit(
  baseUrl: string,
  options: { budgetSeconds?: number; log?: string[]; fetch?: typeof fetch } = {},
): Octokit {
  return createOctokit('test-token', {
    baseUrl,
    userAgent: 'evalgate/test',
    budget: new RetryBudget(options.budgetSeconds, 0.001),
    log: (message) => options.log?.push(message),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
