/**
 * Whether a `pass:` function decided a recorded run's cases, which a gate counted again from the
 * run's plan (`evals merge`, a recovered journal) needs: a run whose evaluators judged no case
 * fails `judged` unless one did.
 *
 * Today's artifacts say so in the plan: `pass: function`; `pass: evaluators` (all or any, which
 * one not said: it may be a secret's value) where the config the artifact records would
 * otherwise be taken for a function's (below); no `pass` otherwise. Those of evalgate versions
 * before the `judged` gate condition record no `pass`, even when a function decided: the
 * config they record (`configDataParts`) tells instead, as the suite's `pass:` key written as
 * neither `all` nor `any`, so a module spec, or none when the config's hash covers no module.
 * But where it covers one, a `pass:` written as a `${VAR}` holding `all` records only its
 * reference's digest as the suite's `pass`, neither `all`'s nor `any`'s either (and a secret's
 * value not at all): such an old run's `pass` cannot be told. Today's writer marks exactly these
 * runs `pass: evaluators`, so only old ones are unknown.
 *
 * Why only these and not every run: the results schema has `plan` closed and `pass` a constant,
 * so an evalgate from before the marker refuses an artifact that carries it; marking only the
 * runs it would misread keeps every other artifact readable by it.
 */
import { recordedDataParts, recordedParts } from '../config/config-hash-parts.ts';
import { writtenValueDigest } from '../config/config-data-parts.ts';
import { JUDGED_CONDITION, recordedRunGate } from '../run/gate.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import { describeRun } from '../shared/run-key.ts';
import type { ResultsArtifact, RunResult } from '../types/index.ts';

/** What an artifact records of its config, as far as it tells a suite's `pass:`. */
type RecordedConfig = Pick<ResultsArtifact, 'configHash' | 'configHashParts' | 'configDataParts'>;

/** The digests of the pass conditions that are not functions, as `configDataParts` records them. */
const NOT_FUNCTIONS = new Set(['all', 'any'].map(writtenValueDigest));

/**
 * Whether the config `artifact` records gives suite `suite` a `pass:` that would be read as a
 * module spec: a trusted breakdown of the config, a `pass` written as neither `all` nor `any`,
 * and a hash that covers a module (a `pass:` module is one it covers: every evalgate that records
 * `configDataParts` covers modules). A `${VAR}` holding `all` reads as one too, whether its value
 * is recorded (`env`) or not (a secret's). A `runTestSuite` artifact records no breakdown.
 */
function readsAsFunction(suite: string, artifact: RecordedConfig): boolean {
  const parts = recordedDataParts(artifact);
  if (parts === undefined) return false;
  const written = parts.suites.find((s) => s.id === suite)?.keys['pass'];
  if (written === undefined || NOT_FUNCTIONS.has(written)) return false;
  const { configHash, configHashParts, configDataParts } = artifact;
  const covered = recordedParts(configHash, configHashParts, configDataParts)?.modules ?? {};
  return Object.keys(covered).length > 0;
}

/**
 * `artifact` as today's evalgate writes it: each run whose plan records no `pass:` function but
 * whose recorded config reads as one marked `pass: evaluators`, so no reader takes it for an old
 * run (see the file comment). Pure.
 */
export function withPassRecorded(artifact: ResultsArtifact): ResultsArtifact {
  const marked = (run: RunResult): boolean =>
    run.plan !== undefined && run.plan.pass === undefined && readsAsFunction(run.suite, artifact);
  if (!artifact.runs.some(marked)) return artifact;
  const runs = artifact.runs.map((run) =>
    run.plan !== undefined && marked(run)
      ? { ...run, plan: { ...run.plan, pass: 'evaluators' as const } }
      : run,
  );
  return { ...artifact, runs };
}

/**
 * Whether `run` of `artifact` was decided by a `pass:` function: `unknown` for a run of an
 * evalgate from before `plan.pass` whose recorded config reads as a function's, which a
 * `${VAR}` of a secret-looking name holding `all` or `any` would read as too.
 */
export function recordedPass(
  run: RunResult,
  artifact: RecordedConfig,
): 'function' | 'evaluators' | 'unknown' {
  const pass = run.plan?.pass;
  if (pass !== undefined) return pass;
  return run.plan !== undefined && readsAsFunction(run.suite, artifact) ? 'unknown' : 'evaluators';
}

/**
 * `run` with `plan.pass: function` when {@link recordedPass} says `unknown`; otherwise `run` as it
 * is. For a recovered journal, whose partial fails however its gate is counted (its resumption
 * takes `pass` from the config); `evals merge` does not guess (see {@link unknownPassProblem}).
 */
export function withRecordedPass(run: RunResult, artifact: RecordedConfig): RunResult {
  const { plan } = run;
  if (plan === undefined || recordedPass(run, artifact) !== 'unknown') return run;
  return { ...run, plan: { ...plan, pass: 'function' } };
}

/**
 * Why `merged`, a whole run combined from `unknown` pieces (named, see {@link recordedPass}) and
 * gated without a `pass:` function, cannot be merged: its `judged` condition failed, which a
 * `pass:` function would have spared it, so its verdict hinges on what they do not record. Taken
 * either way it may be a false pass or a false fail. `undefined` when there is no such piece, its
 * evaluators judged cases, or the run fails either way (every case errored, or its pass rate is
 * below its `minPassRate`): a `pass:` function changes nothing then.
 */
export function unknownPassProblem(
  merged: RunResult,
  unknown: readonly string[],
): string | undefined {
  if (unknown.length === 0 || merged.plan === undefined) return undefined;
  const failsJudged = (conditions: readonly { name: string; passed: boolean }[]): boolean =>
    conditions.some((c) => c.name === JUDGED_CONDITION && !c.passed);
  if (!failsJudged(merged.gate.conditions)) return undefined;
  const plan = { ...merged.plan, pass: 'function' as const };
  // Failed either way (every case errored, a pass rate below its bound): nothing hinges on it.
  if (recordedRunGate(merged.summary, plan, merged.testset.cases, false).verdict === 'fail') {
    return undefined;
  }
  return `${describeRun(merged)}: ${unknown.join(', ')} ${unknown.length > 1 ? 'were' : 'was'} written by an evalgate that did not record whether a pass: function decided its cases, which its evaluators did not judge, and its config cannot tell (its pass: may be a module, or a variable holding all or any): run the shards again with this evalgate`;
}

/** A run read from one input of `evals merge`, and whether {@link recordedPass} says `unknown`. */
interface MergedPiece {
  from: string;
  run: RunResult;
  unknownPass?: boolean;
}

/**
 * Why `pieces` of one run cannot be merged when some are `unknown` (see {@link recordedPass})
 * and the others all record the same `pass`, their plans otherwise the same: the same config,
 * some parts run again after an upgrade, say. `undefined` for any other difference.
 */
export function unrecordedPassDifference(pieces: readonly MergedPiece[]): string | undefined {
  const old = pieces.filter((p) => p.unknownPass === true);
  const recorded = pieces.filter((p) => p.unknownPass !== true);
  const pass = recorded[0]?.run.plan?.pass;
  if (old.length === 0 || pass === undefined) return undefined;
  if (recorded.some((p) => p.run.plan?.pass !== pass)) return undefined;
  const withoutPass = (piece: MergedPiece): string | undefined => {
    if (piece.run.plan === undefined) return undefined;
    const { pass: _pass, ...rest } = piece.run.plan;
    return canonicalJson(rest);
  };
  const planned = withoutPass(pieces[0]!);
  if (planned === undefined || pieces.some((p) => withoutPass(p) !== planned)) return undefined;
  const names = old.map((p) => p.from).join(', ');
  const were = old.length > 1 ? 'were' : 'was';
  return `${names} ${were} written by an evalgate that did not record whether a pass: function decided its cases (${recorded[0]!.from} records pass: ${pass}): run ${old.length > 1 ? 'them' : 'it'} again with this evalgate`;
}
