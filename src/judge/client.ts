/**
 * An OpenAI-compatible client for judge (and user) model calls, on plain `fetch`: bounded
 * retries with backoff that honours the server's rate-limit headers, a per-host concurrency
 * cap, token usage per call, and an on-disk response cache. It works against any server that
 * speaks `/chat/completions` and `/embeddings` (OpenAI, vLLM, Ollama, LiteLLM, gateways).
 *
 * Every HTTP or network problem comes back as `{ ok: false, error }` with a stable `code`;
 * `chat` and `embed` do not throw for them. The API key is sent only in the `Authorization`
 * header: it is not part of the cache key, never stored, and scrubbed from error text.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { backoffDelay, serverRequestedDelay } from './backoff.ts';
import { cacheKey, createFileCache, type ResponseCache } from './cache.ts';

/** OpenAI's API, used when neither `baseUrl` nor `OPENAI_BASE_URL` is set. */
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * A server may ask for a wait longer than any eval run should sit idle (a daily quota's
 * `Retry-After`). Beyond this we give up with the error rather than wait less than asked.
 */
export const MAX_SERVER_WAIT_MS = 120_000;

/** How much of a malformed body `JudgeError.raw` keeps. */
const RAW_LIMIT = 2048;

/** Options of {@link createJudgeClient}; every one has a default. */
export interface JudgeClientOptions {
  /** The API root, e.g. `http://localhost:11434/v1`; default `OPENAI_BASE_URL`, else OpenAI. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer …`; default `OPENAI_API_KEY`; none sends no header. */
  apiKey?: string;
  /**
   * Extra request headers, e.g. `{ 'api-key': … }` for an Azure OpenAI endpoint. Like the key,
   * they are not part of the cache key, and their values are scrubbed from error text.
   */
  headers?: Record<string, string>;
  /** Per attempt, from the request to the end of the body; default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt (so at most `maxRetries + 1` requests); default 4. */
  maxRetries?: number;
  /** Where responses are cached; null or absent: no cache. */
  cacheDir?: string | null;
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
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch, for latency and HTTP-date `Retry-After`; default `Date.now`. */
  now?: () => number;
  /** In [0, 1), for backoff jitter; default `Math.random`. */
  random?: () => number;
  /** Where the `OPENAI_*` defaults are read; default `process.env`. */
  env?: Record<string, string | undefined>;
}

/** A chat message as the chat-completions API takes it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
  content: string | null | Record<string, unknown>[];
  name?: string;
  tool_call_id?: string;
  tool_calls?: Record<string, unknown>[];
}

/** A function the model may (or, with `tool_choice`, must) call. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/**
 * A chat-completions request body. `temperature` defaults to 0 (judges should be repeatable);
 * other fields the API accepts (`seed`, `response_format`, …) pass through unchanged.
 */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  tools?: ChatTool[];
  tool_choice?: 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };
  max_tokens?: number;
  [field: string]: unknown;
}

/** One tool call of the answer; `arguments` is the JSON text the model produced. */
export interface ToolCall {
  name: string;
  arguments: string;
}

/** Token counts as the server reported them (0 when it reported none). */
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

/** Why a call failed; branch on `code`. */
export interface JudgeError {
  code: 'judge.http' | 'judge.timeout' | 'judge.network' | 'judge.malformed' | 'judge.aborted';
  message: string;
  /** The HTTP status, for `judge.http` (and a `judge.malformed` 2xx). */
  status?: number;
  /** The first 2 KB of the body, for `judge.malformed` and `judge.http`. */
  raw?: string;
  /** Requests made, including the failing one. */
  attempts?: number;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call, including a backoff wait; the result is `judge.aborted`. */
  signal?: AbortSignal;
}

/** What a call reports on success, besides its payload. */
interface CallMeta {
  /** Served from the cache: no request was made. Usage is the original call's. */
  cached: boolean;
  /** From the first attempt to the answer, including backoff waits; 0 for a cache hit. */
  latencyMs: number;
  /** Requests made (0 for a cache hit). */
  attempts: number;
}

/** The outcome of {@link JudgeClient.chat}. */
export type ChatResult =
  | ({
      ok: true;
      message: { content: string | null; toolCalls: ToolCall[] };
      usage: ChatUsage;
    } & CallMeta)
  | { ok: false; error: JudgeError };

/** The outcome of {@link JudgeClient.embed}: one vector per input text, in input order. */
export type EmbedResult =
  | ({ ok: true; embeddings: number[][]; usage: { promptTokens: number } } & CallMeta)
  | { ok: false; error: JudgeError };

/** A client; create one per process (or per cap) and share it. */
export interface JudgeClient {
  /** The resolved API root, without a trailing slash. */
  readonly baseUrl: string;
  /** POST `/chat/completions`. */
  chat(request: ChatRequest, options?: CallOptions): Promise<ChatResult>;
  /** POST `/embeddings` with `input: texts`. */
  embed(texts: string[], model: string, options?: CallOptions): Promise<EmbedResult>;
}

/** Requests in flight per host (`host:port`), shareable between clients. */
export interface HostLimiter {
  /** Runs `task` once a slot for `host` is free. */
  run<T>(host: string, task: () => Promise<T>): Promise<T>;
}

/** A limiter allowing `perHost` requests in flight to each host. */
export function createHostLimiter(perHost: number): HostLimiter {
  const limit = Math.max(1, Math.floor(perHost));
  const limits = new Map<string, LimitFunction>();
  return {
    run(host, task) {
      let hostLimit = limits.get(host);
      if (hostLimit === undefined) {
        hostLimit = pLimit(limit);
        limits.set(host, hostLimit);
      }
      return hostLimit(task);
    },
  };
}

type AttemptOutcome =
  | { kind: 'ok'; json: unknown; text: string; status: number }
  | { kind: 'retry'; error: JudgeError; serverDelay?: number }
  | { kind: 'fail'; error: JudgeError };

/** Socket-level failures worth another attempt; anything else (DNS, bad URL) will not heal. */
const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The first error code in an error's cause chain (undici wraps the socket error). */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      current = errors[0];
      continue;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The default sleep: a timer cleared on abort; it resolves either way, never rejects. */
function timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function abortableSleep(
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal === undefined) return sleep(ms);
  return new Promise<void>((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    sleep(ms, signal).then(done, done);
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

type ChatPayload = Omit<Extract<ChatResult, { ok: true }>, keyof CallMeta | 'ok'>;
type EmbedPayload = Omit<Extract<EmbedResult, { ok: true }>, keyof CallMeta | 'ok'>;

/** Reads a chat-completions response; undefined when it has no first choice with a message. */
function parseChat(json: unknown): ChatPayload | undefined {
  if (!isRecord(json) || !Array.isArray(json.choices)) return undefined;
  const choice: unknown = json.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) return undefined;
  const { content, tool_calls: rawCalls } = choice.message;
  if (content !== undefined && content !== null && typeof content !== 'string') return undefined;
  const toolCalls: ToolCall[] = [];
  if (Array.isArray(rawCalls)) {
    for (const call of rawCalls) {
      if (!isRecord(call) || !isRecord(call.function)) return undefined;
      const { name, arguments: args } = call.function;
      if (typeof name !== 'string') return undefined;
      // Some compatible servers (Ollama) send the arguments as an object, not JSON text.
      toolCalls.push({ name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
    }
  }
  const usage = isRecord(json.usage) ? json.usage : {};
  return {
    message: { content: content ?? null, toolCalls },
    usage: {
      promptTokens: tokenCount(usage.prompt_tokens),
      completionTokens: tokenCount(usage.completion_tokens),
    },
  };
}

/** Reads an embeddings response; undefined unless it has exactly `count` numeric vectors. */
function parseEmbeddings(json: unknown, count: number): EmbedPayload | undefined {
  if (!isRecord(json) || !Array.isArray(json.data) || json.data.length !== count) return undefined;
  const embeddings: number[][] = new Array<number[]>(count);
  for (const [position, item] of json.data.entries()) {
    if (!isRecord(item) || !Array.isArray(item.embedding)) return undefined;
    const index = typeof item.index === 'number' ? item.index : position;
    if (!item.embedding.every((x) => typeof x === 'number')) return undefined;
    if (index < 0 || index >= count || embeddings[index] !== undefined) return undefined;
    embeddings[index] = item.embedding;
  }
  const usage = isRecord(json.usage) ? json.usage : {};
  return { embeddings, usage: { promptTokens: tokenCount(usage.prompt_tokens) } };
}

/** Re-checks a cached chat entry, so a hand-edited or stale file is a miss, not a crash. */
function cachedChat(value: unknown): ChatPayload | undefined {
  if (!isRecord(value) || !isRecord(value.message) || !isRecord(value.usage)) return undefined;
  const { content, toolCalls } = value.message;
  if (content !== null && typeof content !== 'string') return undefined;
  if (!Array.isArray(toolCalls)) return undefined;
  const calls: ToolCall[] = [];
  for (const call of toolCalls) {
    if (!isRecord(call) || typeof call.name !== 'string' || typeof call.arguments !== 'string') {
      return undefined;
    }
    calls.push({ name: call.name, arguments: call.arguments });
  }
  return {
    message: { content, toolCalls: calls },
    usage: {
      promptTokens: tokenCount(value.usage.promptTokens),
      completionTokens: tokenCount(value.usage.completionTokens),
    },
  };
}

function cachedEmbeddings(value: unknown, count: number): EmbedPayload | undefined {
  if (!isRecord(value) || !Array.isArray(value.embeddings) || !isRecord(value.usage)) {
    return undefined;
  }
  const { embeddings } = value;
  if (embeddings.length !== count) return undefined;
  if (!embeddings.every((v) => Array.isArray(v) && v.every((x) => typeof x === 'number'))) {
    return undefined;
  }
  return {
    embeddings: embeddings,
    usage: { promptTokens: tokenCount(value.usage.promptTokens) },
  };
}

/**
 * Creates a judge client. Reads `OPENAI_BASE_URL` / `OPENAI_API_KEY` from `options.env` (default
 * `process.env`) once, here; nothing below touches the environment.
 */
export function createJudgeClient(options: JudgeClientOptions = {}): JudgeClient {
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
      : createFileCache(options.cacheDir);
  const hostLimiter = options.hostLimiter ?? createHostLimiter(options.maxConcurrentPerHost ?? 8);

  const extraHeaders = options.headers ?? {};
  /** The key and header values, removed from any text we hand out: servers echo headers. */
  const secrets = [apiKey, ...Object.values(extraHeaders)].filter(
    (value): value is string => value !== undefined && value.length >= 4,
  );
  const scrub = (text: string): string =>
    secrets.reduce((clean, secret) => clean.split(secret).join('[redacted]'), text);

  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey !== undefined && apiKey !== '') headers.authorization = `Bearer ${apiKey}`;
  for (const [name, value] of Object.entries(extraHeaders)) headers[name.toLowerCase()] = value;

  const attempt = async (
    url: string,
    payload: string,
    signal: AbortSignal | undefined,
  ): Promise<AttemptOutcome> => {
    const aborted = (): AttemptOutcome => ({
      kind: 'fail',
      error: { code: 'judge.aborted', message: `POST ${url} was aborted` },
    });
    if (signal?.aborted) return aborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const forwardAbort = (): void => controller.abort();
    signal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      const response = await fetchFn(url, {
        method: 'POST',
        headers,
        body: payload,
        signal: controller.signal,
      });
      // The timeout covers the body too: a server may send headers and then stall.
      const text = await response.text();
      const raw = scrub(text.slice(0, RAW_LIMIT));
      if (response.ok) {
        try {
          return {
            kind: 'ok',
            json: JSON.parse(text) as unknown,
            text: raw,
            status: response.status,
          };
        } catch {
          return {
            kind: 'fail',
            error: {
              code: 'judge.malformed',
              message: `POST ${url} answered ${response.status} with a body that is not JSON`,
              status: response.status,
              raw,
            },
          };
        }
      }
      const error: JudgeError = {
        code: 'judge.http',
        message: scrub(`POST ${url} answered ${response.status}${errorDetail(text)}`),
        status: response.status,
        raw,
      };
      if (response.status === 429 || response.status >= 500) {
        return { kind: 'retry', error, serverDelay: serverRequestedDelay(response.headers, now()) };
      }
      return { kind: 'fail', error };
    } catch (cause) {
      if (signal?.aborted) return aborted();
      if (timedOut) {
        return {
          kind: 'retry',
          error: { code: 'judge.timeout', message: `POST ${url} timed out after ${timeoutMs} ms` },
        };
      }
      const code = networkCode(cause);
      const reason = cause instanceof Error ? (cause.cause ?? cause) : cause;
      const detail = reason instanceof Error ? reason.message : String(reason);
      const error: JudgeError = {
        code: 'judge.network',
        message: scrub(`POST ${url} failed${code === undefined ? '' : ` (${code})`}: ${detail}`),
      };
      return code !== undefined && RETRYABLE_NETWORK_CODES.has(code)
        ? { kind: 'retry', error }
        : { kind: 'fail', error };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    }
  };

  /**
   * The shared path of every call: cache lookup, bounded attempts under the host cap, backoff
   * between them (outside the cap, so a waiting call does not hold a slot), parse, cache store.
   */
  const call = async <T>(
    path: string,
    model: string,
    body: Record<string, unknown>,
    parse: (json: unknown) => T | undefined,
    fromCache: (value: unknown) => T | undefined,
    signal: AbortSignal | undefined,
  ): Promise<({ ok: true; payload: T } & CallMeta) | { ok: false; error: JudgeError }> => {
    const url = endpoint(baseUrl, path);
    const key = cache === undefined ? undefined : cacheKey({ baseUrl, model, body });
    if (cache !== undefined && key !== undefined) {
      const hit = fromCache(await cache.get(key));
      if (hit !== undefined)
        return { ok: true, payload: hit, cached: true, latencyMs: 0, attempts: 0 };
    }
    const payload = JSON.stringify(body);
    let host: URL;
    try {
      host = new URL(url);
    } catch {
      // A config mistake, but a call result all the same: the caller's error path reports it.
      return {
        ok: false,
        error: { code: 'judge.network', message: `"${url}" is not a valid URL`, attempts: 0 },
      };
    }
    const started = now();
    for (let attempts = 1; ; attempts++) {
      const outcome = await hostLimiter.run(host.host, () => attempt(url, payload, signal));
      if (outcome.kind === 'ok') {
        const parsed = parse(outcome.json);
        if (parsed === undefined) {
          return {
            ok: false,
            error: {
              code: 'judge.malformed',
              message: `POST ${url} answered ${outcome.status} without the expected fields`,
              status: outcome.status,
              raw: outcome.text,
              attempts,
            },
          };
        }
        if (cache !== undefined && key !== undefined) await cache.set(key, parsed);
        return { ok: true, payload: parsed, cached: false, latencyMs: now() - started, attempts };
      }
      if (outcome.kind === 'fail' || attempts > maxRetries) {
        return { ok: false, error: { ...outcome.error, attempts } };
      }
      const asked = outcome.serverDelay ?? 0;
      if (asked > MAX_SERVER_WAIT_MS) {
        const message = `${outcome.error.message}; the server asked to wait ${Math.ceil(asked / 1000)} s, more than ${MAX_SERVER_WAIT_MS / 1000} s`;
        return { ok: false, error: { ...outcome.error, message, attempts } };
      }
      await abortableSleep(sleep, Math.max(asked, backoffDelay(attempts - 1, random)), signal);
      if (signal?.aborted) {
        return {
          ok: false,
          error: { code: 'judge.aborted', message: `POST ${url} was aborted`, attempts },
        };
      }
    }
  };

  return {
    baseUrl,
    async chat(request, callOptions = {}) {
      const body: Record<string, unknown> = { ...request, temperature: request.temperature ?? 0 };
      const result = await call(
        '/chat/completions',
        request.model,
        body,
        parseChat,
        cachedChat,
        callOptions.signal,
      );
      if (!result.ok) return result;
      const { payload, ...meta } = result;
      return { ...meta, ...payload };
    },
    async embed(texts, model, callOptions = {}) {
      const result = await call(
        '/embeddings',
        model,
        { model, input: texts },
        (json) => parseEmbeddings(json, texts.length),
        (value) => cachedEmbeddings(value, texts.length),
        callOptions.signal,
      );
      if (!result.ok) return result;
      const { payload, ...meta } = result;
      return { ...meta, ...payload };
    },
  };
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

/** `: <message>` from an OpenAI-style `{ error: { message } }` body, else a short excerpt. */
function errorDetail(text: string): string {
  try {
    const json = JSON.parse(text) as unknown;
    if (isRecord(json) && isRecord(json.error) && typeof json.error.message === 'string') {
      return `: ${json.error.message.slice(0, 300)}`;
    }
  } catch {
    // not JSON: fall through to the excerpt
  }
  const excerpt = text.trim().slice(0, 200);
  return excerpt === '' ? '' : `: ${excerpt}`;
}
