/**
 * The GraphQL of the fake GitHub (`github-server.ts`): the two queries the Action sends about
 * stale comments. No state lives here; the server hands its comments in.
 */
import type { Reply } from './github-server-errors.ts';
import type { StoredComment } from './github-server-types.ts';

/**
 * `POST /graphql` for the two queries the Action sends: whether comments are hidden already
 * (`nodes(ids:)` with `isMinimized` and `minimizedReason`, the reason lower-case as GitHub's
 * `Minimizable` interface words it: `outdated` for the OUTDATED classifier), and hiding a comment
 * as outdated (`minimizeComment`), which anyone with triage or write access may do to anyone's
 * comment. GitHub answers a GraphQL error with 200 and `errors`, beside the data it could give.
 */
export function graphqlReply(
  body: unknown,
  find: (id: number) => StoredComment | undefined,
): Reply {
  const { query = '', variables = {} } = (body ?? {}) as {
    query?: string;
    variables?: { id?: string; ids?: unknown };
  };
  if (/^query\(\$ids: \[ID!\]!\) \{ nodes\(ids: \$ids\) \{ \.\.\. on IssueComment \{/.test(query)) {
    return nodesReply(query, variables.ids, find);
  }
  if (!/minimizeComment\(input: \{ subjectId: \$id, classifier: OUTDATED \}\)/.test(query)) {
    return { status: 200, body: { errors: [{ message: 'unsupported query' }] } };
  }
  const comment = commentOfNode(variables.id, find);
  if (!comment) {
    return {
      status: 200,
      body: { data: { minimizeComment: null }, errors: [notFound(variables.id)] },
    };
  }
  comment.minimized = 'OUTDATED';
  return {
    status: 200,
    body: { data: { minimizeComment: { minimizedComment: { isMinimized: true } } } },
  };
}

/** The comment a node id (`IC_kw<id>`, as `commentJson` writes it) names. */
function commentOfNode(
  id: unknown,
  find: (id: number) => StoredComment | undefined,
): StoredComment | undefined {
  const match = typeof id === 'string' ? /^IC_kw(\d+)$/.exec(id) : null;
  return match ? find(Number(match[1])) : undefined;
}

function notFound(id: unknown): Record<string, unknown> {
  return {
    type: 'NOT_FOUND',
    message: `Could not resolve to a node with the global id of '${typeof id === 'string' ? id : JSON.stringify(id)}'`,
  };
}

/** The most ids GitHub's GraphQL `nodes` takes in one query. */
const MAX_NODE_IDS = 100;

/**
 * `nodes(ids:)`: each comment's `id` and the fields the query names of `isMinimized` and
 * `minimizedReason`, in the order asked; null and an error for an id naming no comment; only an
 * error for over 100 ids.
 */
function nodesReply(
  query: string,
  ids: unknown,
  find: (id: number) => StoredComment | undefined,
): Reply {
  if (!Array.isArray(ids)) {
    return { status: 200, body: { errors: [{ message: 'ids: expected a list of IDs' }] } };
  }
  // What GitHub answers a query over the limit (it does not document it): no data at all, not
  // even for the first 100.
  if (ids.length > MAX_NODE_IDS) {
    const message = `You may not provide more than ${MAX_NODE_IDS} node ids; you provided ${ids.length}.`;
    return {
      status: 200,
      body: { data: null, errors: [{ type: 'ARGUMENT_LIMIT', message, path: ['nodes'] }] },
    };
  }
  const fields = /\.\.\. on IssueComment \{([^}]*)\}/.exec(query)?.[1]?.trim().split(/\s+/) ?? [];
  const errors: Record<string, unknown>[] = [];
  const nodes = ids.map((id: unknown) => {
    const comment = commentOfNode(id, find);
    if (!comment) {
      errors.push(notFound(id));
      return null;
    }
    const all: Record<string, unknown> = {
      id,
      isMinimized: comment.minimized !== undefined,
      minimizedReason: comment.minimized?.toLowerCase().replaceAll('_', '-') ?? null,
    };
    return Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]));
  });
  return { status: 200, body: { data: { nodes }, ...(errors.length > 0 ? { errors } : {}) } };
}

/**
 * How GitHub's GraphQL API answers a rate limit
 * (docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#exceeding-the-rate-limit):
 * a spent primary limit with 200 and an error of type `RATE_LIMITED` (the type the docs' examples
 * and octokit's throttling plugin know) or `RATE_LIMIT` with code `graphql_rate_limit` (seen from
 * GitHub since, yanyongyu/githubkit#271), no data; `x-ratelimit-remaining` has been seen not to be
 * 0 on it (octokit/plugin-throttling.js#632). A secondary limit with 200 or 403 and a message
 * saying so: the 403 with the REST error body (octokit/plugin-throttling.js#438), the 200 with the
 * message as a GraphQL error; `retry-after` only sometimes (the plugin's "can sometimes be blank").
 */
export type GraphqlRateLimit =
  | {
      kind: 'primary';
      type: 'RATE_LIMITED' | 'RATE_LIMIT';
      resetInSeconds: number;
      /** `x-ratelimit-remaining`; '0' unless said. */
      remaining?: string;
    }
  | { kind: 'secondary'; status: 200 | 403; retryAfterSeconds?: number };

const SECONDARY_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 9C31:8954C:60104B:C1D441:688BE22C.';

/** GitHub's GraphQL answer to `limit`, with the rate-limit headers every answer carries. */
export function graphqlRateLimitReply(limit: GraphqlRateLimit): Reply {
  const now = Math.ceil(Date.now() / 1000);
  if (limit.kind === 'primary') {
    const remaining = limit.remaining ?? '0';
    const error =
      limit.type === 'RATE_LIMITED'
        ? { type: 'RATE_LIMITED', message: 'API rate limit exceeded for installation ID 1.' }
        : {
            type: 'RATE_LIMIT',
            code: 'graphql_rate_limit',
            message: 'API rate limit already exceeded for installation ID 1.',
          };
    return {
      status: 200,
      body: { data: null, errors: [error] },
      headers: rateHeaders(remaining, now + limit.resetInSeconds),
    };
  }
  const headers = {
    ...rateHeaders('4990', now + 3600),
    ...(limit.retryAfterSeconds !== undefined && {
      'retry-after': String(limit.retryAfterSeconds),
    }),
  };
  if (limit.status === 403) {
    return {
      status: 403,
      body: {
        documentation_url:
          'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        message: SECONDARY_MESSAGE,
      },
      headers,
    };
  }
  return { status: 200, body: { data: null, errors: [{ message: SECONDARY_MESSAGE }] }, headers };
}

/** The `x-ratelimit-*` headers of a GraphQL answer: the `graphql` resource's. */
function rateHeaders(remaining: string, reset: number): Record<string, string> {
  return {
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': remaining,
    'x-ratelimit-used': String(5000 - Number(remaining)),
    'x-ratelimit-reset': String(reset),
    'x-ratelimit-resource': 'graphql',
  };
}
