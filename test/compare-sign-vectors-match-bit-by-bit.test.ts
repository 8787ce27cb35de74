/**
 * The sign-flip test's hot path (src/compare/sign-vectors.ts) sums eight values at a time from
 * tables and selects one order statistic instead of sorting. Both must give what the plain way
 * gives: the same sign vectors from the same seed (so every p stays the same) and the same
 * interval ends.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32Words, orderStatistic, SignVectors } from '../src/compare/sign-vectors.ts';

/** The vector the seed gives, one bit per value then a popcount of the zeros, bit by bit. */
function bitByBit(values: number[], zeros: number, next: () => number): [number, number] {
  let flipped = 0;
  let signs = 0;
  let word = 0;
  for (const [i, value] of values.entries()) {
    if (i % 32 === 0) word = next();
    const plus = (word >>> (i % 32)) & 1;
    flipped += plus === 1 ? value : -value;
    signs += plus === 1 ? 1 : -1;
  }
  for (let left = zeros; left > 0; left -= 32) {
    const bits = next();
    for (let k = 0; k < Math.min(32, left); k++) signs += ((bits >>> (31 - k)) & 1) === 1 ? 1 : -1;
  }
  return [flipped, signs];
}

describe('sign vectors eight values at a time', () => {
  it('are the vectors bit by bit gives, for every length around the word and table edges', () => {
    for (const count of [1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100]) {
      for (const zeros of [0, 5, 32, 40]) {
        const values = Array.from({ length: count }, (_, i) => Math.sin(i + count) * 0.7);
        const vectors = new SignVectors(Float64Array.from(values), zeros, count + zeros);
        const next = mulberry32Words(count + zeros);
        for (let draw = 0; draw < 50; draw++) {
          vectors.draw();
          const [flipped, signs] = bitByBit(values, zeros, next);
          assert.equal(vectors.signs, signs, `${count} values, ${zeros} zeros, vector ${draw}`);
          assert.ok(Math.abs(vectors.flipped - flipped) <= 1e-12, `${count}, ${zeros}, ${draw}`);
        }
      }
    }
  });
});

describe('the order statistic of an interval end', () => {
  it('is what sorting gives, with ties, zeros and infinite ends', () => {
    const next = mulberry32Words(9);
    for (let round = 0; round < 30; round++) {
      const values = Float64Array.from({ length: 1 + (next() % 400) }, () => {
        const pick = next() % 10;
        if (pick === 0) return -Infinity;
        if (pick === 1) return Infinity;
        if (pick === 2) return 0;
        return (next() % 50) / 7 - 3;
      });
      const sorted = Float64Array.from(values).sort();
      for (const k of [0, values.length >> 1, values.length - 1]) {
        assert.equal(orderStatistic(Float64Array.from(values), k), sorted[k], `round ${round}`);
      }
    }
  });
});
