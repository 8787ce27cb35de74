/**
 * The Action's GitHub client for tests of `src/github/`: `createOctokit` (retries, throttling,
 * headers) against the fake GitHub, with every wait shortened a thousandfold (a second of
 * waiting lasts a millisecond) so retries are exercised without sleeping.
 */
import { after, before, beforeEach } from 'node:test';
import { createOctokit, type Octokit } from '../../src/github/octokit.ts';
import { RetryBudget } from '../../src/github/retry-budget.ts';
import { startGitHubServer, type GitHubServer } from './github-server.ts';

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

/**
 * One fake GitHub for a whole test file, with a test client for it: started before its tests,
 * closed after, and emptied before each (no comments or check runs, acting for a
 * GITHUB_TOKEN). `use` receives both.
 */
export function useGitHubServer(use: (server: GitHubServer, octokit: Octokit) => void): void {
  let server: GitHubServer | undefined;
  before(async () => {
    server = await startGitHubServer();
    use(server, testOctokit(server.url));
  });
  after(async () => {
    await server?.close();
  });
  beforeEach(() => {
    if (server === undefined) return;
    server.requests.length = 0;
    server.state.comments.clear();
    server.state.checkRuns.clear();
    server.setUser(null);
  });
}
