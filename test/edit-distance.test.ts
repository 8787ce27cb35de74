/**
 * The shared edit distance: exact against the textbook table, with and without swaps, by code
 * point, and bounded by its cell budget.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editDistance } from '../src/shared/edit-distance.ts';

/** The textbook full table, to check the optimized one against; `swaps`: optimal string alignment. */
function naiveDistance(left: string, right: string, swaps = false): number {
  const a = [...left];
  const b = [...right];
  const table = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = table[i] as number[];
      const above = table[i - 1] as number[];
      let best = Math.min(
        (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
      );
      if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((table[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (table[a.length] as number[])[b.length] as number;
}

// A small deterministic generator: the same "random" strings on every run.
let seed = 42;
const next = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const randomText = (length: number, alphabet: number): string =>
  Array.from({ length }, () => String.fromCodePoint(97 + Math.floor(next() * alphabet))).join('');

describe('editDistance', () => {
  const table: [string, string, number, number][] = [
    // left, right, Levenshtein, with swaps
    ['', '', 0, 0],
    ['', 'abc', 3, 3],
    ['kitten', 'sitting', 3, 3],
    ['tiemout', 'timeout', 2, 1],
    ['ab', 'ba', 2, 1],
    ['ca', 'abc', 3, 3],
    ['answr.ts', 'answer.ts', 1, 1],
    // By code point: an emoji is one character, a combining accent its own.
    ['😀', '😃', 1, 1],
    ['a😀b', 'ab', 1, 1],
    ['😀😃', '😃😀', 2, 1],
    ['cafe\u0301', 'cafe', 1, 1],
    ['東京都', '京都', 1, 1],
  ];
  for (const [left, right, plain, swaps] of table) {
    it(`${JSON.stringify(left)} → ${JSON.stringify(right)}: ${plain}, ${swaps} with swaps`, () => {
      assert.deepEqual(editDistance(left, right), { distance: plain, exact: true });
      assert.deepEqual(editDistance(right, left), { distance: plain, exact: true });
      assert.deepEqual(editDistance(left, right, { transpositions: true }), {
        distance: swaps,
        exact: true,
      });
    });
  }

  it('matches the textbook algorithm on random inputs', () => {
    for (let trial = 0; trial < 300; trial++) {
      const a = randomText(Math.floor(next() * 30), 4);
      const b = randomText(Math.floor(next() * 30), 4);
      assert.deepEqual(editDistance(a, b), { distance: naiveDistance(a, b), exact: true });
      assert.deepEqual(editDistance(a, b, { transpositions: true }), {
        distance: naiveDistance(a, b, true),
        exact: true,
      });
    }
  });

  it('stays exact through the band when the texts are similar and the budget is small', () => {
    for (let trial = 0; trial < 100; trial++) {
      const a = randomText(200, 3);
      const b = [...a];
      for (let edits = 0; edits < 5; edits++) {
        const at = Math.floor(next() * b.length);
        const roll = next();
        if (roll < 0.4) b.splice(at, 1);
        else if (roll < 0.8) b.splice(at, 0, 'x');
        else b.splice(at, 2, b[at + 1] ?? 'y', b[at] ?? 'z');
      }
      const edited = b.join('');
      // 200 × 200 cells would exceed this budget, so the banded path runs.
      assert.deepEqual(editDistance(a, edited, { budget: 20_000 }), {
        distance: naiveDistance(a, edited),
        exact: true,
      });
      assert.deepEqual(editDistance(a, edited, { budget: 20_000, transpositions: true }), {
        distance: naiveDistance(a, edited, true),
        exact: true,
      });
    }
  });

  it('gives an upper bound, marked approximate, when the budget runs out', () => {
    const a = randomText(300, 26);
    const b = randomText(300, 26);
    for (const transpositions of [false, true]) {
      const result = editDistance(a, b, { budget: 30_000, transpositions });
      assert.equal(result.exact, false);
      assert.ok(result.distance >= naiveDistance(a, b, transpositions));
      assert.ok(result.distance <= 300);
    }
  });

  // Speed is the benchmark's business; this checks the long-text path gives the exact answer.
  it('finds the exact distance of long near-identical texts', () => {
    const a = [...randomText(200_000, 26)];
    const b = [...a];
    b[100_000] = '\u0001';
    assert.deepEqual(editDistance(a.join(''), b.join('')), { distance: 1, exact: true });
  });
});
