/**
 * The rules of the lists that accept removals against a baseline (`removedSuites`, a suite's
 * `gate.removedEvaluators` and `gate.removedGridValues`): each names what the baseline had and
 * this config no longer has. An entry naming something the config still has is a mistake (most
 * likely the new name of a renamed thing where the old one belongs) and would accept nothing:
 * refused, like any config that says something it cannot mean, naming where the config has it.
 */
import { gridValueText } from '../shared/grid-value-text.ts';
import { isRecord } from '../shared/is-record.ts';
import { formatConfigPath } from './config-path.ts';
import type { ConfigPath, Loc } from './types.ts';

type Add = (code: string, path: ConfigPath, message: string, key?: string) => void;

/** Where a config path is, for the message that points from one place at the other. */
interface Locator {
  locate(path: ConfigPath): Loc;
}

/** Reports each entry of the top-level `removedSuites` that is a suite of this config. */
export function checkRemovedSuites(
  removed: unknown,
  suiteIds: ReadonlyMap<string, number>,
  context: Locator,
  add: Add,
): void {
  eachIdStillHad(removed, suiteIds, (id, index, at) =>
    add(
      'removed-suites.in-config',
      ['removedSuites', index],
      `expected the id of a suite this config no longer has, found ${JSON.stringify(id)}, a suite of this config (${place(['suites', at, 'id'], context)}): list the id the suite had in the baseline (a renamed suite's old id), or drop the entry`,
    ),
  );
}

/**
 * Reports each entry of a suite's `gate.removedEvaluators` (at `path`) that is an evaluator of
 * the suite; `evaluators` maps each of its ids to where it is written (its `id:` or `use:`).
 */
export function checkRemovedEvaluators(
  removed: unknown,
  path: ConfigPath,
  evaluators: ReadonlyMap<string, ConfigPath>,
  context: Locator,
  add: Add,
): void {
  eachIdStillHad(removed, evaluators, (id, index, at) =>
    add(
      'removed-evaluators.in-config',
      [...path, index],
      `expected the id of an evaluator this suite no longer has, found ${JSON.stringify(id)}, an evaluator of this suite (${place(at, context)}): list the id the evaluator had in the baseline (a renamed evaluator's old id), or drop the entry`,
    ),
  );
}

/**
 * Reports each value of a suite's `gate.removedGridValues` (at `path`) that its `grid:` still
 * has under the same key. Values compare as `--grid` and the gate read them (`gridValueText`),
 * so `0` and `"0"` are one value, as the gate would accept either for the other.
 */
export function checkRemovedGridValues(
  removed: unknown,
  path: ConfigPath,
  grid: unknown,
  gridPath: ConfigPath,
  context: Locator,
  add: Add,
): void {
  if (!isRecord(removed) || !isRecord(grid)) return;
  for (const [key, values] of Object.entries(removed)) {
    const current = grid[key];
    if (!Array.isArray(values) || !Array.isArray(current)) continue;
    const texts = current.map((value) => gridValueText(value));
    values.forEach((value: unknown, index) => {
      const at = texts.indexOf(gridValueText(value));
      if (at === -1) return;
      add(
        'removed-grid-values.in-config',
        [...path, key, index],
        `expected a value of ${key} this suite's grid no longer has, found ${JSON.stringify(value)}, a value of its grid (${place([...gridPath, key, at], context)}): list the value ${key} had in the baseline (a renamed value's old spelling), or drop the entry`,
      );
    });
  }
}

/**
 * Calls `report` for each id of a removal list that `had` still maps to a place in this config;
 * a list that is no array, and entries that are no strings, are the schema's to report.
 */
function eachIdStillHad<At>(
  removed: unknown,
  had: ReadonlyMap<string, At>,
  report: (id: string, index: number, at: At) => void,
): void {
  if (!Array.isArray(removed)) return;
  removed.forEach((id: unknown, index) => {
    if (typeof id !== 'string') return;
    const at = had.get(id);
    if (at !== undefined) report(id, index, at);
  });
}

function place(path: ConfigPath, context: Locator): string {
  return `${formatConfigPath(path)} at line ${context.locate(path).line}`;
}
