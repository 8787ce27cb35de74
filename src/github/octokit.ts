/**
 * The one GitHub client `src/github/` works with: `@actions/github`'s octokit (REST methods,
 * paginate, the runner's proxy) plus octokit's retry and throttling plugins, the headers GitHub
 * asks every client to send, and one budget for all the waiting a report may do.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck/light.js';
import { clockTime, graphqlRateLimitOf, rateLimitOf, type RateLimit } from './rate-limit.ts';
import type { RetryBudget } from './retry-budget.ts';

/** An authenticated client from {@link createOctokit} (or `getOctokit`, which has the same type). */
export type Octokit = ReturnType<typeof getOctokit>;

type OctokitPlugin =
  Parameters<typeof getOctokit> extends [unknown, unknown?, ...infer P] ? P[number] : never;

/** The REST API version every request names (docs.github.com/rest/about-the-rest-api). */
export const GITHUB_API_VERSION = '2022-11-28';
const GITHUB_MEDIA_TYPE = 'application/vnd.github+json';
/** What @octokit/endpoint sends unless told otherwise; replaced by {@link GITHUB_MEDIA_TYPE}. */
const OCTOKIT_DEFAULT_ACCEPT = 'application/vnd.github.v3+json';

/**
 * Statuses plugin-retry never retries: the request itself is wrong, or (403, 429) a rate limit,
 * which `waitOutRateLimits` retries after GitHub's own wait.
 */
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451];
/** Retries of one request on a 5xx or a dropped connection: after 1, 4 and 9 seconds. */
const MAX_SERVER_ERROR_RETRIES = 3;
/**
 * How long one attempt of one request may wait for GitHub's answer, in seconds. Without it an
 * attempt that is never answered waits for fetch's own five-minute headers timeout. A timed-out
 * attempt counts against the budget like a wait, so a hung GitHub cannot outlast it either.
 */
const ATTEMPT_TIMEOUT_SECONDS = 20;
/** Retries of one request after a rate limit: each waits what GitHub says. */
const MAX_RATE_LIMIT_RETRIES = 2;
/**
 * What a GraphQL wait leaves of the budget, in seconds. GraphQL only hides a stale report (best
 * effort) before the check run is written, and GitHub's untimed secondary limit asks for a minute,
 * the whole budget: the check run's own retries after a 5xx (1, 4 and 9 s) must still fit.
 */
const GRAPHQL_RESERVE_SECONDS = 15;

/** How to build the client. */
export interface GitHubClientOptions {
  /** The API's URL; default `GITHUB_API_URL` or api.github.com, as `@actions/github` decides. */
  baseUrl?: string;
  /** Names the client in `User-Agent`, e.g. `evalgate/0.4.0`. */
  userAgent: string;
  /** Every wait of every request together stays within this budget (`retry-budget.ts`). */
  budget: RetryBudget;
  /** Told about each retry before its wait, e.g. `core.info`. */
  log?: (message: string) => void;
  /**
   * Told about every attempt of every request and GitHub's answer (`GET /repos/o/r/... -> 200`),
   * e.g. `core.debug` when the step's debug logging is on; nothing when absent.
   */
  debug?: (message: string) => void;
  /** The fetch to use instead of `@actions/github`'s (which knows the runner's proxy); tests only. */
  fetch?: typeof globalThis.fetch;
}

/**
 * An octokit that retries 5xx answers and dropped connections (plugin-retry) and waits out
 * primary and secondary rate limits (`waitOutRateLimits`), each retry only while it fits the
 * budget; past it the call fails like any other, and the Action reports what it could not post.
 * plugin-throttling spaces writes a second apart, as GitHub asks.
 */
export function createOctokit(token: string, options: GitHubClientOptions): Octokit {
  const { budget } = options;
  const log = options.log ?? (() => undefined);
  return getOctokit(
    token,
    {
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      userAgent: options.userAgent,
      ...(options.fetch !== undefined ? { request: { fetch: options.fetch } } : {}),
      retry: {
        doNotRetry: DO_NOT_RETRY,
        retries: MAX_SERVER_ERROR_RETRIES,
        retryAfterBaseValue: budget.secondMs,
      },
      throttle: {
        retryAfterBaseValue: budget.secondMs,
        ...pacing(budget.secondMs),
        // plugin-throttling only spaces the writes here. Its retries know a secondary limit by
        // GitHub's wording alone, so a 429 with `retry-after` in other words was never retried:
        // `waitOutRateLimits` retries every rate limit, told by status and headers.
        onRateLimit: () => false,
        onSecondaryRateLimit: () => false,
      },
    },
    // Order matters: a plugin's hooks wrap those of the plugins before it, so the budget sees a
    // failed attempt first, then plugin-retry, then plugin-throttling, then the rate limits;
    // ownRetryState runs first.
    standardHeaders,
    ...(options.debug !== undefined ? [attemptLog(options.debug)] : []),
    attemptTimeout(budget),
    retryWithinBudget(budget, log),
    retry,
    throttling,
    waitOutRateLimits(budget, log),
    ownRetryState,
  );
}

/**
 * Retries a request GitHub rate-limited (`rate-limit.ts`: a 403 or 429 with `retry-after`, or an
 * exhausted limit with its reset time, or GraphQL's 200 with a rate-limit error) after the
 * wait GitHub asks for, twice at most, and only while the wait fits the budget: a reset an hour
 * away is not waited for, and the log says when it is. A rate-limited request was not carried out, so sending it again is safe.
 */
function waitOutRateLimits(budget: RetryBudget, log: (message: string) => void): OctokitPlugin {
  return (octokit) => {
    octokit.hook.wrap('request', async (request, options) => {
      for (let retries = 0; ; retries++) {
        let limit: RateLimit | null;
        try {
          const response = await request(options);
          // GraphQL answers some limits with 200 (a secondary one, a spent primary one of type
          // RATE_LIMIT) that plugin-throttling lets through: octokit.graphql throws them later,
          // out of reach of any retry. Past the retries the answer goes back as it came.
          limit = isGraphql(options.url)
            ? graphqlRateLimitOf(response.data, response.headers, Date.now())
            : null;
          if (limit === null || !mayWait(limit, retries)) return response;
        } catch (error) {
          const response = (
            error as { response?: { data?: unknown; headers?: Record<string, unknown> } }
          ).response;
          const headers = response?.headers ?? {};
          // GraphQL's spent primary limit is a 200 whose error says RATE_LIMITED, which
          // plugin-throttling throws as an error without a status: told by that error.
          limit =
            rateLimitOf(
              (error as { status?: number }).status,
              headers,
              error instanceof Error ? error.message : '',
              Date.now(),
            ) ?? graphqlRateLimitOf(response?.data, headers, Date.now());
          if (limit === null || !mayWait(limit, retries)) throw error;
        }
        log(`${what(limit)}: retrying in ${limit.waitSeconds} s`);
        // Cut short when the job is cancelled: the retry then goes at once, and its answer,
        // whatever it is, is the last (the budget grants nothing more).
        await sleep(limit.waitSeconds * budget.secondMs, undefined, {
          signal: budget.cancelled,
        }).catch(() => undefined);
      }

      /** `GitHub's secondary rate limit on POST /graphql (used up until …)`, for the log. */
      function what(limit: RateLimit): string {
        const until =
          limit.resetsAt === undefined ? '' : ` (used up until ${clockTime(limit.resetsAt)})`;
        return `GitHub's ${limit.kind} on ${describeRequest(octokit, options)}${until}`;
      }

      /** Whether to wait `limit` out and retry: twice at most, and within the budget. */
      function mayWait(limit: RateLimit, retries: number): boolean {
        if (retries >= MAX_RATE_LIMIT_RETRIES) {
          log(`${what(limit)}: not retrying (retried ${MAX_RATE_LIMIT_RETRIES} times already)`);
          return false;
        }
        const reserve = isGraphql(options.url) ? GRAPHQL_RESERVE_SECONDS : 0;
        if (!budget.take(limit.waitSeconds * budget.secondMs, reserve * budget.secondMs)) {
          const kept = reserve === 0 ? '' : `, keeping ${reserve} s for the writes to come`;
          log(`${what(limit)}: not waiting ${limit.waitSeconds} s (${budget.describe()}${kept})`);
          return false;
        }
        return true;
      }
    });
  };
}

/** A request to GitHub's GraphQL API: `/graphql`, or GitHub Enterprise Server's `/api/graphql`. */
function isGraphql(url: string): boolean {
  return new URL(url, 'http://github.invalid').pathname.endsWith('/graphql');
}

/**
 * How far apart plugin-throttling spaces writes: a second (GitHub asks for one between mutating
 * requests), three for those that notify people (a comment), as the plugin does by default, but
 * in this client's seconds, and per client rather than per process, so that a test's shortened
 * seconds shorten these too. Spacing is not retrying: it does not draw on the budget.
 */
function pacing(secondMs: number): Record<'write' | 'notifications', Bottleneck.Group> {
  return {
    write: new Bottleneck.Group({ maxConcurrent: 1, minTime: secondMs }),
    notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 3 * secondMs }),
  };
}

/** The options a request hook sees, as far as these plugins read them. */
type RequestOptions = { method: string; url: string; request?: object } & Record<string, unknown>;

/** What {@link describeRequest} needs of a client: octokit's own URL expansion. */
interface EndpointParser {
  request: { endpoint: { parse(options: never): { method: string; url: string } } };
}

/** `POST /repos/acme/app/issues/7/comments`: the request's path with its parameters filled in. */
function describeRequest(client: EndpointParser, options: RequestOptions): string {
  const { method, url } = client.request.endpoint.parse(options as never);
  const { pathname, search } = new URL(url, 'http://github.invalid');
  return `${method} ${pathname}${search}`;
}

/**
 * Gives each request its own `options.request`. octokit hands every request the client's default
 * `request` object itself, and the retry plugins keep their counts on it (`retries`,
 * `retryCount`): shared, one request's retries would carry over to the next (a 403 after a
 * retried 503 was retried too).
 */
const ownRetryState: OctokitPlugin = (octokit) => {
  octokit.hook.before('request', (options) => {
    options.request = { ...options.request };
  });
};

/**
 * Each attempt and its answer, for the step's debug log: the method and path (parameters filled
 * in, never a header or a body, so never the token) and the status, or that none came.
 */
function attemptLog(debug: (message: string) => void): OctokitPlugin {
  return (octokit) => {
    octokit.hook.wrap('request', async (request, options) => {
      const what = describeRequest(octokit, options);
      try {
        const response = await request(options);
        debug(`${what} -> ${response.status}`);
        return response;
      } catch (error) {
        const status = (error as { status?: unknown; response?: unknown }).response
          ? String((error as { status?: unknown }).status)
          : 'no answer';
        debug(`${what} -> ${status}`);
        throw error;
      }
    });
  };
}

/** `X-GitHub-Api-Version` and `Accept: application/vnd.github+json` on every request. */
const standardHeaders: OctokitPlugin = (octokit) => {
  octokit.hook.before('request', (options) => {
    options.headers['x-github-api-version'] = GITHUB_API_VERSION;
    if (options.headers.accept === OCTOKIT_DEFAULT_ACCEPT)
      options.headers.accept = GITHUB_MEDIA_TYPE;
  });
};

/** A request attempt GitHub did not answer within {@link ATTEMPT_TIMEOUT_SECONDS}. */
const TIMED_OUT = Symbol('evalgate.timedOut');

/**
 * Gives every attempt (the first and each retry: plugin-retry calls back into this hook) its own
 * deadline, and charges a timed-out attempt's wait to the budget. Before a retry of a request
 * made with `request: { beforeRetry }`, asks it whether the earlier attempt was done after all
 * (GitHub stored it, the answer was lost): its answer (a response) is returned instead of
 * sending the request again; null sends it again. When it cannot tell, it throws, and the
 * request fails with that error, neither sent again nor retried further: a write that is not
 * idempotent is never repeated blindly.
 */
function attemptTimeout(budget: RetryBudget): OctokitPlugin {
  return (octokit) => {
    octokit.hook.wrap('request', async (request, options) => {
      // Never below two real seconds, however much a test shortens the waits: a loopback answer
      // under load must not count as none.
      const ms = Math.max(ATTEMPT_TIMEOUT_SECONDS * budget.secondMs, 2000);
      const own = options.request as {
        signal?: AbortSignal;
        retries?: number;
        retryCount?: number;
        beforeRetry?: () => Promise<unknown>;
      };
      // A write that is not idempotent says how to find what an earlier attempt may have done.
      if ((own.retryCount ?? 0) > 0 && own.beforeRetry !== undefined) {
        let done: unknown;
        try {
          done = await own.beforeRetry();
        } catch (error) {
          // A new error without a status, so no retry hook takes it for GitHub's answer; and
          // plugin-retry reads the retries left from the failed request's options: none.
          own.retries = 0;
          const message = error instanceof Error ? error.message : String(error);
          throw Object.assign(new Error(message), { request: options });
        }
        if (done !== null) return done as Awaited<ReturnType<typeof request>>;
      }
      const signal = AbortSignal.timeout(ms);
      own.signal = signal;
      try {
        return await request(options);
      } catch (error) {
        if (signal.aborted && error instanceof Error) {
          (error as unknown as Record<symbol, number>)[TIMED_OUT] = ATTEMPT_TIMEOUT_SECONDS;
          // The attempt's wait is spent whether or not the budget had room for it.
          budget.spend(ms);
        }
        throw error;
      }
    });
  };
}

/**
 * Decides, before plugin-retry does, whether a failed attempt may be retried: plugin-retry
 * waits `(n)²` seconds before its n-th retry of a request and reads the retries allowed from
 * `options.request.retries`, so setting that to 0 stops it when the wait would overrun the budget.
 */
function retryWithinBudget(budget: RetryBudget, log: (message: string) => void): OctokitPlugin {
  return (octokit) => {
    octokit.hook.error('request', (error, options) => {
      const status = (error as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && !DO_NOT_RETRY.includes(status)) {
        const request = options.request as { retries?: number; retryCount?: number };
        const next = (request.retryCount ?? 0) + 1;
        const waitSeconds = next * next;
        const allowed =
          next <= MAX_SERVER_ERROR_RETRIES && budget.take(waitSeconds * budget.secondMs);
        request.retries = allowed ? MAX_SERVER_ERROR_RETRIES : 0;
        const what = `${whatHappened(error, status)} ${describeRequest(octokit, options)}`;
        if (allowed)
          log(`${what}: retry ${next} of ${MAX_SERVER_ERROR_RETRIES} in ${waitSeconds} s`);
        else if (next <= MAX_SERVER_ERROR_RETRIES)
          log(`${what}: not retrying (${budget.describe()})`);
      } else {
        // plugin-retry retries any failure while the `retries` the error carries allow, and an
        // error carries a copy of the request's options: a 422 or 403 answering a retry of a 502
        // was retried in turn, with the count the 502 had set.
        const sent = (error as { request?: { request?: { retries?: number } } }).request?.request;
        if (sent !== undefined) sent.retries = 0;
        (options.request as { retries?: number }).retries = 0;
      }
      throw error;
    });
  };
}

/**
 * What a failed attempt was: an answer with a status, or none at all (@octokit/request reports
 * a failed fetch as status 500 without a response).
 */
function whatHappened(error: unknown, status: number): string {
  const timedOut = (error as Record<symbol, unknown>)[TIMED_OUT];
  if (typeof timedOut === 'number') return `GitHub did not answer within ${timedOut} s:`;
  if ((error as { response?: unknown }).response === undefined)
    return 'no answer from GitHub (the connection failed or was dropped):';
  return `GitHub answered ${status} to`;
}
