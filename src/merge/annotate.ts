/**
 * What a run writes into its artifact so it can later be merged or resumed without the config:
 * each run's plan (evaluator ids, trials, gate rules) and, in a shard, each case's testset
 * position. Pure.
 */
import { runKey } from '../compare/run-key.ts';
import type { Shard } from '../plan/shard.ts';
import type { CaseSink, SuiteSpec } from '../run/types.ts';
import type { ResultsArtifact, RunPlan, RunResult } from '../types.ts';

/** The plan a suite's runs are summarised and gated with. */
export function planOf(spec: SuiteSpec): RunPlan {
  return {
    evaluators: spec.evaluators.map((e) => e.id),
    trials: spec.trials ?? 1,
    gate: spec.gate,
  };
}

/**
 * Adds `plan` to every run, and with a shard each case's `index` (its row's testset position,
 * which prepare records), so `evals merge` can restore testset order across shards. Runs are
 * matched to their suite by suite id and grid point: a resumed suite may be split in several
 * specs that share an id.
 */
export function annotateRuns(
  runs: readonly RunResult[],
  specs: readonly SuiteSpec[],
  shard: Shard | undefined,
): RunResult[] {
  const byKey = new Map<string, SuiteSpec>();
  for (const spec of specs) {
    for (const params of spec.grid) byKey.set(runKey({ suite: spec.id, params }), spec);
  }
  return runs.map((run) => {
    const spec = byKey.get(runKey(run));
    if (spec === undefined) return run;
    const { cases, ...head } = run;
    // Streamed runs come back without cases: their positions went in through `indexingSink`.
    if (!shard || cases.length === 0) return { ...head, plan: planOf(spec), cases };
    const positions = new Map(spec.cases.map((c) => [c.id, c.index]));
    return {
      ...head,
      plan: planOf(spec),
      cases: cases.map((c) => {
        const index = positions.get(c.id);
        return index === undefined ? c : { ...c, index };
      }),
    };
  });
}

/**
 * A sink that adds each case's testset `index` (its prepared case's) before passing it on: what
 * `annotateRuns` does for a shard, for runs whose cases stream to the artifact instead of
 * staying in memory.
 */
export function indexingSink(sink: CaseSink): CaseSink {
  return {
    open: (runs) => sink.open(runs),
    record: (run, index, result, testCase) => {
      const position = testCase?.index;
      // The engine hands each result over once and keeps no reference (cases stream), so adding
      // the field in place saves a copy of every case.
      if (position !== undefined) (result as { index?: number }).index = position;
      sink.record(run, index, result, testCase);
    },
  };
}

/** The artifact recording which shard it holds (placed before `runs`, which stays last). */
export function withShard(artifact: ResultsArtifact, shard: Shard | undefined): ResultsArtifact {
  if (!shard) return artifact;
  const { runs, ...head } = artifact;
  return { ...head, shard: { index: shard.index, count: shard.count }, runs };
}
