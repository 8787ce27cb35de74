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
  readonly #partials: number[] = [];

  /** Adds a finite number. */
  add(value: number): void {
    const partials = this.#partials;
    let x = value;
    let kept = 0;
    for (const partial of partials) {
      let y = partial;
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const high = x + y;
      const low = y - (high - x);
      if (low !== 0) partials[kept++] = low;
      x = high;
    }
    partials.length = kept;
    partials.push(x);
  }

  /** The exact sum of everything added, correctly rounded to a double. */
  value(): number {
    const partials = this.#partials;
    let n = partials.length;
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
