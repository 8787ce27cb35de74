/**
 * One attempt of a judge call: a single POST under a timeout, and what its outcome means for the
 * retry loop: an answer, a failure worth another attempt (429, 5xx, a timeout, a dropped
 * socket), or a failure that will not heal (4xx, a bad URL, an abort).
 */
import { CappedBytes, MAX_OUTPUT_BYTES, passedCap } from '../shared/output-cap.ts';
import { maskCredentialsIn } from '../shared/secrets.ts';
import { serverRequestedDelay } from './backoff.ts';
import { errorDetail, reportedUsage } from './responses.ts';
import type { JudgeError } from './types.ts';

/** How much of a malformed body `JudgeError.raw` keeps. */
const RAW_LIMIT = 2048;

/** What every attempt of a client uses. */
export interface AttemptSettings {
  /** The fetch that sends the request. */
  fetch: typeof fetch;
  /** Request headers, the key among them. */
  headers: Record<string, string>;
  /** From the request to the end of the body. */
  timeoutMs: number;
  /** Removes the key and header values from any text handed out: servers echo headers. */
  scrub: (text: string) => string;
  /** Milliseconds since the epoch, for an HTTP-date `Retry-After`. */
  now: () => number;
}

/** The outcome of one attempt; `serverDelay` is the wait the server's headers asked for. */
export type AttemptOutcome =
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

/** The error of a call to `url` stopped by its signal, during a request or a backoff wait. */
export function abortedError(url: string, method = 'POST'): JudgeError {
  return { code: 'judge.aborted', message: maskCredentialsIn(`${method} ${url} was aborted`) };
}

/** One HTTP request as an attempt sends it; `headers` replace the settings' headers. */
export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/** The outcome of one request: the answer's text, or why there is none (see {@link AttemptOutcome}). */
export type RequestOutcome =
  | { kind: 'ok'; status: number; text: string; contentType: string | null }
  | Exclude<AttemptOutcome, { kind: 'ok' }>;

/** POSTs `payload` to `url` once and reads the answer as JSON. */
export async function postAttempt(
  url: string,
  payload: string,
  signal: AbortSignal | undefined,
  settings: AttemptSettings,
): Promise<AttemptOutcome> {
  const outcome = await requestAttempt({ method: 'POST', url, body: payload }, signal, settings);
  if (outcome.kind !== 'ok') return outcome;
  const raw = settings.scrub(outcome.text).slice(0, RAW_LIMIT);
  try {
    return {
      kind: 'ok',
      json: JSON.parse(outcome.text) as unknown,
      text: raw,
      status: outcome.status,
    };
  } catch {
    return {
      kind: 'fail',
      error: {
        code: 'judge.malformed',
        message: `POST ${url} answered ${outcome.status} with a body that is not JSON`,
        status: outcome.status,
        raw,
      },
    };
  }
}

/**
 * Sends `request` once, within `settings.timeoutMs` (`null`: only `signal` stops it); every HTTP
 * or network problem comes back as an outcome. A 2xx answer is `ok` with its whole text; a 429
 * or 5xx, a timeout or a dropped socket is worth another attempt; anything else is not.
 */
export async function requestAttempt(
  request: HttpRequest,
  signal: AbortSignal | undefined,
  settings: Omit<AttemptSettings, 'timeoutMs'> & { timeoutMs: number | null },
): Promise<RequestOutcome> {
  const { fetch: fetchFn, timeoutMs } = settings;
  const { method, url } = request;
  // Secrets scrubbed, and the user part of any URL masked: fetch's own errors quote the URL.
  const scrub = (text: string): string => settings.scrub(maskCredentialsIn(text));
  if (signal?.aborted) return { kind: 'fail', error: abortedError(url, method) };
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs === null
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
  const forwardAbort = (): void => controller.abort();
  signal?.addEventListener('abort', forwardAbort, { once: true });
  try {
    const response = await fetchFn(url, {
      method,
      headers: request.headers ?? settings.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: controller.signal,
    });
    // The timeout covers the body too: a server may send headers and then stall.
    const text = await cappedText(response);
    if (text === undefined) {
      controller.abort();
      return {
        kind: 'fail',
        error: {
          code: 'judge.too-large',
          message: `${passedCap('the answer')}; ${method} ${scrub(url)} was stopped`,
          status: response.status,
        },
      };
    }
    if (response.ok) {
      return {
        kind: 'ok',
        status: response.status,
        text,
        contentType: response.headers.get('content-type'),
      };
    }
    // Scrubbed before it is cut: a secret across the cut would otherwise keep its first part.
    const clean = scrub(text);
    // A model API may bill an error answer: the tokens it reports with it are kept.
    const usage = reportedUsage(jsonOrUndefined(text));
    const error: JudgeError = {
      code: 'judge.http',
      message: `${method} ${scrub(url)} answered ${response.status}${errorDetail(clean)}`,
      status: response.status,
      raw: clean.slice(0, RAW_LIMIT),
      ...(usage !== undefined ? { usage } : {}),
    };
    if (response.status === 429 || response.status >= 500) {
      return {
        kind: 'retry',
        error,
        serverDelay: serverRequestedDelay(response.headers, settings.now()),
      };
    }
    return { kind: 'fail', error };
  } catch (cause) {
    if (signal?.aborted) return { kind: 'fail', error: abortedError(url, method) };
    if (timedOut) {
      return {
        kind: 'retry',
        error: {
          code: 'judge.timeout',
          message: `${method} ${scrub(url)} timed out after ${timeoutMs} ms`,
        },
      };
    }
    const code = networkCode(cause);
    const reason = cause instanceof Error ? (cause.cause ?? cause) : cause;
    const detail = reason instanceof Error ? reason.message : String(reason);
    const error: JudgeError = {
      code: 'judge.network',
      message: scrub(`${method} ${url} failed${code === undefined ? '' : ` (${code})`}: ${detail}`),
      ...(code !== undefined ? { networkCode: code } : {}),
    };
    return code !== undefined && RETRYABLE_NETWORK_CODES.has(code)
      ? { kind: 'retry', error }
      : { kind: 'fail', error };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
}

/**
 * The body of `response` as text, read as it comes; undefined once it passes
 * {@link MAX_OUTPUT_BYTES} (announced or streamed), the rest left unread.
 */
async function cappedText(response: Response): Promise<string | undefined> {
  const body = response.body;
  if (Number(response.headers.get('content-length')) > MAX_OUTPUT_BYTES) {
    await body?.cancel().catch(() => {});
    return undefined;
  }
  if (body === null) return '';
  const kept = new CappedBytes();
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return kept.text();
    if (!kept.add(value)) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
  }
}

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

/** `text` parsed as JSON, or undefined when it is not JSON. */
function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
