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

/** The command that runs each missing shard of a partial merge: `evals run --shard 2/3 -o FILE`. */
export function missingShardCommands(merge: {
  count: number;
  missing: readonly number[];
}): string[] {
  return merge.missing.map((index) => `evals run --shard ${index}/${merge.count} -o FILE`);
}

/**
 * What to do with the partial merge at `path`: `m.json is a partial merge (evals merge
 * --allow-partial) of shards 1, 3 of 3: run the missing shard (evals run --shard 2/3 -o FILE),
 * then evals merge every shard's file again`.
 */
export function partialMergeAdvice(
  path: string,
  merge: { count: number; merged: readonly number[]; missing: readonly number[] },
): string {
  const { count, merged, missing } = merge;
  const which = `${merged.length === 1 ? 'shard' : 'shards'} ${merged.join(', ')}`;
  const commands = missingShardCommands(merge);
  return `${path} is a partial merge (evals merge --allow-partial) of ${which} of ${count}: run the missing ${missing.length === 1 ? 'shard' : 'shards'} (${commands.join('; ')}), then evals merge every shard's file again`;
}
