/**
 * Grid points of the baseline that HEAD's config no longer has. Runs are paired by suite and grid
 * point, so a renamed grid value (`model: [large]` now `[large-v2]`) is compared with nothing,
 * and renaming one passed any change under `regressions: block`. But a run that lacks a grid
 * point of its baseline is usually one that did not select it (`--grid model=small` in a matrix
 * job, against a whole baseline), which must not block. The artifact does not record the
 * filters; it records the digest of each suite's `grid:` as written (`configDataParts`). So a
 * point is gone only when HEAD's runs of the suite are, provably, its whole grid: the grid they
 * spell out (each key's values in the order the runs met them, which is the order written) has
 * that digest. When it cannot be shown (a filter, a `${VAR}` in the grid, an older artifact) the
 * point counts as not selected, as before: never a block that might be wrong. A filtered slice
 * that holds a value BASE lacks can still prove the whole grid (`renamedInSlice`): BASE's grid
 * with that value renamed in place, when it has the digest.
 */
import { writtenValueDigest } from '../config/config-data-parts.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import type { GateSpec, Params, ResultsArtifact } from '../types/index.ts';
import type { Comparison } from '../types/comparison.ts';

/** The grid points of BASE's runs of one suite that HEAD's config no longer has. */
export interface GoneGridPoints {
  suite: string;
  /** BASE's grid points, not listed in the suite's `gate.removedGridValues`. */
  gone: Params[];
  /** HEAD's grid points of the suite that BASE lacks: what they may have been renamed to. */
  added: Params[];
}

/**
 * For each suite HEAD ran in full, the grid points of BASE that it lacks and `removed(suite)` (its
 * `gate.removedGridValues`) does not accept. None when HEAD is incomplete: a run it lacks may be
 * one it never reached.
 */
export function goneGridPoints(
  comparison: Comparison,
  head: Pick<ResultsArtifact, 'runs' | 'configDataParts'>,
  removed: (suite: string) => GateSpec['removedGridValues'],
  base?: Pick<ResultsArtifact, 'runs'>,
): GoneGridPoints[] {
  if (comparison.head.incomplete !== undefined || head.configDataParts === undefined) return [];
  const found: GoneGridPoints[] = [];
  const suites = new Set(comparison.onlyInBase.map((run) => run.suite));
  for (const suite of suites) {
    const written = head.configDataParts.suites.find((s) => s.id === suite);
    const ran = head.runs.filter((run) => run.suite === suite).map((run) => run.params);
    if (written === undefined || ran.length === 0) continue;
    const before = (base?.runs ?? []).filter((run) => run.suite === suite).map((r) => r.params);
    const grid = wholeGrid(ran, written.keys.grid)
      ? gridOf(ran)
      : renamedInSlice(ran, before, written.keys.grid);
    if (grid === undefined) continue;
    const accepted = removed(suite) ?? {};
    const gone = comparison.onlyInBase
      .filter((run) => run.suite === suite && !inGrid(run.params, grid))
      .filter((run) => !listed(run.params, accepted))
      .map((run) => run.params);
    if (gone.length === 0) continue;
    const added = comparison.onlyInHead.filter((run) => run.suite === suite).map((r) => r.params);
    found.push({ suite, gone, added });
  }
  return found;
}

/**
 * Whether `points` (HEAD's runs of a suite, in run order) are every point of the suite's grid,
 * whose recorded digest is `digest` (absent: the suite has no `grid:`, so its one run is all).
 */
export function wholeGrid(points: readonly Params[], digest: string | undefined): boolean {
  if (digest === undefined) return points.length === 1 && Object.keys(points[0]!).length === 0;
  const grid = gridOf(points);
  const combinations = Object.values(grid).reduce((n, values) => n * values.length, 1);
  return combinations === points.length && writtenValueDigest(grid) === digest;
}

/** Each key's values in the order `points` meet them: the grid they spell out. */
export function gridOf(points: readonly Params[]): Record<string, unknown[]> {
  const grid: Record<string, unknown[]> = {};
  for (const point of points) {
    for (const [key, value] of Object.entries(point)) {
      const values = (grid[key] ??= []);
      const text = canonicalJson(value);
      if (!values.some((seen) => canonicalJson(seen) === text)) values.push(value);
    }
  }
  return grid;
}

/**
 * HEAD's whole grid, proven from a slice (`--grid model=large2`, one matrix job) that holds a
 * value BASE's grid lacks: BASE's grid with one of that key's values renamed in place to it, when
 * that grid has the digest HEAD's config recorded. The job that runs the renamed value is where
 * the rename is its business; a slice of values BASE has sees nothing new and proves nothing.
 * `undefined` when no such grid has the digest (another change, a `${VAR}`, an older artifact).
 */
function renamedInSlice(
  slice: readonly Params[],
  before: readonly Params[],
  digest: string | undefined,
): Record<string, unknown[]> | undefined {
  if (digest === undefined || before.length === 0) return undefined;
  const was = gridOf(before);
  const now = gridOf(slice);
  const fresh = Object.entries(now).flatMap(([key, values]) =>
    values.filter((value) => !hasValue(was[key] ?? [], value)).map((value) => ({ key, value })),
  );
  const [renamed] = fresh;
  if (fresh.length !== 1 || renamed === undefined || was[renamed.key] === undefined) {
    return undefined;
  }
  const values = was[renamed.key] ?? [];
  for (let i = 0; i < values.length; i++) {
    const grid = {
      ...was,
      [renamed.key]: values.map((value, j) => (j === i ? renamed.value : value)),
    };
    if (writtenValueDigest(grid) === digest && slice.every((point) => inGrid(point, grid))) {
      return grid;
    }
  }
  return undefined;
}

function hasValue(values: readonly unknown[], value: unknown): boolean {
  const text = canonicalJson(value);
  return values.some((seen) => canonicalJson(seen) === text);
}

/** Whether `point` is a point of `grid`: its keys, each with one of the grid's values. */
function inGrid(point: Params, grid: Readonly<Record<string, readonly unknown[]>>): boolean {
  const entries = Object.entries(point);
  if (entries.length !== Object.keys(grid).length) return false;
  return entries.every(([key, value]) => hasValue(grid[key] ?? [], value));
}

/** Whether a value of `point` is one `accepted` lists under its key (read as `--grid` reads it). */
function listed(point: Params, accepted: NonNullable<GateSpec['removedGridValues']>): boolean {
  return Object.entries(point).some(([key, value]) =>
    (accepted[key] ?? []).some((listedValue) => valueText(listedValue) === valueText(value)),
  );
}

/** A grid value as `--grid` reads it: a string as it is, anything else as JSON. */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : canonicalJson(value);
}

/** `model=large`, as `--grid` and the reports write a grid point. */
export function gridPointText(point: Params): string {
  return Object.entries(point)
    .map(([key, value]) => `${key}=${valueText(value)}`)
    .join(' ');
}

/**
 * What a suite's runs say of the grid points of the baseline its config no longer has, naming
 * the new ones beside them (a renamed value shows as one of each) and how to accept the change.
 */
export function goneGridPointsText({ gone, added }: GoneGridPoints): string {
  const one = gone.length === 1;
  const names = gone.map((point) => JSON.stringify(gridPointText(point))).join(', ');
  const renamed =
    added.length === 0
      ? ''
      : ` (${added.map((point) => JSON.stringify(gridPointText(point))).join(', ')} ${added.length === 1 ? 'is' : 'are'} new in this run: renamed?)`;
  return `grid point${one ? '' : 's'} ${names} of the baseline ${one ? 'is' : 'are'} not in the suite's grid any more${renamed}, so nothing was compared with ${one ? 'it' : 'them'}; if that is intended, list the value${one ? '' : 's'} gone in the suite's gate.removedGridValues`;
}
