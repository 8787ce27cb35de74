/**
 * The setup the tests of `src/github/` share: one fake GitHub for the file with a test client
 * for it (see {@link useGitHubServer}), the pull request they comment on, the comment marker,
 * and the row annotations they send.
 */
import assert from 'node:assert/strict';
import type { Octokit } from '../../src/github/octokit.ts';
import type { Annotation } from '../../src/report/annotations.ts';
import { useGitHubServer } from './github-client.ts';
import type { GitHubServer } from './github-server.ts';
import type { RecordedRequest } from './github-server-types.ts';

/** The pull request the tests comment on and check: #7 of acme/app. */
export const target = { owner: 'acme', repo: 'app', issueNumber: 7 };
/** The marker of the sticky comment the tests write. */
export const MARKER = '<!-- evalgate:evals.yaml:eval -->';

/** `count` failing row annotations on testsets/qa.csv, rows 2, 3, … each with its own message. */
export function annotations(count: number): Annotation[] {
  return Array.from({ length: count }, (_, i) => ({
    path: 'testsets/qa.csv',
    start_line: i + 2,
    end_line: i + 2,
    annotation_level: 'failure' as const,
    title: `row q-${i}`,
    message: `expected "Paris", got "Lyon" (${i})`,
  }));
}

/** The fake GitHub and its client; read them inside a test. */
export interface GitHubFixture {
  /** The fake GitHub, emptied before each test and acting for a GITHUB_TOKEN. */
  readonly server: GitHubServer;
  /** The test client for `server` (see `testOctokit`). */
  readonly octokit: Octokit;
  /** The requests `server` received with this method and a path matching `pattern`. */
  calls(method: string, pattern: RegExp): RecordedRequest[];
}

/**
 * Registers the hooks of {@link useGitHubServer} at the top level of a test file: each test
 * starts from an empty server acting for a GITHUB_TOKEN. Returns their handles.
 */
export function useGitHubFixture(): GitHubFixture {
  let server: GitHubServer | undefined;
  let octokit: Octokit | undefined;
  useGitHubServer((started, client) => {
    server = started;
    octokit = client;
  });
  const fixture: GitHubFixture = {
    get server() {
      assert.ok(server, 'the fake GitHub is there only inside a test');
      return server;
    },
    get octokit() {
      assert.ok(octokit, 'the client is there only inside a test');
      return octokit;
    },
    calls(method, pattern) {
      return fixture.server.requests.filter(
        (request) => request.method === method && pattern.test(request.path),
      );
    },
  };
  return fixture;
}
