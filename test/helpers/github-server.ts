/**
 * A stand-in for the GitHub REST API on loopback, for tests of `src/github/` and the Action: the
 * routes the Action calls (`GET /user`, `GET /app`, issue comments, check runs, workflow
 * artifacts, a pull request), validated the way GitHub validates them, every request recorded,
 * failures injectable. Faithful where it matters to us: installation tokens (a GITHUB_TOKEN, a
 * GitHub App's) get 403 from `GET /user` and `GET /app`, write as `<slug>[bot]` and may edit only
 * their own comments; a user's token (a PAT) gets 403 on writing a check run, which only apps
 * may (`github-server-gates.ts`); a rejected token (`rejectToken`) gets 401 "Bad credentials"
 * everywhere; a check run on a commit the repository lacks gets 422 and the comments of an issue
 * it lacks 404, once a test names what it has (`state.commits`, `state.issues`); lists page with
 * `Link` headers; artifacts filter by `?name=`; an artifact download answers 302 to a storage
 * host on another port that wants no token; 5xx and rate limits come with GitHub's headers; the
 * headers GitHub asks for are required (`github-server-replies.ts`). It is a fake of the parts we
 * depend on, not a GitHub emulator: one repository's worth of state, no permissions model beyond
 * that.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  GitHubServer,
  GitHubServerOptions,
  GitHubServerState,
  RecordedRequest,
  StoredComment,
  StoredUser,
} from './github-server-types.ts';
import {
  checkRunJson,
  checkRunProblem,
  newCheckRun,
  updateCheckRun,
  commentBodyProblem,
  commentJson,
  DEFAULT_MESSAGES,
  DOCS,
  error,
  headerProblem,
  graphqlReply,
  page,
  pullRequestReply,
  graphqlRateLimitReply,
  rateLimitReply,
  readBody,
  send,
  storedPullRequest,
  type CheckRunFields,
  type Reply,
} from './github-server-replies.ts';
import { identityReply, tokenRefusal, unknownCommit, unknownIssue } from './github-server-gates.ts';
import { actionsReply, storageReply, storedArtifact } from './github-server-artifacts.ts';

export type {
  FakeToken,
  GitHubServer,
  GitHubServerOptions,
  GitHubServerState,
  RecordedRequest,
  StorageDownload,
  StoredArtifact,
  StoredCheckRun,
  StoredComment,
  StoredPullRequest,
  StoredUser,
} from './github-server-types.ts';

/** The author GitHub shows for anything written with a workflow's GITHUB_TOKEN. */
export const ACTIONS_BOT: StoredUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };

interface FailRule {
  method: string;
  pattern: RegExp;
  remaining: number;
  reply: (path: string) => Reply;
}

/** Starts the fake (the API and the storage host) on 127.0.0.1 and OS-chosen ports. */
export async function startGitHubServer(options: GitHubServerOptions = {}): Promise<GitHubServer> {
  const state: GitHubServerState = {
    token: options.user ? { kind: 'user', login: options.user } : { kind: 'actions' },
    comments: new Map(),
    checkRuns: new Map(),
    artifacts: new Map(),
    pulls: new Map(),
    jobs: new Map(),
    storageDownloads: [],
    commits: null,
    issues: null,
  };
  const requests: RecordedRequest[] = [];
  const rules: FailRule[] = [];
  const userIds = new Map<string, number>([[ACTIONS_BOT.login, ACTIONS_BOT.id]]);
  let nextCommentId = 1001;
  let nextCheckRunId = 5001;
  let nextArtifactId = 9001;
  let tick = 0;
  let tokenRejected = false;
  let url = '';
  let storageUrl = '';

  // A clock that moves one second per write keeps timestamps ordered and tests deterministic.
  const now = (): string => new Date(Date.UTC(2024, 0, 1) + tick++ * 1000).toISOString();

  const userFor = (login: string, type: 'User' | 'Bot'): StoredUser => {
    let id = userIds.get(login);
    if (id === undefined) {
      id = 100 + userIds.size;
      userIds.set(login, id);
    }
    return { login, id, type };
  };

  const tokenUser = (): StoredUser => {
    const token = state.token;
    if (token.kind === 'actions') return ACTIONS_BOT;
    return token.kind === 'app'
      ? userFor(`${token.slug}[bot]`, 'Bot')
      : userFor(token.login, 'User');
  };

  const storeComment = (
    owner: string,
    repo: string,
    issueNumber: number,
    body: string,
    user: StoredUser,
  ): StoredComment => {
    const id = nextCommentId++;
    const at = now();
    const comment: StoredComment = {
      id,
      issueNumber,
      body,
      user,
      html_url: `https://github.com/${owner}/${repo}/pull/${issueNumber}#issuecomment-${id}`,
      created_at: at,
      updated_at: at,
    };
    const list = state.comments.get(issueNumber) ?? [];
    list.push(comment);
    state.comments.set(issueNumber, list);
    return comment;
  };

  const findComment = (id: number): StoredComment | undefined => {
    for (const list of state.comments.values()) {
      const found = list.find((comment) => comment.id === id);
      if (found) return found;
    }
    return undefined;
  };

  const route = (
    method: string,
    path: string,
    query: Record<string, string>,
    body: unknown,
  ): Reply => {
    let match: RegExpExecArray | null;

    const identity = method === 'GET' ? identityReply(state.token, path, tokenUser) : undefined;
    if (identity) return identity;

    const refused = tokenRefusal(state.token, method, path);
    if (refused) return refused;

    if ((match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path))) {
      const [, owner = '', repo = '', number = ''] = match;
      const issueNumber = Number(number);
      const missing = unknownIssue(state.issues, issueNumber);
      if (missing) return missing;
      if (method === 'GET') {
        const { items, headers } = page(url, path, query, state.comments.get(issueNumber) ?? []);
        return { status: 200, body: items.map(commentJson), headers };
      }
      if (method === 'POST') {
        const problem = commentBodyProblem(body);
        if (problem) return problem;
        const text = (body as { body: string }).body;
        const comment = storeComment(owner, repo, issueNumber, text, tokenUser());
        return { status: 201, body: commentJson(comment) };
      }
    }

    if (path === '/graphql' && method === 'POST') return graphqlReply(body, findComment);

    if ((match = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path))) {
      const comment = findComment(Number(match[1]));
      if (!comment) return error(404, 'Not Found', `${DOCS}/issues/comments`);
      if (method === 'GET') return { status: 200, body: commentJson(comment) };
      // An installation token edits or deletes only what its own app wrote.
      if (state.token.kind !== 'user' && comment.user.login !== tokenUser().login) {
        return error(403, DEFAULT_MESSAGES[403] ?? '', `${DOCS}/issues/comments`);
      }
      if (method === 'DELETE') {
        const list = [...state.comments.values()].find((listed) => listed.includes(comment));
        list?.splice(list.indexOf(comment), 1);
        return { status: 204, body: Buffer.alloc(0) };
      }
      if (method === 'PATCH') {
        const problem = commentBodyProblem(body);
        if (problem) return problem;
        comment.body = (body as { body: string }).body;
        comment.updated_at = now();
        return { status: 200, body: commentJson(comment) };
      }
    }

    if ((match = /^\/repos\/([^/]+)\/([^/]+)\/check-runs$/.exec(path)) && method === 'POST') {
      const [, owner = '', repo = ''] = match;
      const problem =
        checkRunProblem(body, true) ??
        unknownCommit(state.commits, (body as CheckRunFields).head_sha);
      if (problem) return problem;
      const run = newCheckRun(nextCheckRunId++, owner, repo, body as CheckRunFields);
      state.checkRuns.set(run.id, run);
      return { status: 201, body: checkRunJson(run) };
    }

    if (
      (match = /^\/repos\/[^/]+\/[^/]+\/commits\/([^/]+)\/check-runs$/.exec(path)) &&
      method === 'GET'
    ) {
      // GitHub lists a commit's check runs newest first (an order it does not document, so
      // `checkRunOrder` may turn it), `check_name` an exact match.
      const [, ref = ''] = match;
      const problem = unknownCommit(state.commits, ref, 'list');
      if (problem) return problem;
      const name = query['check_name'];
      const turn = options.checkRunOrder === 'oldest-first' ? -1 : 1;
      const named = [...state.checkRuns.values()]
        .filter((run) => run.head_sha === ref && (name === undefined || run.name === name))
        .sort((a, b) => b.id - a.id);
      // `filter=latest` (GitHub's default) keeps the newest check run of each name, the one a
      // required check reads; `filter=all` keeps every one.
      const all = (
        query['filter'] === 'all'
          ? named
          : named.filter((run, at) => named.findIndex((other) => other.name === run.name) === at)
      ).sort((a, b) => turn * (b.id - a.id));
      const { items, headers } = page(url, path, query, all);
      return {
        status: 200,
        headers,
        body: { total_count: all.length, check_runs: items.map(checkRunJson) },
      };
    }

    if ((match = /^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/.exec(path))) {
      const run = state.checkRuns.get(Number(match[1]));
      if (!run) return error(404, 'Not Found', `${DOCS}/checks/runs`);
      if (method === 'GET') return { status: 200, body: checkRunJson(run) };
      if (method === 'PATCH') {
        const problem = checkRunProblem(body, false);
        if (problem) return problem;
        updateCheckRun(run, body as CheckRunFields);
        return { status: 200, body: checkRunJson(run) };
      }
    }

    const acted =
      method === 'GET' ? actionsReply(state, { url, storageUrl }, path, query) : undefined;
    if (acted) return acted;

    const pulled = method === 'GET' ? pullRequestReply(path, state.pulls) : undefined;
    if (pulled) return pulled;

    return error(404, 'Not Found', DOCS);
  };

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    isStorage: boolean,
  ): Promise<void> => {
    const parsed = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const text = await readBody(req);
    let body: unknown;
    let badJson = false;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        badJson = true;
        body = text;
      }
    }
    const query = Object.fromEntries(parsed.searchParams);
    const path = parsed.pathname;
    requests.push({ method, path, query, headers: req.headers, body, storage: isStorage });

    const rule = rules.find(
      (candidate) =>
        candidate.remaining > 0 && candidate.method === method && candidate.pattern.test(path),
    );
    let reply: Reply;
    if (rule) {
      rule.remaining -= 1;
      reply = rule.reply(path);
    } else if (isStorage) {
      reply =
        method === 'GET' && path.startsWith('/_storage/')
          ? storageReply(state, path, req.headers)
          : { status: 404, body: Buffer.from('ResourceNotFound') };
    } else if (!req.headers.authorization) {
      reply = error(401, 'Requires authentication', DOCS);
    } else if (tokenRejected) {
      // A revoked, expired or mistyped token: GitHub refuses every request it makes, reads too.
      reply = error(401, 'Bad credentials', DOCS);
    } else {
      reply =
        headerProblem(req.headers) ??
        (badJson ? error(400, 'Problems parsing JSON', DOCS) : route(method, path, query, body));
    }
    send(res, reply);
  };

  const listen = async (isStorage: boolean): Promise<{ server: Server; url: string }> => {
    const server = createServer((req, res) => {
      handle(req, res, isStorage).catch((cause: unknown) => {
        send(res, error(500, `test server bug: ${String(cause)}`, DOCS));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return { server, url: `http://127.0.0.1:${port}` };
  };
  const api = await listen(false);
  const store = await listen(true);
  url = api.url;
  storageUrl = options.storageHost
    ? store.url.replace('127.0.0.1', options.storageHost)
    : store.url;

  const addRule = (
    method: string,
    pattern: RegExp,
    times: number,
    reply: (path: string) => Reply,
  ): void => {
    rules.push({ method: method.toUpperCase(), pattern, remaining: times, reply });
  };

  return {
    url,
    storageUrl,
    requests,
    state,
    failNext(method, pathPattern, status, times = 1, body, headers) {
      addRule(method, pathPattern, times, () => ({
        status,
        body: body ?? {
          message: DEFAULT_MESSAGES[status] ?? 'Error',
          documentation_url: DOCS,
          status: String(status),
        },
        ...(headers ? { headers } : {}),
      }));
    },
    rateLimitNext(method, pathPattern, kind, retryAfterSeconds, times = 1) {
      addRule(method, pathPattern, times, (path) =>
        rateLimitReply(kind, retryAfterSeconds, path === '/graphql'),
      );
    },
    graphqlRateLimitNext(limit, times = 1) {
      addRule('POST', /^\/graphql$/, times, () => graphqlRateLimitReply(limit));
    },
    setUser(login, { writesComments = true, readsActions = true } = {}) {
      state.token =
        login === null
          ? { kind: 'actions' }
          : { kind: 'user', login, writesComments, readsActions };
    },
    setAppToken(slug) {
      state.token = { kind: 'app', slug };
    },
    rejectToken(rejected = true) {
      tokenRejected = rejected;
    },
    addArtifact(artifact) {
      const stored = storedArtifact(nextArtifactId++, artifact, now);
      state.artifacts.set(stored.id, stored);
      return stored;
    },
    addPullRequest(pull) {
      const stored = storedPullRequest(pull);
      state.pulls.set(stored.number, stored);
      return stored;
    },
    addComment(issueNumber, comment) {
      const user = userFor(comment.login ?? 'someone', comment.type ?? 'User');
      return storeComment('owner', 'repo', issueNumber, comment.body, user);
    },
    async close() {
      await Promise.all([closeServer(api.server), closeServer(store.server)]);
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.close((cause) => (cause ? reject(cause) : resolve()));
    // octokit's fetch keeps connections alive; without this close() waits for their timeout.
    server.closeAllConnections();
  });
}
