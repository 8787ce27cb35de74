/**
 * Telling a rate limit from a refusal, by GitHub's status and headers rather than its wording
 * (docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api): a 403 or 429 that
 * carries `retry-after`, or `x-ratelimit-remaining: 0`, or (a 403) says "secondary rate limit",
 * is a rate limit, and says how long to wait; any other 403 is a permission problem, never waited
 * for. `octokit.ts` waits (within the budget) and `errors.ts` words the warning from this.
 */

/** What GitHub asks a client to wait when it gives no time: "at least one minute". */
export const UNTIMED_RATE_LIMIT_SECONDS = 60;

/** A rate limit GitHub answered with, and how long it asks to wait before the next try. */
export interface RateLimit {
  /** `secondary rate limit` when GitHub says so, else `rate limit`: for messages. */
  kind: 'rate limit' | 'secondary rate limit';
  /** Seconds to wait: `retry-after`, or until just past `x-ratelimit-reset`, whichever is later. */
  waitSeconds: number;
  /** When the token's limit resets (`x-ratelimit-reset`), when GitHub said. */
  resetsAt?: Date;
  /** GitHub's own wait (`retry-after`), when it gave one. */
  retryAfter?: number;
}

/**
 * The rate limit a failed request ran into, or null when it was not one (any other status, or a
 * 403 with none of the signs: a missing permission, which waiting does not fix).
 *
 * @param headers the answer's headers, names in lower case (as octokit gives them).
 * @param message GitHub's message; read only for a 403 "secondary rate limit" without headers.
 * @param now the time, in milliseconds since the epoch, to measure the reset from.
 */
export function rateLimitOf(
  status: number | undefined,
  headers: Record<string, unknown>,
  message: string,
  now: number,
): RateLimit | null {
  if (status !== 403 && status !== 429) return null;
  const retryAfter = retryAfterSeconds(headers['retry-after'], now);
  const exhausted = headers['x-ratelimit-remaining'] === '0';
  const resetSeconds = Number(headers['x-ratelimit-reset']);
  // A reset past the Date range (x-ratelimit-reset: 1e14) is no time: clockTime would throw on it.
  const reset = new Date(resetSeconds * 1000);
  const resetsAt =
    exhausted && resetSeconds > 0 && !Number.isNaN(reset.getTime()) ? reset : undefined;
  const secondary = SECONDARY_RATE.test(message);
  if (retryAfter === undefined && !exhausted && !secondary && status === 403) return null;
  // A second past the reset, as GitHub advises: the limit is lifted after it, not at it.
  const untilReset =
    resetsAt === undefined
      ? undefined
      : Math.max(0, Math.ceil((resetsAt.getTime() - now) / 1000)) + 1;
  const waits = [retryAfter, untilReset].filter((wait): wait is number => wait !== undefined);
  return {
    kind: secondary && !exhausted ? 'secondary rate limit' : 'rate limit',
    waitSeconds: waits.length > 0 ? Math.max(...waits) : UNTIMED_RATE_LIMIT_SECONDS,
    ...(resetsAt !== undefined && { resetsAt }),
    ...(retryAfter !== undefined && { retryAfter }),
  };
}

/** `14:05:09 UTC`: when a limit resets, for messages. */
export function clockTime(at: Date): string {
  return `${at.toISOString().slice(11, 19)} UTC`;
}

/** `retry-after` in seconds: a number of seconds, or an HTTP date; undefined when neither. */
function retryAfterSeconds(value: unknown, now: number): number | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.ceil(seconds) : undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The rate limit a GraphQL answer's body reports, or null. GitHub's GraphQL API answers a spent
 * primary limit with 200 and an error of type `RATE_LIMITED` (or `RATE_LIMIT`, code
 * `graphql_rate_limit`, as it has also been seen to answer), and a secondary limit with 200 or 403
 * and "an error message that indicates" it
 * (docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#exceeding-the-rate-limit),
 * whose wording and fields it does not pin down; {@link rateLimitOf} sees only the 403. So an
 * error is a rate limit when any of its structured fields (`type`, `code`, `extensions.type`,
 * `extensions.code`) names one, in any case and spelling (`RATE_LIMITED`, `graphql_rate_limit`,
 * `SECONDARY_RATE_LIMITED`), or its message says one ("rate limit", "abuse detection"); it is a
 * secondary one when any of them says so ("secondary", "abuse"), which then wins over a primary
 * type: its wait is `retry-after` or GitHub's minute, never an hourly reset that would not be
 * waited for. An error answer carrying `retry-after`, which GitHub sends only with a limit, is
 * waited as it asks. The headers say how long to wait, as for REST: a spent primary limit waits
 * for `x-ratelimit-reset` even when `x-ratelimit-remaining` is not 0 (it has been seen to lag the
 * body); with no time given, GitHub's "at least one minute" applies.
 */
export function graphqlRateLimitOf(
  data: unknown,
  headers: Record<string, unknown>,
  now: number,
): RateLimit | null {
  const errors = (data as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  const limits = errors.map(graphqlErrorLimit).filter((kind) => kind !== null);
  if (limits.includes('secondary') || (limits.length === 0 && hasRetryAfter(headers))) {
    return rateLimitOf(403, headers, 'secondary rate limit', now);
  }
  if (limits.length === 0) return null;
  // The body says the limit is spent: read as a 429 with the limit used up.
  return rateLimitOf(429, { ...headers, 'x-ratelimit-remaining': '0' }, '', now);
}

/** Which rate limit one GraphQL error reports, by its fields or its words; null when none. */
function graphqlErrorLimit(entry: unknown): 'primary' | 'secondary' | null {
  if (entry === null || typeof entry !== 'object') return null;
  const { type, code, message, extensions } = entry as Record<string, unknown>;
  const more =
    extensions !== null && typeof extensions === 'object'
      ? (extensions as Record<string, unknown>)
      : {};
  const named = [type, code, more.type, more.code].filter(
    (field): field is string => typeof field === 'string',
  );
  const said = typeof message === 'string' ? message : '';
  if (!named.some((field) => RATE_LIMIT_NAME.test(field)) && !RATE_LIMIT_WORDS.test(said)) {
    return null;
  }
  return [...named, said].some((text) => SECONDARY_SIGN.test(text)) ? 'secondary' : 'primary';
}

function hasRetryAfter(headers: Record<string, unknown>): boolean {
  const value = headers['retry-after'];
  return typeof value === 'string' && value.trim() !== '';
}

/** A GraphQL error field naming a rate limit: `RATE_LIMITED`, `graphql_rate_limit`, `RateLimit`. */
const RATE_LIMIT_NAME = /rate[_-]?limit/i;
/** GitHub's words for a rate limit in an error message, the older "abuse detection" included. */
const RATE_LIMIT_WORDS = /\brate limit\b|\babuse detection\b/i;
/** What tells a secondary limit from a primary one, in a field or the message. */
const SECONDARY_SIGN = /secondary|abuse/i;

/** How GitHub words a secondary rate limit ("You have exceeded a secondary rate limit"). */
const SECONDARY_RATE = /\bsecondary rate\b/i;
