/**
 * A sum of floating-point numbers that does not depend on their order: the exact sum, rounded
 * once at the end (Shewchuk's partials, the method behind Python's `math.fsum`).
 *
 * Cases finish in whatever order the scheduler gives, and a sharded or resumed run adds them up
 * in yet another order; plain `+=` would then give means that differ in the last bit between
 * two runs of the same cases, and a merged artifact that is not equal to an unsharded one.
 * Keeping the running sum as a few non-overlapping partials makes it exact, so every order
 * rounds to the same double. The partials list stays short (usually one or two numbers).
 */
export class ExactSum {
  /**
   * The partials are the first `#count` slots. The array is never shortened: setting its
   * length and pushing again gave it a new backing store on every add (~140 bytes of garbage
   * an evaluator a case, 43 of a 100,000-case run's 980 MB allocated).
   */
  readonly #partials: number[] = [];
  #count = 0;

  /** Adds a finite number. */
  add(value: number): void {
    const partials = this.#partials;
    const count = this.#count;
    let x = value;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      let y = partials[i]!;
      if (Math.abs(x) < Math.abs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      const high = x + y;
      const low = y - (high - x);
      if (low !== 0) partials[kept++] = low;
      x = high;
    }
    if (kept < partials.length) partials[kept] = x;
    else partials.push(x);
    this.#count = kept + 1;
  }

  /** The exact sum of everything added, correctly rounded to a double. */
  value(): number {
    const partials = this.#partials;
    let n = this.#count;
    if (n === 0) return 0;
    n -= 1;
    let high = partials[n] ?? 0;
    let low = 0;
    while (n > 0) {
      const x = high;
      n -= 1;
      const y = partials[n] ?? 0;
      high = x + y;
      low = y - (high - x);
      if (low !== 0) break;
    }
    // Round half to even across the remaining partials: when the rest has the same sign as
    // `low`, the true sum lies past the halfway point that `high + low` would round away from.
    const next = n > 0 ? (partials[n - 1] ?? 0) : 0;
    if (n > 0 && ((low < 0 && next < 0) || (low > 0 && next > 0))) {
      const y = low * 2;
      const x = high + y;
      if (y === x - high) high = x;
    }
    return high;
  }
}
