/**
 * GraphQL answers a rate limit with 200 and an `errors` list whose shape GitHub documents only
 * loosely ("an error message that indicates that you hit a secondary rate limit"): the limit is
 * told by what the error's structured fields say (`type`, `code`, `extensions.type`,
 * `extensions.code`, in any case: `RATE_LIMITED`, `RATE_LIMIT`, `graphql_rate_limit`,
 * `SECONDARY_RATE_LIMITED`), by GitHub's wordings of it, and by a `retry-after` on the answer,
 * not by one sentence; a secondary limit (say any field, or the message) is waited out for
 * `retry-after` or GitHub's minute, never for the hour's reset a primary one waits for. Errors of
 * other kinds are no rate limit. Table-driven over `graphqlRateLimitOf`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { graphqlRateLimitOf, UNTIMED_RATE_LIMIT_SECONDS } from '../src/github/rate-limit.ts';

const NOW = Date.UTC(2026, 0, 1);
/** A reset 30 s away, with requests left: what a secondary limit's answer carries. */
const HEADERS = { 'x-ratelimit-remaining': '4990', 'x-ratelimit-reset': String(NOW / 1000 + 30) };

const cases: {
  name: string;
  errors: unknown[];
  headers?: Record<string, string>;
  kind: 'rate limit' | 'secondary rate limit' | null;
  wait?: number;
}[] = [
  {
    name: 'type RATE_LIMITED (primary): waits for the reset',
    errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for installation ID 1.' }],
    kind: 'rate limit',
    wait: 31,
  },
  {
    name: 'type RATE_LIMIT with code graphql_rate_limit',
    errors: [{ type: 'RATE_LIMIT', code: 'graphql_rate_limit', message: 'x' }],
    kind: 'rate limit',
    wait: 31,
  },
  {
    name: 'only extensions.code names it, in lower case',
    errors: [{ message: 'Something went wrong', extensions: { code: 'rate_limited' } }],
    kind: 'rate limit',
    wait: 31,
  },
  {
    name: 'only extensions.type names it',
    errors: [{ message: 'x', extensions: { type: 'RATE_LIMITED' } }],
    kind: 'rate limit',
    wait: 31,
  },
  {
    name: 'a primary limit said in words only',
    errors: [{ message: 'API rate limit already exceeded for user ID 1.' }],
    kind: 'rate limit',
    wait: 31,
  },
  {
    name: 'secondary, in words only (the message GitHub sends today)',
    errors: [{ message: 'You have exceeded a secondary rate limit. Please wait a few minutes.' }],
    kind: 'secondary rate limit',
    wait: UNTIMED_RATE_LIMIT_SECONDS,
  },
  {
    name: 'secondary, typed, with a message that does not say so',
    errors: [{ type: 'SECONDARY_RATE_LIMITED', message: 'Please slow down.' }],
    kind: 'secondary rate limit',
    wait: UNTIMED_RATE_LIMIT_SECONDS,
  },
  {
    name: 'typed RATE_LIMITED but saying secondary: the minute, not the reset',
    errors: [{ type: 'RATE_LIMITED', message: 'You have exceeded a secondary rate limit.' }],
    headers: { ...HEADERS, 'x-ratelimit-reset': String(NOW / 1000 + 3000) },
    kind: 'secondary rate limit',
    wait: UNTIMED_RATE_LIMIT_SECONDS,
  },
  {
    name: 'secondary in extensions.code, with retry-after',
    errors: [{ message: 'Try again later', extensions: { code: 'secondary_rate_limit' } }],
    headers: { ...HEADERS, 'retry-after': '7' },
    kind: 'secondary rate limit',
    wait: 7,
  },
  {
    name: 'the older wording (an abuse detection mechanism)',
    errors: [{ message: 'You have triggered an abuse detection mechanism.' }],
    kind: 'secondary rate limit',
    wait: UNTIMED_RATE_LIMIT_SECONDS,
  },
  {
    name: 'an untyped error on an answer with retry-after: waited as GitHub asks',
    errors: [{ message: 'Please retry your request.' }],
    headers: { ...HEADERS, 'retry-after': '5' },
    kind: 'secondary rate limit',
    wait: 5,
  },
  {
    name: 'a refusal (FORBIDDEN) is no rate limit',
    errors: [{ type: 'FORBIDDEN', message: 'Resource not accessible by integration' }],
    kind: null,
  },
  {
    name: 'NOT_FOUND is no rate limit',
    errors: [
      { type: 'NOT_FOUND', message: "Could not resolve to a node with the global id of 'x'" },
    ],
    kind: null,
  },
  {
    name: 'an error whose message merely names a rate-limit field is no rate limit',
    errors: [{ message: "Field 'rateLimit' doesn't exist on type 'Query'" }],
    kind: null,
  },
  { name: 'entries that are not objects are skipped', errors: [null, 'text', 3], kind: null },
];

describe('graphqlRateLimitOf: the shapes of a rate-limited 200', () => {
  for (const c of cases) {
    it(c.name, () => {
      const limit = graphqlRateLimitOf({ data: null, errors: c.errors }, c.headers ?? HEADERS, NOW);
      assert.equal(limit?.kind ?? null, c.kind);
      if (c.wait !== undefined) assert.equal(limit?.waitSeconds, c.wait);
    });
  }

  it('an answer without errors is no rate limit, whatever its headers', () => {
    assert.equal(graphqlRateLimitOf({ data: { nodes: [] } }, { 'retry-after': '5' }, NOW), null);
    assert.equal(graphqlRateLimitOf(null, HEADERS, NOW), null);
  });
});
