/**
 * What a run writes into its artifact so it can later be merged or resumed without the config:
 * each run's plan (evaluator ids, trials, gate rules), and in a shard which shard it holds. Pure.
 */
import type { Shard } from '../plan/shard.ts';
import { agreementOf } from '../run/summary.ts';
import type { SuiteSpec } from '../run/types.ts';
import type { ResultsArtifact, RunPlan, RunResult } from '../types/index.ts';

/** The plan a suite's runs are summarised and gated with. */
export function planOf(spec: SuiteSpec): RunPlan {
  const agreement = agreementOf(spec.evaluators);
  const scorers = spec.evaluators.flatMap((e): [string, string][] =>
    e.scorer === undefined ? [] : [[e.id, e.scorer]],
  );
  return {
    evaluators: spec.evaluators.map((e) => e.id),
    trials: spec.trials ?? 1,
    gate: spec.gate,
    ...(agreement !== undefined ? { agreement } : {}),
    ...(scorers.length > 0 ? { scorers: Object.fromEntries(scorers) } : {}),
    ...(typeof spec.pass === 'function' ? { pass: 'function' as const } : {}),
  };
}

/**
 * Adds `plan` to every run, placed before its `cases` (which stay last). `runs` are the engine's
 * results of `specs`: its runs in order, suite by suite. (Not matched by grid point: a run's
 * params are recorded without the run's secrets, a spec's are not.)
 */
export function annotateRuns(runs: readonly RunResult[], specs: readonly SuiteSpec[]): RunResult[] {
  const specOfRun = specs.flatMap((spec) => spec.runs.map(() => spec));
  return runs.map((run, i) => {
    const spec = specOfRun[i];
    if (spec === undefined || spec.id !== run.suite) return run;
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
