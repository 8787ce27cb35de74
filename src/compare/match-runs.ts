/**
 * Which run of one artifact is which run of the other: the same suite and params (deep-equal,
 * whatever the key order).
 */
import { runKey } from '../shared/run-key.ts';
import type { RunResult } from '../types/index.ts';
import { groupBy } from '../shared/group-by.ts';

/** Runs paired across two artifacts, and those found on one side only. */
export interface RunMatch {
  pairs: [RunResult, RunResult][];
  onlyInBase: RunResult[];
  onlyInHead: RunResult[];
}

/**
 * Pairs runs by suite and params. Should an artifact hold the same run twice, occurrences pair
 * up in order and any left over is listed as one-sided, so nothing disappears.
 */
export function matchRuns(
  baseRuns: readonly RunResult[],
  headRuns: readonly RunResult[],
): RunMatch {
  const waiting = groupBy(baseRuns, runKey);
  const pairs: [RunResult, RunResult][] = [];
  const onlyInHead: RunResult[] = [];
  const paired = new Set<RunResult>();
  for (const run of headRuns) {
    const match = waiting.get(runKey(run))?.shift();
    if (match) {
      pairs.push([match, run]);
      paired.add(match);
    } else {
      onlyInHead.push(run);
    }
  }
  return { pairs, onlyInBase: baseRuns.filter((run) => !paired.has(run)), onlyInHead };
}
