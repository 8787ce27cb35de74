/**
 * `x-ratelimit-reset` beyond what a Date holds made an Invalid Date: its wait was NaN and the
 * log line naming the reset (clockTime) threw a RangeError in place of GitHub's error.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clockTime, rateLimitOf, UNTIMED_RATE_LIMIT_SECONDS } from '../src/github/rate-limit.ts';

describe('rateLimitOf with an x-ratelimit-reset no Date holds', () => {
  it('is an untimed rate limit, not an Invalid Date', () => {
    const headers = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '100000000000000' };
    const limit = rateLimitOf(403, headers, 'API rate limit exceeded', Date.now());
    assert.ok(limit !== null);
    assert.equal(limit.resetsAt, undefined);
    assert.equal(limit.waitSeconds, UNTIMED_RATE_LIMIT_SECONDS);
  });

  it('keeps a reset a Date holds, however far, for the budget to refuse', () => {
    const now = Date.UTC(2026, 0, 1);
    const reset = String(now / 1000 + 3600);
    const limit = rateLimitOf(
      429,
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
      '',
      now,
    );
    assert.ok(limit?.resetsAt !== undefined);
    assert.equal(clockTime(limit.resetsAt), '01:00:00 UTC');
    assert.equal(limit.waitSeconds, 3601);
  });
});
