/**
 * The types of the fake GitHub (`github-server.ts`): what it records, holds and offers tests.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { GraphqlRateLimit } from './github-server-graphql.ts';

/** One request as the server received it; `body` is the parsed JSON (undefined when empty). */
export interface RecordedRequest {
  method: string;
  /** The path without the query string, e.g. `/repos/o/r/check-runs`. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** True for a request to the artifact storage host rather than the API. */
  storage: boolean;
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
  /** GraphQL `minimizeComment`'s classifier once hidden, e.g. `OUTDATED`. */
  minimized?: string;
}

/** A check run held by the server, with every annotation it was sent. */
export interface StoredCheckRun {
  id: number;
  name: string;
  head_sha: string;
  /** The id the creator gave it (`external_id`), null when none. */
  external_id: string | null;
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
  /** The uploading run's event (`GET …/actions/runs/:id` says it; the artifact list does not). */
  event: string;
}

/**
 * A pull request as `GET /repos/{owner}/{repo}/pulls/{number}` answers it (the fields the Action
 * reads; seed it with {@link GitHubServer.addPullRequest}).
 */
export interface StoredPullRequest {
  number: number;
  headSha: string;
  headRef: string;
  /** The test merge commit (`refs/pull/N/merge`); null while GitHub computes it, or on a conflict. */
  mergeCommitSha: string | null;
  /** When it was merged (`merged_at`); null while open. */
  mergedAt: string | null;
  baseRef: string;
  baseSha: string;
}

/** One download from the fake artifact storage, as received. */
export interface StorageDownload {
  artifactId: number;
  /** The Authorization header the storage received; undefined when none (as it must be). */
  authorization: string | undefined;
}

/**
 * Who the token is: a workflow's GITHUB_TOKEN (writes as `github-actions[bot]`), a GitHub App
 * installation token (writes as `<slug>[bot]`), or a user's token such as a PAT.
 */
export type FakeToken =
  | { kind: 'actions' }
  | { kind: 'app'; slug: string }
  | {
      kind: 'user';
      login: string;
      /**
       * False for a fine-grained token without `Issues` or `Pull requests` write: it reads the
       * comments but may not write one (GitHub: 403 "Resource not accessible by personal access
       * token"). Default true.
       */
      writesComments?: boolean;
      /**
       * False for a fine-grained token without `Actions` read: the artifacts and workflow runs
       * answer 403 "Resource not accessible by personal access token". Default true.
       */
      readsActions?: boolean;
    };

/** What the server holds; tests read it and may seed it. */
export interface GitHubServerState {
  token: FakeToken;
  /** Comments per issue (pull request) number, oldest first. */
  comments: Map<number, StoredComment[]>;
  checkRuns: Map<number, StoredCheckRun>;
  /** Workflow artifacts by id. */
  artifacts: Map<number, StoredArtifact>;
  /** Pull requests by number; `GET …/pulls/:n` of any other number answers 404. */
  pulls: Map<number, StoredPullRequest>;
  /**
   * The jobs of each workflow run attempt, keyed `<run id>/<attempt>`, as
   * `GET …/actions/runs/:id/attempts/:n/jobs` lists them (the fields read); none by default.
   */
  jobs: Map<string, StoredJob[]>;
  /** Every request to the fake storage host, in order. */
  storageDownloads: StorageDownload[];
  /**
   * The repository's commits, when a test says: a check run on any other `head_sha` gets
   * GitHub's 422 "No commit found for SHA". Null (the default): every commit exists.
   */
  commits: Set<string> | null;
  /**
   * The repository's issue and pull request numbers, when a test says: listing or writing the
   * comments of any other gets GitHub's 404. Null (the default): every number exists.
   */
  issues: Set<number> | null;
}

/** A job of a workflow run attempt: the name GitHub shows (matrix values and all), its runner. */
export interface StoredJob {
  name: string;
  runner_name: string | null;
  status: 'queued' | 'in_progress' | 'completed';
}

/** Options for {@link startGitHubServer}. */
export interface GitHubServerOptions {
  /** The token's user (a PAT); default null, which behaves like a GITHUB_TOKEN. */
  user?: string | null;
  /**
   * The host name the artifact download redirects to, on the storage server's port; default
   * 127.0.0.1. A name no resolver knows (`storage.test`) is reached only through a proxy that
   * knows it, which shows whether the download went through one.
   */
  storageHost?: string;
  /**
   * The order `GET …/commits/{ref}/check-runs` lists a commit's check runs in; default newest
   * first, as GitHub answers today. GitHub does not document it, so a lookup must find a check
   * run in either.
   */
  checkRunOrder?: 'newest-first' | 'oldest-first';
}

/** A running fake; close it in `after`. */
export interface GitHubServer {
  /** `http://127.0.0.1:PORT`, to pass as octokit's `baseUrl`. */
  url: string;
  /** The artifact storage host, `http://127.0.0.1:OTHER_PORT`, where downloads redirect to. */
  storageUrl: string;
  requests: RecordedRequest[];
  state: GitHubServerState;
  /**
   * Answers the next `times` requests whose method and path match with `status` and a
   * GitHub-like JSON error (`{ message, documentation_url }`), or with `body` when given, and
   * `headers`. Applies to the storage host too (paths `/_storage/:id`).
   */
  failNext(
    method: string,
    pathPattern: RegExp,
    status: number,
    times?: number,
    body?: unknown,
    headers?: Record<string, string>,
  ): void;
  /**
   * Answers the next `times` matching requests with GitHub's rate-limit answer: `secondary`
   * (403, `retry-after: retryAfterSeconds`) or `primary` (403, `x-ratelimit-remaining: 0`, reset
   * in `retryAfterSeconds`; on `POST /graphql` a 200 with a `RATE_LIMITED` error and those
   * headers, as GraphQL answers).
   */
  rateLimitNext(
    method: string,
    pathPattern: RegExp,
    kind: 'secondary' | 'primary',
    retryAfterSeconds: number,
    times?: number,
  ): void;
  /**
   * Answers the next `times` `POST /graphql` requests with one of the ways GitHub's GraphQL API
   * answers a rate limit (`GraphqlRateLimit`: a spent primary limit, a secondary one with 200 or
   * 403, with or without `retry-after`).
   */
  graphqlRateLimitNext(limit: GraphqlRateLimit, times?: number): void;
  /** Sets the token's user: a login (GET /user → 200) or null (GET /user → 403, a GITHUB_TOKEN). */
  setUser(
    login: string | null,
    options?: { writesComments?: boolean; readsActions?: boolean },
  ): void;
  /** Makes the token a GitHub App installation token writing as `<slug>[bot]`. */
  setAppToken(slug: string): void;
  /**
   * Makes the token one GitHub does not know (revoked, expired, mistyped): every API request
   * gets 401 "Bad credentials", as from GitHub; `false` accepts it again.
   */
  rejectToken(rejected?: boolean): void;
  /** Seeds a comment on an issue as if someone had written it; returns it. */
  addComment(
    issueNumber: number,
    comment: { body: string; login?: string; type?: 'User' | 'Bot' },
  ): StoredComment;
  /**
   * Seeds a workflow artifact. `GET …/actions/artifacts/:id/zip` answers 302 to
   * `storageUrl/_storage/:id?sig=…`, which serves `zip` without a token (the signed URL is the
   * credential) and refuses one that comes with an Authorization header, like GitHub's storage.
   * Defaults: not expired, not from a fork, uploaded by a `push` run, `created_at` from the
   * server's clock. `GET …/actions/runs/:id` answers the uploading run.
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
    /** The uploading run's event; default `push`. */
    event?: string;
  }): StoredArtifact;
  /**
   * Seeds a pull request for `GET …/pulls/:number`. Defaults: head branch `feature`, base branch
   * `main` at `c…c`, no test merge commit.
   */
  addPullRequest(pull: {
    number: number;
    headSha: string;
    headRef?: string;
    mergeCommitSha?: string | null;
    mergedAt?: string | null;
    baseRef?: string;
    baseSha?: string;
  }): StoredPullRequest;
  close(): Promise<void>;
}
