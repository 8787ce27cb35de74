/**
 * What a comparison says of what only one side has: runs (a suite or grid point new in HEAD, or
 * gone from it) and evaluators (added, removed, or renamed, which is one of each). Pure.
 */
import { describeRun, formatCount } from './labels.ts';
import type { Comparison, RunComparison, RunRef } from '../types/comparison.ts';

/** Runs listed as present on one side only; the rest are counted. */
const MAX_LISTED_RUNS = 10;

/**
 * The runs present on one side only, titled, leaving out an empty side. A run missing from an
 * incomplete side is not called new: that side may never have reached it.
 */
export function oneSidedRuns(comparison: Comparison): [string, RunRef[]][] {
  const lists: [string, RunRef[]][] = [
    [
      comparison.head.incomplete === undefined
        ? 'Runs only in BASE (not run in HEAD):'
        : 'Runs only in BASE (not run in HEAD, which is incomplete):',
      comparison.onlyInBase,
    ],
    [
      comparison.base.incomplete === undefined
        ? 'Runs only in HEAD (new, nothing to compare with):'
        : 'Runs only in HEAD (not run in BASE, which is incomplete; nothing to compare with):',
      comparison.onlyInHead,
    ],
  ];
  return lists.filter(([, runs]) => runs.length > 0);
}

/** Up to `MAX_LISTED_RUNS` run names, then `… N more`. */
export function listRuns(runs: readonly RunRef[]): string[] {
  const lines = runs.slice(0, MAX_LISTED_RUNS).map(describeRun);
  if (runs.length > lines.length) lines.push(`… ${formatCount(runs.length - lines.length)} more`);
  return lines;
}

/** The evaluators a run has on one side only, by side, leaving out an empty side. */
export function evaluatorsOnOneSide(run: RunComparison): ['BASE' | 'HEAD', string[]][] {
  const sides: ['BASE' | 'HEAD', string[]][] = [
    ['BASE', run.evaluatorsOnlyInBase],
    ['HEAD', run.evaluatorsOnlyInHead],
  ];
  return sides.filter(([, ids]) => ids.length > 0);
}

/**
 * Said after the one-sided evaluators when each side has some: a renamed evaluator is one of
 * each, compared with nothing, which a reader of two separate lists may not see.
 */
export function renamedNote(run: RunComparison): string {
  const replaced = run.evaluatorsReplaced ?? [];
  if (replaced.length > 0) {
    const each = replaced.map((r) => `${r.evaluator}: ${r.base} \u2192 ${r.head}`).join(', ');
    return ` (another scorer under the same id, not compared: ${each})`;
  }
  return evaluatorsOnOneSide(run).length === 2
    ? ' (renamed? an evaluator is compared only with the same id)'
    : '';
}
