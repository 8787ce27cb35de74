/**
 * What the fake GitHub (`github-server.ts`) refuses before a route runs, or in its place: what a
 * user's token (a PAT) may not do, and what names a commit or an issue the repository does not
 * have. No state lives here; the server hands its own in.
 */
import { DOCS, error, type Reply } from './github-server-errors.ts';
import { DEFAULT_MESSAGES } from './github-server-replies.ts';
import type { FakeToken, StoredUser } from './github-server-types.ts';

/**
 * `GET /user` and `GET /app`: installation tokens (GITHUB_TOKEN is one) are no user, and only a
 * JWT signed with an app's private key may ask for the app, which no token the Action has is;
 * undefined for another path.
 */
export function identityReply(
  token: FakeToken,
  path: string,
  user: () => StoredUser,
): Reply | undefined {
  const refused = DEFAULT_MESSAGES[403] ?? '';
  if (path === '/app') return error(403, refused, `${DOCS}/apps/apps#get-the-authenticated-app`);
  if (path !== '/user') return undefined;
  if (token.kind !== 'user')
    return error(403, refused, `${DOCS}/users/users#get-the-authenticated-user`);
  const { login, id, type } = user();
  return { status: 200, body: { login, id, type } };
}

/** The words GitHub refuses a fine-grained token's missing permission with. */
const PAT_REFUSED = 'Resource not accessible by personal access token';

/**
 * GitHub's 403 when the token is a person's and may not make this request: a fine-grained token
 * without `Issues` or `Pull requests` write writes no comment, one without `Actions` read sees no
 * artifact or workflow run, and no user's token writes a check run (docs.github.com/rest/checks/runs:
 * "OAuth apps and authenticated users can view check runs and check suites, but they are not able
 * to create them"); undefined when it may.
 */
export function tokenRefusal(token: FakeToken, method: string, path: string): Reply | undefined {
  if (token.kind !== 'user') return undefined;
  if (
    token.writesComments === false &&
    method !== 'GET' &&
    /^\/repos\/[^/]+\/[^/]+\/issues\/(?:\d+\/comments|comments\/\d+)$/.test(path)
  ) {
    return error(403, PAT_REFUSED, `${DOCS}/issues/comments#create-an-issue-comment`);
  }
  if (token.readsActions === false && /^\/repos\/[^/]+\/[^/]+\/actions\//.test(path)) {
    return error(403, PAT_REFUSED, `${DOCS}/actions/artifacts#list-artifacts-for-a-repository`);
  }
  if (
    (method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/check-runs$/.test(path)) ||
    (method === 'PATCH' && /^\/repos\/[^/]+\/[^/]+\/check-runs\/\d+$/.test(path))
  ) {
    return error(403, 'You must authenticate via a GitHub App.', `${DOCS}/checks/runs`);
  }
  return undefined;
}

/**
 * A commit the repository does not have, named by a check run's `head_sha` (`create`) or by the
 * ref of `GET …/commits/{ref}/check-runs` (`list`): GitHub answers both with 422 "No commit found
 * for SHA: …" (what it answers for a commit status too), each with its own documentation link.
 * `commits` null: every commit exists.
 */
export function unknownCommit(
  commits: ReadonlySet<string> | null,
  headSha: unknown,
  request: 'create' | 'list' = 'create',
): Reply | undefined {
  if (commits === null || typeof headSha !== 'string' || commits.has(headSha)) return undefined;
  const anchor =
    request === 'create' ? 'create-a-check-run' : 'list-check-runs-for-a-git-reference';
  return error(422, `No commit found for SHA: ${headSha}`, `${DOCS}/checks/runs#${anchor}`);
}

/**
 * Comments of an issue (or pull request) number the repository does not have: GitHub lists
 * "404 Resource not found" among the answers of listing and of creating issue comments.
 * `issues` null: every number exists.
 */
export function unknownIssue(
  issues: ReadonlySet<number> | null,
  issueNumber: number,
): Reply | undefined {
  if (issues === null || issues.has(issueNumber)) return undefined;
  return error(404, 'Not Found', `${DOCS}/issues/comments#create-an-issue-comment`);
}
