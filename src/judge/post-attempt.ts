/**
 * One attempt of a judge call: a single POST under a timeout, and what its outcome means for the
 * retry loop: an answer, a failure worth another attempt (429, 5xx, a timeout, a dropped
 * socket), or a failure that will not heal (4xx, a bad URL, an abort).
 *
 * Redirects are followed here, not by fetch, and only within the request's origin: fetch would
 * follow one to any server and send it the headers of this request (an `api-key`, an
 * `x-api-key`: it drops only `authorization`), so a redirect elsewhere is a failure that names
 * where it led.
 */
import { networkHint } from './network-hints.ts';
import { CallTimeout } from '../shared/call-timeout.ts';
import { passedCap } from '../shared/output-cap.ts';
import { maskCredentialsIn } from '../shared/secrets.ts';
import { blockedPortProblem } from '../shared/url-port.ts';
import { bodyText, notUtf8Message } from './body-text.ts';
import { headerProblem } from './header-problem.ts';
import { MAX_ANSWER_NESTING, nestsDeeperThan, tooDeepMessage } from './json-depth.ts';
import { cappedBytes, errorBodyStart } from './response-body.ts';
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

/**
 * The outcome of one attempt; `serverDelay` is the wait the server's headers asked for, and
 * `unsent` marks a failure before anything left the process (a header fetch cannot send, a URL
 * fetch refuses, such as one on a blocked port): no request, so no model call to count.
 */
export type AttemptOutcome =
  | { kind: 'ok'; json: unknown; text: string; status: number }
  | { kind: 'retry'; error: JudgeError; serverDelay?: number }
  | { kind: 'fail'; error: JudgeError; unsent?: true };

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

/** Redirects followed within one attempt, as fetch's own limit is 20: a loop gives up sooner. */
export const MAX_REDIRECTS = 10;

/** The statuses that redirect, with a `Location`. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

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

/**
 * The outcome of one request: the answer's text, or why there is none (see {@link AttemptOutcome}).
 * `notUtf8`: the body names no charset but UTF-8 and is not UTF-8 (`text` shows U+FFFD there).
 */
export type RequestOutcome =
  | { kind: 'ok'; status: number; text: string; contentType: string | null; notUtf8?: true }
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
  const { status, contentType } = outcome;
  const where = settings.scrub(maskCredentialsIn(url));
  const unreadable = outcome.notUtf8
    ? notUtf8Message('POST', where, status, contentType)
    : nestsDeeperThan(outcome.text, MAX_ANSWER_NESTING)
      ? tooDeepMessage('POST', where, status)
      : undefined;
  if (unreadable !== undefined) {
    return { kind: 'fail', error: { code: 'judge.malformed', message: unreadable, status, raw } };
  }
  try {
    return {
      kind: 'ok',
      // A byte order mark before the JSON (some servers send one) is no part of it.
      json: JSON.parse(outcome.text.replace(/^\uFEFF/, '')) as unknown,
      text: raw,
      status,
    };
  } catch {
    return {
      kind: 'fail',
      error: {
        code: 'judge.malformed',
        // The start of what came back (a gateway's page): a model target keeps no `raw`.
        message:
          outcome.text.trim() === ''
            ? `POST ${where} answered ${status} with an empty body, where JSON was expected`
            : `POST ${where} answered ${status} with a body that is not JSON${errorDetail(raw, settings.scrub)}`,
        status,
        raw,
      },
    };
  }
}

/**
 * Sends `request` once, within `settings.timeoutMs` (`null`: only `signal` stops it); every HTTP
 * or network problem comes back as an outcome. A 2xx answer is `ok` with its whole text; a 429
 * or 5xx, a timeout or a dropped socket is worth another attempt; anything else is not. Once an
 * error answer's status has come, a time-out or a dropped socket in its body is that status's
 * failure (a 4xx, not worth another attempt).
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
  // fetch's own refusal says only "bad port": a client made in code is not checked at load.
  const blocked = blockedPortProblem(url);
  if (blocked !== null) {
    return {
      kind: 'fail',
      error: { code: 'judge.network', message: `${method} ${scrub(url)}: ${blocked}` },
      unsent: true,
    };
  }
  const headers = request.headers ?? settings.headers;
  for (const [name, value] of Object.entries(headers)) {
    const problem = headerProblem(name, value);
    if (problem !== null) {
      return {
        kind: 'fail',
        error: { code: 'judge.network', message: `${method} ${scrub(url)}: ${problem}` },
        unsent: true,
      };
    }
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs === null
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
  // The answer whose body is being read: a time-out while it stalls names its status.
  let answered: Response | undefined;
  const forwardAbort = (): void => {
    // A call's time limit passing while this request is in flight: the time-out names it, unless
    // a retry loop around it already noted its last failure (its listener runs first).
    const reason: unknown = signal?.reason;
    if (reason instanceof CallTimeout) {
      const call = `${method} ${scrub(url)}`;
      reason.note(
        answered === undefined
          ? `waiting for ${call}`
          : `waiting for the body of ${call}, which answered ${answered.status}`,
      );
    }
    controller.abort();
  };
  signal?.addEventListener('abort', forwardAbort, { once: true });
  // Whether fetch answered at least once: a failure before that may have sent nothing.
  const progress = { answered: false };
  try {
    const followed = await followSameOrigin(
      fetchFn,
      { ...request, headers },
      controller.signal,
      scrub,
      progress,
    );
    if (!followed.ok) return { kind: 'fail', error: followed.error };
    const response = followed.response;
    answered = response;
    // The timeout covers the body too: a server may send headers and then stall. Of an error
    // answer only the start is quoted, so a huge one is no reason to lose its status.
    const bytes = response.ok ? await cappedBytes(response) : await errorBodyStart(response);
    if (bytes === undefined) {
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
    const contentType = response.headers.get('content-type');
    const { text, notUtf8 } = bodyText(bytes, contentType);
    if (response.ok) {
      return {
        kind: 'ok',
        status: response.status,
        text,
        contentType,
        ...(notUtf8 ? { notUtf8: true as const } : {}),
      };
    }
    // Scrubbed before it is cut: a secret across the cut would otherwise keep its first part.
    const clean = scrub(text);
    // A model API may bill an error answer: the tokens it reports with it are kept.
    const usage = reportedUsage(jsonOrUndefined(text));
    const error: JudgeError = {
      code: 'judge.http',
      message: `${method} ${scrub(url)} answered ${response.status}${errorDetail(text, scrub)}`,
      status: response.status,
      raw: clean.slice(0, RAW_LIMIT),
      ...(usage !== undefined ? { usage } : {}),
    };
    return statusOutcome(response, error, settings.now);
  } catch (cause) {
    if (signal?.aborted) return { kind: 'fail', error: abortedError(url, method) };
    if (timedOut) {
      const call = `${method} ${scrub(url)}`;
      if (answered === undefined) {
        return {
          kind: 'retry',
          error: { code: 'judge.timeout', message: `${call} timed out after ${timeoutMs} ms` },
        };
      }
      // The server answered, then stalled its body: the time-out names the status, and an error
      // answer ends as that status would (a 4xx is not retried), not as if nothing had answered.
      const message = `timed out after ${timeoutMs} ms while waiting for the body of ${call}, which answered ${answered.status}`;
      if (answered.ok) return { kind: 'retry', error: { code: 'judge.timeout', message } };
      const error: JudgeError = { code: 'judge.http', message, status: answered.status };
      return statusOutcome(answered, error, settings.now);
    }
    const code = networkCode(cause);
    const reason = cause instanceof Error ? (cause.cause ?? cause) : cause;
    const detail = reason instanceof Error ? reason.message : String(reason);
    const why = `${code === undefined ? '' : ` (${code})`}: ${detail}${networkHint(code)}`;
    if (answered !== undefined && !answered.ok) {
      // The connection broke off in the body of an error answer: the answer is its status's (a
      // 4xx is not retried), not a network failure as if nothing had answered.
      const { status } = answered;
      const message = scrub(
        `${method} ${url} answered ${status}, and reading its body failed${why}`,
      );
      return statusOutcome(answered, { code: 'judge.http', message, status }, settings.now);
    }
    const error: JudgeError = {
      code: 'judge.network',
      message: scrub(`${method} ${url} failed${why}`),
      ...(code !== undefined ? { networkCode: code } : {}),
    };
    if (code !== undefined && RETRYABLE_NETWORK_CODES.has(code)) return { kind: 'retry', error };
    // fetch refuses some requests before it opens a connection ("bad port", "unknown scheme"):
    // a TypeError with no system or socket error code behind it, on the first request.
    const unsent = !progress.answered && code === undefined && cause instanceof TypeError;
    return unsent ? { kind: 'fail', error, unsent: true } : { kind: 'fail', error };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
}

/** The outcome of an error answer: a 429 or 5xx is worth another attempt, any other status not. */
function statusOutcome(
  response: Response,
  error: JudgeError,
  now: () => number,
): Exclude<AttemptOutcome, { kind: 'ok' }> {
  if (response.status === 429 || response.status >= 500) {
    return { kind: 'retry', error, serverDelay: serverRequestedDelay(response.headers, now()) };
  }
  return { kind: 'fail', error };
}

/**
 * The answer to `request`, redirects within its origin followed: a 303 (or a 301 or 302 to a
 * POST) goes on as a GET without the body, as fetch would; a 307 or 308 keeps the method and
 * body. A redirect to another origin, a `Location` that is no URL, or too many redirects is an
 * error naming the address it led to.
 */
async function followSameOrigin(
  fetchFn: typeof fetch,
  request: HttpRequest & { headers: Record<string, string> },
  signal: AbortSignal,
  scrub: (text: string) => string,
  progress: { answered: boolean },
): Promise<{ ok: true; response: Response } | { ok: false; error: JudgeError }> {
  let { method, url, headers, body } = request;
  const origin = new URL(url).origin;
  for (let redirects = 0; ; redirects++) {
    const response = await fetchFn(url, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal,
      redirect: 'manual',
    });
    progress.answered = true;
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return { ok: true, response };
    await response.body?.cancel().catch(() => {});
    const refused = (why: string): { ok: false; error: JudgeError } => ({
      ok: false,
      error: {
        code: 'judge.http',
        message: `${method} ${scrub(url)} answered ${response.status}, a redirect to ${why}`,
        status: response.status,
      },
    });
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return refused(`${JSON.stringify(scrub(location))}, which is not a URL`);
    }
    const where = scrub(next.href);
    if (next.origin !== origin) {
      return refused(
        `${where}, another origin: not followed, since the request's headers (keys, tokens) are meant for ${origin} only; point the URL at the final address`,
      );
    }
    if (redirects >= MAX_REDIRECTS) {
      return refused(`${where}, after ${MAX_REDIRECTS} redirects already: not followed (a loop?)`);
    }
    if (response.status === 303 || (method === 'POST' && response.status <= 302)) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      headers = Object.fromEntries(
        Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'),
      );
    }
    url = next.href;
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
