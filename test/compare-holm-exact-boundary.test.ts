/**
 * A Holm-adjusted p that is exactly 0.05 in the reals must not block: docs/statistics.md says a
 * row blocks only when its Holm p is below 0.05, and `p = 0.050` is not significant. Families of
 * more than 62 rows draw more sign vectors (5,040 for 63 rows), and 28 × 9/5,040, which is 0.05,
 * computed as 0.049999999999999996: a row at the boundary counted as significant.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adjustFamily } from '../src/compare/family.ts';
import { resamplesFor } from '../src/compare/row-tests.ts';
import { DEFAULT_RESAMPLES, significanceLevel } from '../src/compare/sign-flip.ts';

const ALPHA = significanceLevel(0.95);

describe('Holm-adjusted p exactly at 0.05', () => {
  it('is 0.05, not a hair below, for every family size and step up to 400 rows', () => {
    const below: string[] = [];
    for (let family = 1; family <= 400; family++) {
      const vectors = resamplesFor(family, ALPHA, DEFAULT_RESAMPLES) + 1;
      for (let rank = 0; rank < family; rank++) {
        const multiplier = family - rank;
        // The resampled p whose Holm product is 0.05 in the reals, when there is one.
        const count = (ALPHA * vectors) / multiplier;
        if (!Number.isInteger(Math.round(count * 1e6) / 1e6)) continue;
        // `rank` rows with the smallest possible p come first, the rest are 1.
        const pValues = [
          ...Array.from({ length: rank }, () => 1 / vectors),
          Math.round(count) / vectors,
          ...Array.from({ length: multiplier - 1 }, () => 1),
        ];
        const holm = adjustFamily(pValues).holm[rank] ?? 1;
        if (holm < ALPHA) below.push(`${family} rows, step ${rank + 1}: ${holm}`);
      }
    }
    assert.deepEqual(below.slice(0, 5), []);
  });

  it('keeps the Holm and q values of ordinary p-values as they were', () => {
    const { holm, q } = adjustFamily([0.01, 0.04, 0.03, 0.5]);
    assert.deepEqual(holm, [0.04, 0.09, 0.09, 0.5]);
    assert.deepEqual(q, [0.04, 0.0533333333333, 0.0533333333333, 0.5]);
  });
});
