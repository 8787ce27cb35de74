import type { Params } from '../types/index.ts';

/**
 * Expands grid-search parameters into their cartesian product, one `Params` per run.
 *
 * The order is that of nested loops over the keys as given, the LAST key varying fastest:
 * `{ model: [a, b], temperature: [0, 1] }` → `a/0, a/1, b/0, b/1`. Keys follow JavaScript's
 * own-key order, so integer-like keys (`"1"`, `"20"`) come first, ascending — an object cannot
 * hold them otherwise. `{}` expands to `[{}]` (one run without parameters); a key with no values
 * expands to no runs at all, which is why the config schema requires non-empty value lists.
 */
export function expandGrid(grid: Readonly<Record<string, readonly unknown[]>>): Params[] {
  let points: Params[] = [{}];
  for (const [key, values] of Object.entries(grid)) {
    const next: Params[] = [];
    for (const point of points) {
      for (const value of values) next.push({ ...point, [key]: value });
    }
    points = next;
  }
  return points;
}
