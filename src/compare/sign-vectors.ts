/**
 * The hot path of every resampled sign-flip test: random sign vectors over a row's differences,
 * drawn from one seeded stream, and the order statistic of their ends that bounds the interval.
 * Pure and deterministic.
 */

/**
 * Mulberry32 (Tommy Ettinger's 32-bit generator) as unsigned 32-bit words: one state word,
 * period 2^32, pure `Math.imul` and shifts, so every engine gives the same stream.
 */
export function mulberry32Words(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/**
 * Draws sign vectors s over `values` (the non-zero differences) and `zeros` zero differences:
 * after each `draw()`, `flipped` is Σ s_i·d_i and `signs` is Σ s_i over all of them.
 *
 * Each vector takes one random word per 32 values (bit k of word w is the sign of value 32w + k,
 * 1 for +) and then one per 32 zeros, whose signs only count (a popcount). A large family draws
 * millions of vectors, so the values are taken eight at a time rather than bit by bit: for each
 * group of eight, a table holds the signed sum of every one of the 256 sign patterns, and a
 * vector costs one look-up per eight values (bench/README.md#comparisons has the figures). The words drawn, and so every vector, are the same as bit
 * by bit; only the rounding of Σ s_i·d_i differs, by an ulp or so, far inside `TIE_TOLERANCE`.
 */
export class SignVectors {
  /** Σ s_i·d_i over the values, of the last vector drawn. */
  flipped = 0;
  /** Σ s_i over values and zeros, of the last vector drawn. */
  signs = 0;
  readonly #count: number;
  readonly #zeros: number;
  readonly #next: () => number;
  /** 256 signed sums per group of eight values (the last group may hold fewer). */
  readonly #sums: Float64Array;

  constructor(values: Float64Array, zeros: number, seed: number) {
    this.#count = values.length;
    this.#zeros = zeros;
    this.#next = mulberry32Words(seed);
    const groups = Math.ceil(this.#count / 8);
    this.#sums = new Float64Array(groups * 256);
    for (let group = 0; group < groups; group++) {
      const start = group * 8;
      const end = Math.min(this.#count, start + 8);
      for (let pattern = 0; pattern < 256; pattern++) {
        let sum = 0;
        for (let i = start; i < end; i++) {
          const value = values[i] ?? 0;
          sum += ((pattern >>> (i - start)) & 1) === 1 ? value : -value;
        }
        this.#sums[group * 256 + pattern] = sum;
      }
    }
  }

  /** Draws the next vector into `flipped` and `signs`. */
  draw(): void {
    const sums = this.#sums;
    let flipped = 0;
    let plus = 0;
    for (let start = 0; start < this.#count; start += 32) {
      const word = this.#next();
      const used = this.#count - start;
      // Bits past the last value are drawn but not used, as bit by bit.
      plus += popcount(used >= 32 ? word : word & ((1 << used) - 1));
      const base = (start / 8) * 256;
      for (let byte = 0; byte < 4 && byte * 8 < used; byte++) {
        flipped += sums[base + byte * 256 + ((word >>> (byte * 8)) & 255)] ?? 0;
      }
    }
    let zerosPlus = 0;
    for (let left = this.#zeros; left > 0; left -= 32) {
      const bits = this.#next();
      zerosPlus += popcount(left >= 32 ? bits : bits >>> (32 - left));
    }
    this.flipped = flipped;
    this.signs = 2 * plus - this.#count + 2 * zerosPlus - this.#zeros;
  }
}

/** Set bits of a 32-bit word. */
function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/**
 * The `k`-th smallest of `values` (0-based), which it reorders. The interval needs one order
 * statistic of each end's thousands of values, so a selection (Hoare's quickselect, middle
 * pivot) instead of two sorts, which took as long as drawing the vectors. The value is the one
 * sorting gives: ties and ±Infinity (vectors that reject every shift) included.
 */
export function orderStatistic(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1] ?? 0;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((values[i] ?? 0) < pivot) i++;
      while ((values[j] ?? 0) > pivot) j--;
      if (i <= j) {
        const swapped = values[i] ?? 0;
        values[i++] = values[j] ?? 0;
        values[j--] = swapped;
      }
    }
    // Now values[lo..j] ≤ pivot ≤ values[i..hi], and anything between equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k] ?? Number.NaN;
}
