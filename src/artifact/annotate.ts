/**
 * What a run writes into its artifact so it can later be merged or resumed without the config:
 * each run's plan (evaluator ids, trials, gate rules), and in a shard which shard it holds. Pure.
 */
import { runKey } from '../shared/run-key.ts';
import type { Shard } from '../plan/shard.ts';
import { agreementOf } from '../run/summary.ts';
import type { SuiteSpec } from '../run/types.ts';
import type { ResultsArtifact, RunPlan, RunResult } from '../types/index.ts';

/** The plan a suite's runs are summarised and gated with. */
export function planOf(spec: SuiteSpec): RunPlan {
  const agreement = agreementOf(spec.evaluators);
  return {
    evaluators: spec.evaluators.map((e) => e.id),
    trials: spec.trials ?? 1,
    gate: spec.gate,
    ...(agreement !== undefined ? { agreement } : {}),
  };
}

/**
 * Adds `plan` to every run, placed before its `cases` (which stay last). Runs are matched to
 * their suite by suite id and grid point.
 */
export function annotateRuns(runs: readonly RunResult[], specs: readonly SuiteSpec[]): RunResult[] {
  const byKey = new Map<string, SuiteSpec>();
  for (const spec of specs) {
    for (const run of spec.runs) byKey.set(runKey({ suite: spec.id, params: run.params }), spec);
  }
  return runs.map((run) => {
    const spec = byKey.get(runKey(run));
    if (spec === undefined) return run;
    const { cases, ...head } = run;
    return { ...head, plan: planOf(spec), cases };
  });
}

/** The artifact recording which shard it holds (placed before `runs`, which stays last). */
export function withShard(artifact: ResultsArtifact, shard: Shard | undefined): ResultsArtifact {
  if (!shard) return artifact;
  const { runs, ...head } = artifact;
  return { ...head, shard: { index: shard.index, count: shard.count }, runs };
}

/**
 * The artifact marked `pinIgnored: true` (before `runs`, which stays last) when a testset ran
 * that did not match its pin (`evals run --ignore-pin`): it is not comparable to runs at the pin.
 */
export function withPinIgnored(artifact: ResultsArtifact, ignored: boolean): ResultsArtifact {
  if (!ignored) return artifact;
  const { runs, ...head } = artifact;
  return { ...head, pinIgnored: true, runs };
}
