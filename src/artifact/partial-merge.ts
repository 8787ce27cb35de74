/**
 * A partial merge (`evals merge --allow-partial` with shards missing): the condition each of its
 * runs fails, and which shards it holds and lacks, as readers (show, compare) need them.
 */
import type { GateCondition, ResultsArtifact } from '../types/index.ts';

/** The name of the gate condition every run of a partial merge fails. */
const SHARDS = 'shards';

/**
 * The failing condition of each run of a partial merge: `shards: expected all 3 shards, got
 * shards 1, 3 of 3 merged (partial merge)`. The artifact's `partialMerge` says the same as data.
 */
export function shardsCondition(count: number, merged: readonly number[]): GateCondition {
  const which = `${merged.length === 1 ? 'shard' : 'shards'} ${merged.join(', ')}`;
  return {
    name: SHARDS,
    expected: `all ${count} shards`,
    actual: `${which} of ${count} merged (partial merge)`,
    passed: false,
  };
}

/**
 * Which shards a partial merge (`evals merge --allow-partial` with shards missing) holds and
 * which it lacks; `undefined` for any other artifact.
 */
export function mergedShards(
  artifact: Pick<ResultsArtifact, 'partialMerge'>,
): { count: number; merged: number[]; missing: number[] } | undefined {
  if (artifact.partialMerge === undefined) return undefined;
  const { count, merged } = artifact.partialMerge;
  const missing: number[] = [];
  for (let i = 1; i <= count; i++) if (!merged.includes(i)) missing.push(i);
  return { count, merged, missing };
}
