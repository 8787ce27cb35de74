/**
 * The rules of a suite's `grid:` the schema cannot say: no empty parameter name, a number of
 * points (runs) that can be planned, and no two values of a key that read the same.
 */
import { gridValueText } from '../shared/grid-value-text.ts';
import { isRecord } from '../shared/is-record.ts';
import type { ConfigPath } from './types.ts';

/**
 * Most points (combinations of values, each one run) a suite's grid may have. Every point is
 * planned, run and reported; a grid of 6 keys of 30 values each (729 million points) would
 * exhaust memory before the first case.
 */
export const MAX_GRID_POINTS = 1000;

type Add = (code: string, path: ConfigPath, message: string, key?: string) => void;

/** Reports each problem of the `grid:` mapping `grid`, at `path`, through `add`. */
export function checkGrid(grid: unknown, path: ConfigPath, add: Add): void {
  if (!isRecord(grid)) return;
  let points = 1;
  for (const [key, values] of Object.entries(grid)) {
    if (key.trim() === '')
      add('grid.empty-key', path, 'expected a parameter name, found an empty key', key);
    if (Array.isArray(values)) {
      points *= Math.max(1, values.length);
      checkGridValues(values, [...path, key], add);
    }
  }
  if (points > MAX_GRID_POINTS) {
    add(
      'grid.too-large',
      path,
      `expected at most ${MAX_GRID_POINTS} grid points (runs), found ${points.toLocaleString('en-US')}: split the grid across suites or use fewer values`,
    );
  }
}

/**
 * Refuses two values of one grid key that read the same (`[a, a]`, or `0` and `"0"`): their runs
 * would share a name in every report and `--grid key=0` could not pick one of them.
 */
function checkGridValues(
  values: readonly unknown[],
  path: ConfigPath,
  add: (code: string, path: ConfigPath, message: string) => void,
): void {
  const seen = new Map<string, number>();
  values.forEach((value, index) => {
    const text = gridValueText(value);
    const first = seen.get(text);
    if (first === undefined) {
      seen.set(text, index);
      return;
    }
    const earlier = JSON.stringify(values[first]);
    const found =
      earlier === JSON.stringify(value)
        ? `${earlier} again`
        : `${JSON.stringify(value)}, which reads as ${text} like ${earlier} before it`;
    add(
      'grid.duplicate-value',
      [...path, index],
      `expected each value once, found ${found}: their runs would have one name in every report and in --grid; keep one`,
    );
  });
}
