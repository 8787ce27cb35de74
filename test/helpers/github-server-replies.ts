/**
 * What the fake GitHub (`github-server.ts`) answers: its validation of comment bodies the way
 * GitHub validates them, the JSON shapes of comments, artifacts and pull requests, pagination
 * with `Link` headers, rate-limit answers and header checks. Check runs live in `github-server-check-runs.ts`,
 * error bodies in `github-server-errors.ts`, GraphQL in `github-server-graphql.ts`. No state lives here.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import {
  DOCS,
  error,
  invalid,
  isRecord,
  validationFailed,
  type Reply,
} from './github-server-errors.ts';
import type {
  GitHubServer,
  StoredArtifact,
  StoredComment,
  StoredPullRequest,
} from './github-server-types.ts';

// What the fake answers, by topic; `github-server.ts` imports it all from here.
export { DOCS, error, type Reply } from './github-server-errors.ts';
export { graphqlRateLimitReply, graphqlReply } from './github-server-graphql.ts';
import { graphqlRateLimitReply } from './github-server-graphql.ts';
export {
  checkRunJson,
  checkRunProblem,
  newCheckRun,
  updateCheckRun,
  type CheckRunFields,
} from './github-server-check-runs.ts';

/** GitHub's limits the fake enforces (docs.github.com/rest/issues/comments). */
const MAX_COMMENT_CHARS = 65536;
const MAX_PER_PAGE = 100;
const DEFAULT_PER_PAGE = 30;
/** The one REST API version GitHub serves (docs.github.com/rest/about-the-rest-api/api-versions). */
export const API_VERSION = '2022-11-28';

export const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Problems parsing JSON',
  401: 'Bad credentials',
  403: 'Resource not accessible by integration',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Validation Failed',
  429: 'API rate limit exceeded',
  500: 'Server Error',
  502: 'Server Error',
  503: 'Service Unavailable',
};

/** The `repository_id` of the one repository the fake serves, and of a fork of it. */
const REPOSITORY_ID = 4200;
const FORK_REPOSITORY_ID = 4201;
/** GitHub's default artifact retention. */
const RETENTION_MS = 90 * 24 * 3600 * 1000;

/**
 * The headers GitHub asks every client to send, checked as a strict GitHub would: a missing
 * User-Agent is refused (403, as GitHub does), and so is a missing or unknown
 * `X-GitHub-Api-Version` or an `Accept` that does not ask for `application/vnd.github+json`
 * (400: GitHub itself would fall back to defaults, which is what the check catches).
 */
export function headerProblem(headers: IncomingHttpHeaders): Reply | undefined {
  if (!headers['user-agent']) {
    return error(
      403,
      'Request forbidden by administrative rules. Please make sure your request has a User-Agent header',
      `${DOCS}/overview/resources-in-the-rest-api#user-agent-required`,
    );
  }
  const version = headers['x-github-api-version'];
  if (version !== API_VERSION) {
    return error(
      400,
      version === undefined
        ? `fake GitHub: the request has no X-GitHub-Api-Version header (expected ${API_VERSION})`
        : `API version ${String(version)} is not supported.`,
      `${DOCS}/about-the-rest-api/api-versions`,
    );
  }
  if (!String(headers.accept ?? '').includes('application/vnd.github+json')) {
    return error(
      400,
      `fake GitHub: Accept is ${JSON.stringify(headers.accept ?? '')}, expected application/vnd.github+json`,
      `${DOCS}/using-the-rest-api/getting-started-with-the-rest-api#media-types`,
    );
  }
  return undefined;
}

/**
 * GitHub's answer to a secondary rate limit (403 with `retry-after`, and a message octokit's
 * throttling plugin recognises) or to an exhausted primary one (`x-ratelimit-remaining: 0` and
 * the reset time): from REST a 403; from GraphQL as `graphqlRateLimitReply` words them (a 403
 * with `retry-after`, a 200 with a `RATE_LIMITED` error).
 */
export function rateLimitReply(
  kind: 'secondary' | 'primary',
  retryAfterSeconds: number,
  graphql = false,
): Reply {
  if (graphql) {
    return graphqlRateLimitReply(
      kind === 'secondary'
        ? { kind, status: 403, retryAfterSeconds }
        : { kind, type: 'RATE_LIMITED', resetInSeconds: retryAfterSeconds },
    );
  }
  if (kind === 'secondary') {
    return {
      status: 403,
      body: {
        message:
          'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url: `${DOCS}/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
        status: '403',
      },
      headers: { 'retry-after': String(retryAfterSeconds) },
    };
  }
  const reset = Math.ceil(Date.now() / 1000) + retryAfterSeconds;
  const limit = {
    'x-ratelimit-limit': '1000',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(reset),
  };
  return {
    status: 403,
    body: {
      message: 'API rate limit exceeded for installation.',
      documentation_url: `${DOCS}/using-the-rest-api/rate-limits-for-the-rest-api`,
      status: '403',
    },
    headers: limit,
  };
}

/** One page of `all` as `per_page`/`page` ask, with the Link relations GitHub sends. */
export function page<T>(
  base: string,
  path: string,
  query: Record<string, string>,
  all: T[],
): { items: T[]; headers: Record<string, string> } {
  const perPage = clamp(
    Number(query['per_page'] ?? DEFAULT_PER_PAGE) || DEFAULT_PER_PAGE,
    1,
    MAX_PER_PAGE,
  );
  const current = Math.max(1, Math.floor(Number(query['page'] ?? 1) || 1));
  const last = Math.max(1, Math.ceil(all.length / perPage));
  const link = (n: number): string => {
    const params = new URLSearchParams({ ...query, per_page: String(perPage), page: String(n) });
    return `${base}${path}?${params.toString()}`;
  };
  // next/last while more pages follow, prev/first after page 1.
  const rels: string[] = [];
  if (current < last)
    rels.push(`<${link(current + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
  if (current > 1) rels.push(`<${link(current - 1)}>; rel="prev"`, `<${link(1)}>; rel="first"`);
  return {
    items: all.slice((current - 1) * perPage, current * perPage),
    headers: rels.length > 0 ? { link: rels.join(', ') } : {},
  };
}

/** A comment body: present, and at most 65,536 characters. */
export function commentBodyProblem(body: unknown): Reply | undefined {
  if (!isRecord(body) || typeof body['body'] !== 'string')
    return invalid('"body" wasn\'t supplied.');
  if (body['body'].length > MAX_COMMENT_CHARS) {
    return validationFailed(
      'IssueComment',
      'unprocessable',
      'data',
      `Body is too long (maximum is ${MAX_COMMENT_CHARS} characters)`,
      `${DOCS}/issues/comments`,
    );
  }
  return undefined;
}

export function commentJson(comment: StoredComment): Record<string, unknown> {
  return {
    id: comment.id,
    node_id: `IC_kw${comment.id}`,
    body: comment.body,
    user: comment.user,
    html_url: comment.html_url,
    created_at: comment.created_at,
    updated_at: comment.updated_at,
    author_association: comment.user.type === 'Bot' ? 'NONE' : 'MEMBER',
  };
}

export function artifactJson(
  base: string,
  owner: string,
  repo: string,
  artifact: StoredArtifact,
): Record<string, unknown> {
  const api = `${base}/repos/${owner}/${repo}/actions/artifacts/${artifact.id}`;
  return {
    id: artifact.id,
    node_id: `MDg6QXJ0aWZhY3Q${artifact.id}`,
    name: artifact.name,
    size_in_bytes: artifact.zip.length,
    url: api,
    archive_download_url: `${api}/zip`,
    expired: artifact.expired,
    created_at: artifact.created_at,
    updated_at: artifact.created_at,
    expires_at: new Date(Date.parse(artifact.created_at) + RETENTION_MS).toISOString(),
    workflow_run: {
      id: artifact.runId,
      repository_id: REPOSITORY_ID,
      head_repository_id: artifact.fromFork ? FORK_REPOSITORY_ID : REPOSITORY_ID,
      head_branch: artifact.branch,
      head_sha: artifact.headSha,
    },
  };
}

/** The run that uploaded `artifact`, as `GET …/actions/runs/:id` answers it (the fields read). */
export function workflowRunJson(artifact: StoredArtifact): Record<string, unknown> {
  return {
    id: artifact.runId,
    event: artifact.event,
    status: 'completed',
    head_branch: artifact.branch,
    head_sha: artifact.headSha,
    repository: { id: REPOSITORY_ID },
    head_repository: { id: artifact.fromFork ? FORK_REPOSITORY_ID : REPOSITORY_ID },
  };
}

/**
 * `GET /repos/:owner/:repo/pulls/:number`: the seeded pull request, a 404 for any other number,
 * undefined for another path. The body holds the fields the Action reads, and enough around them
 * to look like GitHub's (an open pull request within the repository).
 */
export function pullRequestReply(
  path: string,
  pulls: ReadonlyMap<number, StoredPullRequest>,
): Reply | undefined {
  const match = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/.exec(path);
  if (!match) return undefined;
  const [, owner = '', repo = '', number = ''] = match;
  const pull = pulls.get(Number(number));
  if (!pull) return error(404, 'Not Found', `${DOCS}/pulls/pulls#get-a-pull-request`);
  const repository = { id: REPOSITORY_ID, full_name: `${owner}/${repo}` };
  const body = {
    number: pull.number,
    html_url: `https://github.com/${owner}/${repo}/pull/${pull.number}`,
    head: { sha: pull.headSha, ref: pull.headRef, repo: repository },
    base: { sha: pull.baseSha, ref: pull.baseRef, repo: repository },
    merge_commit_sha: pull.mergeCommitSha,
    merged_at: pull.mergedAt,
    state: pull.mergedAt === null ? 'open' : 'closed',
    mergeable: pull.mergeCommitSha === null ? null : true,
  };
  return { status: 200, body };
}

/** A pull request to seed, with the defaults {@link GitHubServer.addPullRequest} documents. */
export function storedPullRequest(
  pull: Parameters<GitHubServer['addPullRequest']>[0],
): StoredPullRequest {
  return {
    number: pull.number,
    headSha: pull.headSha,
    headRef: pull.headRef ?? 'feature',
    mergeCommitSha: pull.mergeCommitSha ?? null,
    mergedAt: pull.mergedAt ?? null,
    baseRef: pull.baseRef ?? 'main',
    baseSha: pull.baseSha ?? 'c'.repeat(40),
  };
}

export function send(res: ServerResponse, reply: Reply): void {
  if (Buffer.isBuffer(reply.body)) {
    // Bytes (an archive, a redirect's empty body) go out as they are, not as JSON.
    res.writeHead(reply.status, {
      'content-type': 'application/octet-stream',
      'content-length': reply.body.length,
      ...reply.headers,
    });
    res.end(reply.body);
    return;
  }
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...reply.headers,
  });
  res.end(text);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.floor(value)));
}
