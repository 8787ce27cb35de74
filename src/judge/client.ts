/**
 * An OpenAI-compatible client for judge (and user) model calls, on plain `fetch`: bounded
 * retries with backoff that honours the server's rate-limit headers, a per-host concurrency
 * cap, token usage per call, and an on-disk response cache. It works against any server that
 * speaks `/chat/completions` and `/embeddings` (OpenAI, vLLM, Ollama, LiteLLM, gateways).
 *
 * Every HTTP or network problem comes back as `{ ok: false, error }` with a stable `code`;
 * `chat` and `embed` do not throw for them. The API key is sent only in the `Authorization`
 * header: it is not part of the cache key, never stored, and scrubbed from error text. Other
 * headers are part of the cache key (a gateway picks the provider or route by a header), except
 * the ones that carry credentials, like the key; the key is a hash, so no value reaches the disk.
 */
import { timerSleep, type Sleep } from './abortable-sleep.ts';
import {
  maskCredentialsIn,
  secretsInEnv,
  secretsInHeaders,
  secretsInUrl,
  type Scrubber,
} from '../shared/secrets.ts';
import { callScrubber } from './run-secrets.ts';
import type { Breaker } from './breaker.ts';
import { chatShapeProblem, malformedDetail } from './answer-problems.ts';
import { checkClientOptions } from './client-options.ts';
import { cacheKey, createFileCache, type ResponseCache } from './cache.ts';
import { currentTrial, UNKNOWN_TRIAL } from './trial-scope.ts';
import { honoursForcedCall } from './forced-call.ts';
import { createHostLimiter, type HostLimiter } from './host-limiter.ts';
import {
  abortedError,
  postAttempt,
  type AttemptOutcome,
  type AttemptSettings,
} from './post-attempt.ts';
import { noPathHint } from './network-hints.ts';
import { withRetries } from './retry.ts';
import {
  addTokens,
  cachedChat,
  cachedEmbeddings,
  parseChat,
  parseEmbeddings,
  reportedUsage,
} from './responses.ts';
import type { CallMeta, CallOptions, ChatUsage, JudgeClient, JudgeError } from './types.ts';
import { CallTimeout } from '../shared/call-timeout.ts';
import { setOwn } from '../shared/own-key.ts';

/** OpenAI's API, used when neither `baseUrl` nor `OPENAI_BASE_URL` is set. */
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Where a client's base URL came from: its `baseUrl` option, `OPENAI_BASE_URL`, or neither. */
export type BaseUrlSource = 'option' | 'OPENAI_BASE_URL' | 'default';

/**
 * Of each client made here, whose calls go to `baseUrl` by fetch (one written by hand may send
 * its calls anywhere): so a run can refuse a URL fetch cannot use, saying where it came from.
 */
const baseUrlSources = new WeakMap<JudgeClient, BaseUrlSource>();

/** Where `client`'s base URL came from, or undefined for a client not made by createJudgeClient. */
export function baseUrlSource(client: JudgeClient): BaseUrlSource | undefined {
  return baseUrlSources.get(client);
}

/** Options of {@link createJudgeClient}; every one has a default. */
export interface JudgeClientOptions {
  /** The API root, e.g. `http://localhost:11434/v1`; default `OPENAI_BASE_URL`, else OpenAI. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer …`; default `OPENAI_API_KEY`; none sends no header. */
  apiKey?: string;
  /**
   * Extra request headers, e.g. `{ 'api-key': … }` for an Azure OpenAI endpoint. Their values
   * are scrubbed from error text. Those that may change the answer (all but the credential
   * headers, {@link CREDENTIAL_HEADERS}) are part of the cache key, hashed with it.
   */
  headers?: Record<string, string>;
  /** Per attempt, from the request to the end of the body; default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt (so at most `maxRetries + 1` requests); default 4. */
  maxRetries?: number;
  /** Where responses are cached; null or absent: no cache. */
  cacheDir?: string | null;
  /** Told when a response cannot be written to the cache (a folder that cannot be made). */
  onCacheUnwritable?: (message: string) => void;
  /**
   * The run's other secrets (other judges' keys, values read from the environment under names
   * that say nothing), scrubbed like this client's own key from error text, answers and cache
   * entries. The environment's secret-named values (`env`) are scrubbed without them, and a
   * call made during a run (`evals run`, `runTestSuite`) scrubs that run's secrets too.
   */
  secrets?: readonly string[];
  /** Gives up on a server that fails systematically (shared by a run's clients); default none. */
  breaker?: Breaker;
  /**
   * Requests in flight per host (`host:port`) through this client; default 8. The cap is per
   * client, not per process: share one client between the callers that should share a cap.
   */
  maxConcurrentPerHost?: number;
  /**
   * Shares one per-host cap between several clients (judges configured with different keys or
   * timeouts that talk to the same server); replaces `maxConcurrentPerHost`.
   */
  hostLimiter?: HostLimiter;
  /** Injected for tests; default the global `fetch`. */
  fetch?: typeof fetch;
  /**
   * Waits between attempts; default a timer that the signal cancels (so an aborted run does
   * not keep the process alive for a long `Retry-After`). The call stops waiting on abort
   * whether or not an injected sleep honours the signal.
   */
  sleep?: Sleep;
  /** Milliseconds since the epoch, for latency and HTTP-date `Retry-After`; default `Date.now`. */
  now?: () => number;
  /** In [0, 1), for backoff jitter; default `Math.random`. */
  random?: () => number;
  /** Where the `OPENAI_*` defaults are read; default `process.env`. */
  env?: Record<string, string | undefined>;
}

/**
 * Creates a judge client. Reads `OPENAI_BASE_URL` / `OPENAI_API_KEY` from `options.env` (default
 * `process.env`) once, here; nothing below touches the environment.
 */
export function createJudgeClient(options: JudgeClientOptions = {}): JudgeClient {
  checkClientOptions(options);
  const env = options.env ?? process.env;
  // Trailing slashes go (before a query, if any), so paths join with exactly one.
  const baseUrl = (options.baseUrl ?? (env.OPENAI_BASE_URL || DEFAULT_BASE_URL)).replace(
    /\/+(?=\?|$)/,
    '',
  );
  const apiKey = options.apiKey ?? (env.OPENAI_API_KEY || undefined);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 4));
  const fetchFn: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? timerSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const cache: ResponseCache | undefined =
    options.cacheDir === null || options.cacheDir === undefined
      ? undefined
      : createFileCache(options.cacheDir, options.onCacheUnwritable);
  const hostLimiter = options.hostLimiter ?? createHostLimiter(options.maxConcurrentPerHost ?? 8);

  const extraHeaders = options.headers ?? {};
  // The key and header values are removed from any text we hand out or store: servers echo
  // headers, in errors and sometimes in answers. So are the environment's secrets, and those of
  // the run a call is made in (a client made in code knows no others): before an error detail
  // is cut to a few hundred characters, and before an answer is cached.
  const scrubberOfCall = callScrubber([
    ...(apiKey !== undefined ? [apiKey] : []),
    ...secretsInHeaders(extraHeaders),
    ...secretsInUrl(baseUrl),
    ...secretsInEnv(env),
    ...(options.secrets ?? []),
  ]);

  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey !== undefined && apiKey !== '') headers.authorization = `Bearer ${apiKey}`;
  for (const [name, value] of Object.entries(extraHeaders))
    setOwn(headers, name.toLowerCase(), value);

  const attemptSettings: Omit<AttemptSettings, 'scrub'> = {
    fetch: fetchFn,
    headers,
    timeoutMs,
    now,
  };
  const keyed = keyedHeaders(extraHeaders);

  /**
   * The shared path of every call: cache lookup, bounded attempts under the host cap, backoff
   * between them (outside the cap, so a waiting call does not hold a slot), parse, cache store.
   * An answer `usable` refuses is returned but neither stored nor served from the cache.
   */
  const call = async <T>(
    path: string,
    model: string,
    body: Record<string, unknown>,
    parse: (json: unknown) => T | undefined,
    fromCache: (value: unknown) => T | undefined,
    shapeProblem: (json: unknown) => string,
    usable: (payload: T) => boolean,
    callOptions: CallOptions,
  ): Promise<({ ok: true } & CallMeta & T) | { ok: false; error: JudgeError }> => {
    const { signal } = callOptions;
    const scrubber = scrubberOfCall();
    const scrub = scrubber.text;
    const url = endpoint(baseUrl, path);
    const scoped = callOptions.trial ?? currentTrial();
    // A trial this copy cannot read (see trial-scope.ts): not cached, so never another's answer.
    const trial = scoped === UNKNOWN_TRIAL ? undefined : scoped;
    const key =
      cache === undefined || scoped === UNKNOWN_TRIAL
        ? undefined
        : cacheKey({
            baseUrl,
            model,
            body,
            headers: keyed,
            ...(trial !== undefined ? { trial } : {}),
          });
    if (cache !== undefined && key !== undefined) {
      const entry = await cache.get(key);
      const hit = entry === undefined ? undefined : fromCache(entry.value);
      if (hit !== undefined && usable(hit)) {
        const recorded = entry?.latencyMs;
        return {
          ok: true,
          cached: true,
          latencyMs: 0,
          attempts: 0,
          ...(recorded !== undefined ? { recordedLatencyMs: recorded } : {}),
          ...hit,
        };
      }
    }
    const payload = JSON.stringify(body);
    let host: URL;
    try {
      host = new URL(url);
    } catch {
      // A config mistake, but a call result all the same: the caller's error path reports it.
      return {
        ok: false,
        error: {
          code: 'judge.network',
          message: `"${url}" is not a valid URL`,
          attempts: 0,
          latencyMs: 0,
        },
      };
    }
    // The breaker knows the server by its base URL without the query, which may hold a key, and
    // a model that is not found by its name on that server.
    const server = baseUrl.replace(/[?#].*$/, '');
    const refused = options.breaker?.refused(server, model);
    if (refused !== undefined) return { ok: false, error: { ...refused, latencyMs: 0 } };
    const started = now();
    // Tokens the failed attempts reported (an error answer may carry `usage`): billed all the same.
    let failedTokens: ChatUsage | undefined;
    // Requests that went out. An attempt whose signal aborted while it waited for a slot under the
    // host cap sends nothing (`requestAttempt` checks first): it reached no server, so no attempt.
    let sent = 0;
    const attempt = async (): Promise<AttemptOutcome> => {
      // The call's time limit counts the wait for a slot: a time-out then names what it waited
      // to send, as one during the request does (a retry loop's note of its last failure wins).
      const waiting = (): void => {
        const reason: unknown = signal?.reason;
        if (reason instanceof CallTimeout) {
          reason.note(
            `waiting for ${slotWait(host.host, hostLimiter.perHost)} to send POST ${scrub(maskCredentialsIn(url))}`,
          );
        }
      };
      signal?.addEventListener('abort', waiting, { once: true });
      const outcome = await hostLimiter
        .run(host.host, () => {
          signal?.removeEventListener('abort', waiting);
          if (signal?.aborted !== true) sent++;
          return postAttempt(url, payload, signal, { ...attemptSettings, scrub });
        })
        .finally(() => signal?.removeEventListener('abort', waiting));
      if (outcome.kind !== 'ok') failedTokens = addTokens(failedTokens, outcome.error.usage);
      // Refused before it left the process (a blocked port): no request went out after all.
      if (outcome.kind === 'fail' && outcome.unsent === true) sent--;
      return outcome;
    };
    const answered = await withRetries(attempt, {
      maxRetries,
      sleep,
      random,
      ...(signal ? { signal } : {}),
      aborted: () => abortedError(url),
    });
    if (!answered.ok && answered.error.status === 404) {
      answered.error.message += noPathHint(server, (text) => scrub(maskCredentialsIn(text)));
    }
    // A call stopped by its signal says nothing about the server.
    if (answered.ok || answered.error.code !== 'judge.aborted') {
      options.breaker?.record(server, answered.ok ? undefined : answered.error, true, model);
    }
    // A failed call took its time too: every attempt and every wait between them.
    if (!answered.ok) {
      return {
        ok: false,
        error: {
          ...answered.error,
          attempts: sent,
          latencyMs: sent === 0 ? 0 : now() - started,
          ...(failedTokens !== undefined ? { usage: failedTokens } : {}),
        },
      };
    }
    const { answer, attempts } = answered;
    const json = scrubber.empty ? answer.json : scrubbedJson(answer.json, scrubber);
    const parsed = parse(json);
    if (parsed === undefined) {
      const usage = addTokens(failedTokens, reportedUsage(json));
      return {
        ok: false,
        error: {
          code: 'judge.malformed',
          message: `POST ${url} answered ${answer.status} ${malformedDetail(json, shapeProblem)}`,
          status: answer.status,
          raw: answer.text,
          attempts,
          latencyMs: now() - started,
          ...(usage !== undefined ? { usage } : {}),
        },
      };
    }
    const latencyMs = now() - started;
    if (cache !== undefined && key !== undefined && usable(parsed)) {
      await cache.set(key, parsed, latencyMs);
    }
    return { ok: true, cached: false, latencyMs, attempts, ...parsed };
  };

  const client: JudgeClient = {
    baseUrl,
    chat(request, callOptions = {}) {
      const body: Record<string, unknown> = { ...request, temperature: request.temperature ?? 0 };
      return call(
        '/chat/completions',
        request.model,
        body,
        parseChat,
        cachedChat,
        chatShapeProblem,
        // A judge's answer it cannot use is its error; replayed, it would fail every re-run.
        ({ message }) =>
          honoursForcedCall(request, message) && (callOptions.keep?.(message) ?? true),
        callOptions,
      );
    },
    embed(texts, model, callOptions = {}) {
      return call(
        '/embeddings',
        model,
        { model, input: texts },
        (json) => parseEmbeddings(json, texts.length),
        (value) => cachedEmbeddings(value, texts.length),
        () => 'without the expected fields (data: one embedding per input)',
        () => true,
        callOptions,
      );
    },
  };
  baseUrlSources.set(
    client,
    options.baseUrl !== undefined ? 'option' : env.OPENAI_BASE_URL ? 'OPENAI_BASE_URL' : 'default',
  );
  return client;
}

/** `a free slot to host:port (hostConcurrency: 8, all taken by other calls)`. */
function slotWait(host: string, perHost: number | undefined): string {
  const cap = perHost === undefined ? 'hostConcurrency' : `hostConcurrency: ${perHost}`;
  return `a free slot to ${host} (${cap}, all taken by other calls)`;
}

/**
 * Headers that carry credentials only: like the API key, they do not change the answer, so they
 * stay out of the cache key, and rotating one keeps the cache.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'api-key',
  'x-api-key',
]);

/** The headers of the cache key, by lower-case name, sorted: all but the credential headers. */
function keyedHeaders(headers: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(headers)
    .map(([name, value]): [string, string] => [name.toLowerCase(), value])
    .filter(([name]) => !CREDENTIAL_HEADERS.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `value` with every secret removed from its strings (an answer that echoed a key). */
function scrubbedJson(value: unknown, scrubber: Scrubber): unknown {
  const text = JSON.stringify(value);
  const clean = scrubber.json(text);
  return clean === text ? value : (JSON.parse(clean) as unknown);
}

/**
 * `baseUrl` + `path`, keeping a query the base URL carries (Azure's `?api-version=…`) at the
 * end: `https://x/openai/deployments/d?api-version=1` + `/chat/completions`.
 */
export function endpoint(baseUrl: string, path: string): string {
  const query = baseUrl.indexOf('?');
  return query < 0
    ? `${baseUrl}${path}`
    : `${baseUrl.slice(0, query)}${path}${baseUrl.slice(query)}`;
}
