/**
 * Which runs and cases `evals show` prints: runs by suite and grid point, cases by status and
 * id prefix. Pure; the command reads the artifact and hands each case in.
 */
import type { CaseResult, RunResult } from '../types/index.ts';
import { gridValueText } from '../shared/grid-value-text.ts';

/** The selection `evals show`'s flags make. Status flags are OR-ed; the rest narrow. */
export interface ShowFilters {
  /** Cases that did not pass (failed or errored). */
  failed?: boolean;
  errored?: boolean;
  flaky?: boolean;
  /** Cases whose id is this, or, when no case's is, whose id starts with it. */
  casePrefix?: string;
  suites?: readonly string[];
  /** Grid key → values, a run matches one of the values of every key. */
  grid?: Readonly<Record<string, readonly string[]>>;
}

/** Whether run `run` is among those the filters select. */
export function runSelected(
  run: Pick<RunResult, 'suite' | 'params'>,
  filters: ShowFilters,
): boolean {
  if (filters.suites !== undefined && !filters.suites.includes(run.suite)) return false;
  for (const [key, values] of Object.entries(filters.grid ?? {})) {
    if (!Object.hasOwn(run.params, key)) return false;
    if (!values.includes(paramValue(run.params[key]))) return false;
  }
  return true;
}

/** A grid value as `--grid key=value` writes it. */
export function paramValue(value: unknown): string {
  return gridValueText(value);
}

/**
 * How a case's id matches `--case ID`: `exact` (the whole id), `prefix` (its start) or null.
 * An exact match wins over prefix matches (`--case c1` is case c1, not c10…c19 too): callers
 * keep the prefix matches only when no case matches exactly.
 */
export function caseIdMatch(id: string, casePrefix: string): 'exact' | 'prefix' | null {
  if (id === casePrefix) return 'exact';
  return id.startsWith(withoutEllipsis(casePrefix)) ? 'prefix' : null;
}

/**
 * `77f519fbc5f…` as `77f519fbc5f`: the summary, the PR comment and `evals compare` print ids
 * shortened so, and an id copied from them brings the `…` (or `...`) along. A whole id that
 * ends so still matches exactly (above).
 */
function withoutEllipsis(casePrefix: string): string {
  const start = casePrefix.replace(/(?:\u2026|\.\.\.)$/u, '');
  return start === '' ? casePrefix : start;
}

/** Whether a case has a status the status flags select (any case without one). */
export function statusSelected(result: CaseResult, filters: ShowFilters): boolean {
  const byStatus = filters.failed === true || filters.errored === true || filters.flaky === true;
  if (!byStatus) return true;
  return (
    (filters.failed === true && !result.passed) ||
    (filters.errored === true && result.error !== null) ||
    (filters.flaky === true && result.flaky === true)
  );
}

/** `--failed --grid model=small`: the flags that made a selection, for the heading. */
export function describeFilters(filters: ShowFilters): string {
  const parts = [
    filters.failed === true ? '--failed' : null,
    filters.errored === true ? '--errored' : null,
    filters.flaky === true ? '--flaky' : null,
    filters.casePrefix !== undefined ? `--case ${filters.casePrefix}` : null,
    ...(filters.suites ?? []).map((suite) => `--suite ${suite}`),
    ...Object.entries(filters.grid ?? {}).flatMap(([key, values]) =>
      values.map((value) => `--grid ${key}=${value}`),
    ),
  ];
  return parts.filter((part) => part !== null).join(' ');
}
