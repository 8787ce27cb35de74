/**
 * A stand-in for the GitHub REST API on loopback, for tests of `src/github/`: the routes the
 * Action calls (`GET /user`, issue comments, check runs), validated the way GitHub validates
 * them, every request recorded, failures injectable. It is a fake of the parts we depend on,
 * not a GitHub emulator: one repository's worth of state, no permissions model.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it; `body` is the parsed JSON (undefined when empty). */
export interface RecordedRequest {
  method: string;
  /** The path without the query string, e.g. `/repos/o/r/check-runs`. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A comment author as GitHub shows it in `comment.user`. */
export interface StoredUser {
  login: string;
  id: number;
  type: 'User' | 'Bot';
}

/** An issue or pull-request comment held by the server. */
export interface StoredComment {
  id: number;
  issueNumber: number;
  body: string;
  user: StoredUser;
  html_url: string;
  created_at: string;
  updated_at: string;
}

/** A check run held by the server, with every annotation it was sent. */
export interface StoredCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  details_url: string | null;
  html_url: string;
  output: { title: string | null; summary: string | null; text: string | null };
  /** All annotations in the order received; GitHub appends on every request, so do we. */
  annotations: Record<string, unknown>[];
  /** The annotations of each accepted request (POST first, then every PATCH). */
  batches: Record<string, unknown>[][];
}

/** A workflow artifact held by the server (seed it with {@link GitHubServer.addArtifact}). */
export interface StoredArtifact {
  id: number;
  name: string;
  /** The uploading run's `head_branch`. */
  branch: string;
  created_at: string;
  expired: boolean;
  /** The archive GET …/zip redirects to. */
  zip: Buffer;
  runId: number;
  headSha: string;
  /** Uploaded by a run for a pull request from a fork: `head_repository_id` ≠ `repository_id`. */
  fromFork: boolean;
}

/** One download from the fake artifact storage, as received. */
export interface StorageDownload {
  artifactId: number;
  /** The Authorization header the storage received; undefined when none (as it must be). */
  authorization: string | undefined;
}

/** What the server holds; tests read it and may seed it. */
export interface GitHubServerState {
  /** The token's own user; null means a GITHUB_TOKEN (GET /user answers 403). */
  user: string | null;
  /** Comments per issue (pull request) number, oldest first. */
  comments: Map<number, StoredComment[]>;
  checkRuns: Map<number, StoredCheckRun>;
  /** Workflow artifacts by id. */
  artifacts: Map<number, StoredArtifact>;
  /** Every request to the fake storage host (`/_storage/:id`), in order. */
  storageDownloads: StorageDownload[];
}

/** Options for {@link startGitHubServer}. */
export interface GitHubServerOptions {
  /** The token's user (a PAT); default null, which behaves like a GITHUB_TOKEN. */
  user?: string | null;
}

/** A running fake; close it in `after`. */
export interface GitHubServer {
  /** `http://127.0.0.1:PORT`, to pass as octokit's `baseUrl`. */
  url: string;
  requests: RecordedRequest[];
  state: GitHubServerState;
  /**
   * Answers the next `times` requests whose method and path match with `status` and a
   * GitHub-like JSON error (`{ message, documentation_url }`), or with `body` when given.
   */
  failNext(
    method: string,
    pathPattern: RegExp,
    status: number,
    times?: number,
    body?: unknown,
  ): void;
  /** Sets the token's user: a login (GET /user → 200) or null (GET /user → 403, a GITHUB_TOKEN). */
  setUser(login: string | null): void;
  /** Seeds a comment on an issue as if someone had written it; returns it. */
  addComment(
    issueNumber: number,
    comment: { body: string; login?: string; type?: 'User' | 'Bot' },
  ): StoredComment;
  /**
   * Seeds a workflow artifact. `GET …/actions/artifacts/:id/zip` answers 302 to
   * `/_storage/:id` on this server, which serves `zip` without asking for a token, like
   * GitHub's signed storage URLs. Defaults: not expired, not from a fork, `created_at` from the
   * server's clock.
   */
  addArtifact(artifact: {
    name: string;
    branch: string;
    zip: Buffer;
    createdAt?: string;
    expired?: boolean;
    runId?: number;
    headSha?: string;
    fromFork?: boolean;
  }): StoredArtifact;
  close(): Promise<void>;
}

/** The author GitHub shows for anything written with a workflow's GITHUB_TOKEN. */
export const ACTIONS_BOT: StoredUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };

/** GitHub's limits the fake enforces (docs.github.com/rest/checks/runs, /rest/issues/comments). */
const MAX_ANNOTATIONS = 50;
const MAX_OUTPUT_CHARS = 65535;
const MAX_COMMENT_CHARS = 65536;
const MAX_PER_PAGE = 100;
const DEFAULT_PER_PAGE = 30;
const DOCS = 'https://docs.github.com/rest';

const DEFAULT_MESSAGES: Record<number, string> = {
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

interface FailRule {
  method: string;
  pattern: RegExp;
  status: number;
  remaining: number;
  body: unknown;
}

/** An answer to send: status, JSON body, extra headers. */
interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The `repository_id` of the one repository the fake serves, and of a fork of it. */
const REPOSITORY_ID = 4200;
const FORK_REPOSITORY_ID = 4201;
/** GitHub's default artifact retention. */
const RETENTION_MS = 90 * 24 * 3600 * 1000;

/** Starts the fake on 127.0.0.1 and an OS-chosen port. */
export async function startGitHubServer(options: GitHubServerOptions = {}): Promise<GitHubServer> {
  const state: GitHubServerState = {
    user: options.user ?? null,
    comments: new Map(),
    checkRuns: new Map(),
    artifacts: new Map(),
    storageDownloads: [],
  };
  const requests: RecordedRequest[] = [];
  const rules: FailRule[] = [];
  const userIds = new Map<string, number>([[ACTIONS_BOT.login, ACTIONS_BOT.id]]);
  let nextCommentId = 1001;
  let nextCheckRunId = 5001;
  let nextArtifactId = 9001;
  let tick = 0;
  let url = '';

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

  const tokenUser = (): StoredUser =>
    state.user === null ? ACTIONS_BOT : userFor(state.user, 'User');

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

    if (path === '/user' && method === 'GET') {
      if (state.user === null) {
        return error(
          403,
          'Resource not accessible by integration',
          `${DOCS}/users/users#get-the-authenticated-user`,
        );
      }
      const user = tokenUser();
      return { status: 200, body: { login: user.login, id: user.id, type: user.type } };
    }

    if ((match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path))) {
      const [, owner = '', repo = '', number = ''] = match;
      const issueNumber = Number(number);
      if (method === 'GET') return listComments(path, query, state.comments.get(issueNumber) ?? []);
      if (method === 'POST') {
        const problem = commentBodyProblem(body);
        if (problem) return problem;
        const comment = storeComment(
          owner,
          repo,
          issueNumber,
          (body as { body: string }).body,
          tokenUser(),
        );
        return { status: 201, body: commentJson(comment) };
      }
    }

    if ((match = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path))) {
      const comment = findComment(Number(match[1]));
      if (!comment) return error(404, 'Not Found', `${DOCS}/issues/comments`);
      if (method === 'GET') return { status: 200, body: commentJson(comment) };
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
      const problem = checkRunProblem(body, true);
      if (problem) return problem;
      const fields = body as CheckRunFields;
      const id = nextCheckRunId++;
      const annotations = fields.output?.annotations ?? [];
      const run: StoredCheckRun = {
        id,
        name: fields.name ?? '',
        head_sha: fields.head_sha ?? '',
        status: fields.conclusion !== undefined ? 'completed' : (fields.status ?? 'queued'),
        conclusion: fields.conclusion ?? null,
        details_url: fields.details_url ?? null,
        html_url: `https://github.com/${owner}/${repo}/runs/${id}`,
        output: {
          title: fields.output?.title ?? null,
          summary: fields.output?.summary ?? null,
          text: fields.output?.text ?? null,
        },
        annotations: [...annotations],
        batches: [annotations],
      };
      state.checkRuns.set(id, run);
      return { status: 201, body: checkRunJson(run) };
    }

    if ((match = /^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/.exec(path))) {
      const run = state.checkRuns.get(Number(match[1]));
      if (!run) return error(404, 'Not Found', `${DOCS}/checks/runs`);
      if (method === 'GET') return { status: 200, body: checkRunJson(run) };
      if (method === 'PATCH') {
        const problem = checkRunProblem(body, false);
        if (problem) return problem;
        const fields = body as CheckRunFields;
        if (fields.name !== undefined) run.name = fields.name;
        if (fields.status !== undefined) run.status = fields.status;
        if (fields.conclusion !== undefined) {
          run.conclusion = fields.conclusion;
          run.status = 'completed';
        }
        if (fields.details_url !== undefined) run.details_url = fields.details_url;
        if (fields.output) {
          run.output.title = fields.output.title ?? run.output.title;
          run.output.summary = fields.output.summary ?? run.output.summary;
          run.output.text = fields.output.text ?? run.output.text;
          const annotations = fields.output.annotations ?? [];
          run.annotations.push(...annotations);
          run.batches.push(annotations);
        }
        return { status: 200, body: checkRunJson(run) };
      }
    }

    if (
      (match = /^\/repos\/([^/]+)\/([^/]+)\/actions\/artifacts$/.exec(path)) &&
      method === 'GET'
    ) {
      const [, owner = '', repo = ''] = match;
      // GitHub's `name` filter is an exact match. The order is not documented; GitHub answers
      // newest first, and so does the fake.
      const name = query['name'];
      const all = [...state.artifacts.values()]
        .filter((artifact) => name === undefined || artifact.name === name)
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
      const { items, headers } = page(path, query, all);
      return {
        status: 200,
        body: {
          total_count: all.length,
          artifacts: items.map((artifact) => artifactJson(url, owner, repo, artifact)),
        },
        headers,
      };
    }

    if (
      (match = /^\/repos\/[^/]+\/[^/]+\/actions\/artifacts\/(\d+)\/([^/]+)$/.exec(path)) &&
      method === 'GET'
    ) {
      const artifact = state.artifacts.get(Number(match[1]));
      const docs = `${DOCS}/actions/artifacts#download-an-artifact`;
      if (!artifact || match[2] !== 'zip') return error(404, 'Not Found', docs);
      if (artifact.expired) return error(410, 'Artifact has expired', docs);
      return {
        status: 302,
        body: Buffer.alloc(0),
        // Like GitHub's signed storage URLs: the query is the credential.
        headers: { location: `${url}/_storage/${artifact.id}?sig=secret-signature&se=1` },
      };
    }

    return error(404, 'Not Found', DOCS);
  };

  /** The fake storage host: no token needed (the URL is the credential), bytes not JSON. */
  const storage = (path: string, headers: IncomingHttpHeaders): Reply => {
    const id = Number(/^\/_storage\/(\d+)$/.exec(path)?.[1] ?? NaN);
    state.storageDownloads.push({ artifactId: id, authorization: headers.authorization });
    const artifact = state.artifacts.get(id);
    if (!artifact) return { status: 404, body: Buffer.from('BlobNotFound') };
    return {
      status: 200,
      body: artifact.zip,
      headers: { 'content-type': 'application/zip' },
    };
  };

  /** One page of `all` as `per_page`/`page` ask, with the Link header GitHub sends. */
  const page = <T>(
    path: string,
    query: Record<string, string>,
    all: T[],
  ): { items: T[]; headers: Record<string, string> } => {
    const perPage = clamp(
      Number(query['per_page'] ?? DEFAULT_PER_PAGE) || DEFAULT_PER_PAGE,
      1,
      MAX_PER_PAGE,
    );
    const current = Math.max(1, Math.floor(Number(query['page'] ?? 1) || 1));
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const link = (n: number): string => {
      const params = new URLSearchParams({ ...query, per_page: String(perPage), page: String(n) });
      return `${url}${path}?${params.toString()}`;
    };
    const rels: string[] = [];
    if (current < last)
      rels.push(`<${link(current + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
    if (current > 1) rels.push(`<${link(current - 1)}>; rel="prev"`, `<${link(1)}>; rel="first"`);
    return {
      items: all.slice((current - 1) * perPage, current * perPage),
      headers: rels.length > 0 ? { link: rels.join(', ') } : {},
    };
  };

  const listComments = (
    path: string,
    query: Record<string, string>,
    all: StoredComment[],
  ): Reply => {
    const perPage = clamp(
      Number(query['per_page'] ?? DEFAULT_PER_PAGE) || DEFAULT_PER_PAGE,
      1,
      MAX_PER_PAGE,
    );
    const page = Math.max(1, Math.floor(Number(query['page'] ?? 1) || 1));
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const items = all.slice((page - 1) * perPage, page * perPage).map(commentJson);
    const link = (n: number): string => {
      const params = new URLSearchParams({ ...query, per_page: String(perPage), page: String(n) });
      return `${url}${path}?${params.toString()}`;
    };
    // Same relations GitHub sends: next/last while more pages follow, prev/first after page 1.
    const rels: string[] = [];
    if (page < last) rels.push(`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
    if (page > 1) rels.push(`<${link(page - 1)}>; rel="prev"`, `<${link(1)}>; rel="first"`);
    return { status: 200, body: items, headers: rels.length > 0 ? { link: rels.join(', ') } : {} };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
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
    requests.push({ method, path: parsed.pathname, query, headers: req.headers, body });

    let reply: Reply;
    const rule = rules.find(
      (candidate) =>
        candidate.remaining > 0 &&
        candidate.method === method &&
        candidate.pattern.test(parsed.pathname),
    );
    if (rule) {
      rule.remaining -= 1;
      reply = {
        status: rule.status,
        body: rule.body ?? {
          message: DEFAULT_MESSAGES[rule.status] ?? 'Error',
          documentation_url: DOCS,
          status: String(rule.status),
        },
      };
    } else if (parsed.pathname.startsWith('/_storage/') && method === 'GET') {
      reply = storage(parsed.pathname, req.headers);
    } else if (!req.headers.authorization) {
      reply = error(401, 'Requires authentication', DOCS);
    } else if (badJson) {
      reply = error(400, 'Problems parsing JSON', DOCS);
    } else {
      reply = route(method, parsed.pathname, query, body);
    }
    send(res, reply);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((cause: unknown) => {
      send(res, error(500, `test server bug: ${String(cause)}`, DOCS));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;

  return {
    url,
    requests,
    state,
    failNext(method, pathPattern, status, times = 1, body) {
      rules.push({
        method: method.toUpperCase(),
        pattern: pathPattern,
        status,
        remaining: times,
        body,
      });
    },
    setUser(login) {
      state.user = login;
    },
    addArtifact(artifact) {
      const id = nextArtifactId++;
      const stored: StoredArtifact = {
        id,
        name: artifact.name,
        branch: artifact.branch,
        created_at: artifact.createdAt ?? now(),
        expired: artifact.expired ?? false,
        zip: artifact.zip,
        runId: artifact.runId ?? 70000 + id,
        headSha: artifact.headSha ?? id.toString(16).padStart(40, '0'),
        fromFork: artifact.fromFork ?? false,
      };
      state.artifacts.set(id, stored);
      return stored;
    },
    addComment(issueNumber, comment) {
      const user = userFor(comment.login ?? 'someone', comment.type ?? 'User');
      return storeComment('owner', 'repo', issueNumber, comment.body, user);
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((cause) => (cause ? reject(cause) : resolve()));
        // octokit's fetch keeps connections alive; without this close() waits for their timeout.
        server.closeAllConnections();
      });
    },
  };
}

/** The fields of a check-run request body the fake looks at. */
interface CheckRunFields {
  name?: string;
  head_sha?: string;
  status?: string;
  conclusion?: string;
  details_url?: string;
  output?: {
    title?: string;
    summary?: string;
    text?: string;
    annotations?: Record<string, unknown>[];
  };
}

const CONCLUSIONS = [
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'success',
  'skipped',
  'stale',
  'timed_out',
];
const STATUSES = ['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending'];
const LEVELS = ['notice', 'warning', 'failure'];
const ANNOTATION_REQUIRED = ['path', 'start_line', 'end_line', 'annotation_level', 'message'];

/**
 * GitHub's checks for a create (POST) or update (PATCH) body, with its answers: 422
 * "Invalid request." plus a reason. Messages follow what GitHub sends as seen in the wild
 * ("No more than 50 items are allowed; 77 were supplied.", "Only 65535 characters are
 * allowed; 68372 were supplied."); GitHub also counts the summary in UTF-8 bytes.
 */
function checkRunProblem(body: unknown, creating: boolean): Reply | undefined {
  if (!isRecord(body)) return invalid('the body must be a JSON object.');
  const missing: string[] = [];
  if (creating) {
    for (const field of ['name', 'head_sha'])
      if (typeof body[field] !== 'string' || body[field] === '') missing.push(field);
  }
  const status = body['status'];
  if (status !== undefined && (typeof status !== 'string' || !STATUSES.includes(status))) {
    return invalid(
      `For 'properties/status', ${JSON.stringify(status)} is not a member of the enum.`,
    );
  }
  const conclusion = body['conclusion'];
  if (
    conclusion !== undefined &&
    (typeof conclusion !== 'string' || !CONCLUSIONS.includes(conclusion))
  ) {
    return invalid(
      `For 'properties/conclusion', ${JSON.stringify(conclusion)} is not a member of the enum.`,
    );
  }
  if (body['status'] === 'completed' && body['conclusion'] === undefined)
    missing.push('conclusion');
  const output = body['output'];
  if (output !== undefined) {
    if (!isRecord(output))
      return invalid(`For 'properties/output', ${JSON.stringify(output)} is not an object.`);
    for (const field of ['title', 'summary'])
      if (typeof output[field] !== 'string') missing.push(field);
    for (const field of ['summary', 'text']) {
      const value = output[field];
      if (typeof value === 'string' && value.length > MAX_OUTPUT_CHARS) {
        return invalid(
          `Only ${MAX_OUTPUT_CHARS} characters are allowed; ${value.length} were supplied.`,
        );
      }
      if (typeof value === 'string' && Buffer.byteLength(value, 'utf8') > MAX_OUTPUT_CHARS) {
        return {
          status: 422,
          body: {
            message: 'Validation Failed',
            errors: [
              {
                resource: 'CheckRun',
                code: 'custom',
                field,
                message: `${field} exceeds a maximum bytesize of ${MAX_OUTPUT_CHARS}`,
              },
            ],
            documentation_url: `${DOCS}/checks/runs`,
            status: '422',
          },
        };
      }
    }
    const annotations = output['annotations'];
    if (annotations !== undefined) {
      if (!Array.isArray(annotations))
        return invalid(`For 'properties/annotations', it is not an array.`);
      if (annotations.length > MAX_ANNOTATIONS) {
        return invalid(
          `No more than ${MAX_ANNOTATIONS} items are allowed; ${annotations.length} were supplied.`,
        );
      }
      for (const annotation of annotations as unknown[]) {
        if (!isRecord(annotation)) return invalid('annotations must be objects.');
        const absent = ANNOTATION_REQUIRED.filter((field) => annotation[field] === undefined);
        if (absent.length > 0) missing.push(...absent);
        else if (!LEVELS.includes(String(annotation['annotation_level']))) {
          return invalid(
            `${JSON.stringify(annotation['annotation_level'])} is not a valid annotation_level.`,
          );
        }
      }
    }
  }
  if (missing.length === 0) return undefined;
  const names = [...new Set(missing)].map((field) => JSON.stringify(field)).join(', ');
  return invalid(`${names} ${missing.length === 1 ? "wasn't" : "weren't"} supplied.`);
}

function commentBodyProblem(body: unknown): Reply | undefined {
  if (!isRecord(body) || typeof body['body'] !== 'string')
    return invalid('"body" wasn\'t supplied.');
  if (body['body'].length > MAX_COMMENT_CHARS) {
    return {
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [
          {
            resource: 'IssueComment',
            code: 'unprocessable',
            field: 'data',
            message: `Body is too long (maximum is ${MAX_COMMENT_CHARS} characters)`,
          },
        ],
        documentation_url: `${DOCS}/issues/comments`,
        status: '422',
      },
    };
  }
  return undefined;
}

function commentJson(comment: StoredComment): Record<string, unknown> {
  return {
    id: comment.id,
    body: comment.body,
    user: comment.user,
    html_url: comment.html_url,
    created_at: comment.created_at,
    updated_at: comment.updated_at,
    author_association: comment.user.type === 'Bot' ? 'NONE' : 'MEMBER',
  };
}

function checkRunJson(run: StoredCheckRun): Record<string, unknown> {
  return {
    id: run.id,
    name: run.name,
    head_sha: run.head_sha,
    status: run.status,
    conclusion: run.conclusion,
    details_url: run.details_url,
    html_url: run.html_url,
    output: { ...run.output, annotations_count: run.annotations.length },
  };
}

function invalid(reason: string): Reply {
  return error(422, `Invalid request.\n\n${reason}`, `${DOCS}/checks/runs`);
}

function error(status: number, message: string, documentationUrl: string): Reply {
  return { status, body: { message, documentation_url: documentationUrl, status: String(status) } };
}

function artifactJson(
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

function send(res: ServerResponse, reply: Reply): void {
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

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.floor(value)));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
