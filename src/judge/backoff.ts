/**
 * How long to wait before the next attempt of a judge call: exponential backoff with full
 * jitter, raised to whatever the server asked for. Pure functions, so the policy is testable
 * without a server or a clock.
 */

/** The first backoff window; attempt n waits up to `BASE × 2ⁿ`. */
export const BACKOFF_BASE_MS = 500;
/** No backoff window grows beyond this (a server's explicit request may). */
export const BACKOFF_CAP_MS = 20_000;

/**
 * The jittered backoff before retry number `retry` (0 for the first retry): a uniform draw in
 * `[0, min(cap, base × 2^retry))` — "full jitter", which spreads a thundering herd of eval
 * workers better than a fixed or equal-jitter delay.
 */
export function backoffDelay(retry: number, random: () => number): number {
  const window = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  return Math.floor(random() * window);
}

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|us|\u00b5s|ns|h|m|s)/g;
const UNIT_MS: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
  µs: 0.001,
  ns: 0.000_001,
};

/**
 * Parses a Go-style duration as OpenAI sends in `x-ratelimit-reset-*` (`1s`, `6m0s`, `120ms`,
 * `1h2m3.5s`) into milliseconds; undefined when the text is not such a duration. A bare number
 * is read as seconds, which is what some compatible gateways send.
 */
export function parseResetDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  let total = 0;
  let consumed = 0;
  for (const match of trimmed.matchAll(DURATION_PART)) {
    if (match.index !== consumed) return undefined;
    const [whole, value, unit] = match;
    total += Number(value) * (UNIT_MS[unit ?? ''] ?? 0);
    consumed += whole.length;
  }
  if (consumed === 0 || consumed !== trimmed.length) return undefined;
  return Math.ceil(total);
}

/**
 * Parses `Retry-After`: delta-seconds or an HTTP date (relative to `now`, in ms since the
 * epoch). A date in the past means "now" (0); unparseable text is undefined.
 */
export function parseRetryAfter(text: string, now: number): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Minimal header access, so this module works with `Headers` and with plain test maps. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The wait, in ms, the server asked for in a response's headers; undefined when it asked for
 * none. `Retry-After` and OpenAI's `retry-after-ms` are explicit. The `x-ratelimit-reset-*`
 * headers come on every OpenAI response, so a reset only counts for the limit that is
 * exhausted (`x-ratelimit-remaining-* = 0`); when the remaining counts are absent, both resets
 * count. The largest of the applicable waits wins — we wait at least what the server asks.
 */
export function serverRequestedDelay(headers: HeaderReader, now: number): number | undefined {
  const waits: number[] = [];
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    const ms = parseRetryAfter(retryAfter, now);
    if (ms !== undefined) waits.push(ms);
  }
  const retryAfterMs = headers.get('retry-after-ms');
  if (retryAfterMs !== null && /^\d+(?:\.\d+)?$/.test(retryAfterMs.trim())) {
    waits.push(Math.ceil(Number(retryAfterMs.trim())));
  }
  for (const kind of ['requests', 'tokens'] as const) {
    const reset = headers.get(`x-ratelimit-reset-${kind}`);
    if (reset === null) continue;
    const remaining = headers.get(`x-ratelimit-remaining-${kind}`);
    if (remaining !== null && Number(remaining.trim()) > 0) continue;
    const ms = parseResetDuration(reset);
    if (ms !== undefined) waits.push(ms);
  }
  return waits.length === 0 ? undefined : Math.max(...waits);
}
