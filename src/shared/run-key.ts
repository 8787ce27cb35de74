import { canonicalJson } from './canonical-json.ts';
import type { Params } from '../types/index.ts';

/**
 * Identifies a suite × grid point across artifacts: two runs are the same run when suite and
 * params are deep-equal. Canonical JSON sorts keys at every level, so a grid reordered in the
 * YAML still matches.
 */
export function runKey(run: { suite: string; params: Params }): string {
  return canonicalJson([run.suite, run.params]);
}

/** `suite` or `suite {"model":"large"}`, as messages name a run. */
export function describeRun(run: { suite: string; params: object }): string {
  return Object.keys(run.params).length === 0
    ? `suite ${run.suite}`
    : `suite ${run.suite} ${JSON.stringify(run.params)}`;
}
