import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { fixedAgainst, meets, type Limit } from '../bench/limits.ts';

const atLeast4: Limit = { bound: 4, keep: 'at-least' };
const atMost110: Limit = { bound: 1.1, keep: 'at-most' };
const below500: Limit = { bound: 500, keep: 'below' };

describe('bench figures beside their limits', () => {
  it('prints the usual digits when rounding does not reach the limit', () => {
    assert.equal(fixedAgainst(3.42, 1, atLeast4), '3.4');
    assert.equal(fixedAgainst(1.0649, 2, atMost110), '1.06');
    assert.equal(fixedAgainst(431.4, 0, below500), '431');
  });

  it('adds digits rather than round a missed limit onto it', () => {
    // The table once printed 3.95 as "4.0× less" beside "NO".
    assert.equal(fixedAgainst(3.95, 1, atLeast4), '3.95');
    assert.equal(fixedAgainst(3.996, 1, atLeast4), '3.996');
    assert.equal(fixedAgainst(1.102, 2, atMost110), '1.102');
    assert.equal(fixedAgainst(499.6, 0, below500), '499.6');
  });

  it('adds digits rather than round a met limit past it', () => {
    assert.equal(fixedAgainst(4.04, 0, atLeast4), '4');
    assert.equal(fixedAgainst(3.5, 1, { bound: 3.5, keep: 'at-most' }), '3.5');
    assert.equal(fixedAgainst(1.1, 2, atMost110), '1.10');
  });

  it('rounds toward failing when even two more digits would cross the limit', () => {
    assert.equal(fixedAgainst(3.99999, 1, atLeast4), '3.999');
    assert.equal(fixedAgainst(1.100001, 2, atMost110), '1.1001');
    assert.equal(fixedAgainst(499.9999, 0, below500), '500.00');
  });

  it('agrees with meets() on every figure near a limit', () => {
    for (const limit of [atLeast4, atMost110, below500]) {
      for (let i = -300; i <= 300; i++) {
        const value = limit.bound * (1 + i / 20_000);
        const shown = Number(fixedAgainst(value, 1, limit));
        // A shown figure may read as failing when the real one passes (toward failing), never
        // as passing when it fails.
        if (!meets(value, limit)) assert.equal(meets(shown, limit), false, `${value}`);
      }
    }
  });
});
