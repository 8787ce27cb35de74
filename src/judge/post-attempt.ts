/**
 * One attempt of a judge call: a single POST under a timeout, and what its outcome means for the
 * retry loop: an answer, a failure worth another attempt (429, 5xx, a timeout, a dropped
 * socket), or a failure that will not heal (4xx, a bad URL, an abort).
 */
import { serverRequestedDelay } from './backoff.ts';
import { errorDetail } from './responses.ts';
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
export function abortedError(url: string): JudgeError {
  return { code: 'judge.aborted', message: `POST ${url} was aborted` };
}

/** POSTs `payload` to `url` once; every HTTP or network problem comes back as an outcome. */
export async function postAttempt(
  url: string,
  payload: string,
  signal: AbortSignal | undefined,
  settings: AttemptSettings,
): Promise<AttemptOutcome> {
  const { fetch: fetchFn, timeoutMs, scrub } = settings;
  if (signal?.aborted) return { kind: 'fail', error: abortedError(url) };
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
      headers: settings.headers,
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
      return {
        kind: 'retry',
        error,
        serverDelay: serverRequestedDelay(response.headers, settings.now()),
      };
    }
    return { kind: 'fail', error };
  } catch (cause) {
    if (signal?.aborted) return { kind: 'fail', error: abortedError(url) };
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
