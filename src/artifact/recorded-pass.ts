/**
 * Whether a `pass:` function decided a recorded run's cases. Today's artifacts say so in the
 * run's plan (`plan.pass: function`); those of evalgate versions before the `judged` gate
 * condition do not, even when one did. A gate counted again from such a run (`evals merge`, a
 * recovered journal) would fail `judged` where the run itself did not: the config the artifact
 * records (`configDataParts`) tells instead, as the suite's `pass:` key written as neither `all`
 * nor `any`, so a module spec.
 */
import { recordedDataParts, recordedParts } from '../config/config-hash-parts.ts';
import { writtenValueDigest } from '../config/config-data-parts.ts';
import type { ResultsArtifact, RunResult } from '../types/index.ts';

/** The digests of the pass conditions that are not functions, as `configDataParts` records them. */
const NOT_FUNCTIONS = new Set(['all', 'any'].map(writtenValueDigest));

/**
 * `run` with `plan.pass: function` when its plan lacks `pass` but the config its artifact records
 * gave its suite a `pass:` module; otherwise `run` as it is. Not when the config refers to an
 * environment variable (its digest may be that of a `${VAR}` holding `all`), nor when the
 * artifact records no trusted breakdown of its config (a `runTestSuite` artifact, an older one):
 * then the plan is taken as it is, as before. Nor when the config hash covers no module: a
 * `pass:` module is one it covers (every evalgate that records `configDataParts` covers modules),
 * while a `${VAR}` of a secret-looking name holding `all` leaves no `env` in the parts (a
 * secret's value is never recorded) and only its reference's digest as the suite's `pass`.
 */
export function withRecordedPass(
  run: RunResult,
  artifact: Pick<ResultsArtifact, 'configHash' | 'configHashParts' | 'configDataParts'>,
): RunResult {
  const { plan } = run;
  if (plan === undefined || plan.pass !== undefined) return run;
  const parts = recordedDataParts(artifact);
  if (parts === undefined || parts.env !== undefined) return run;
  const written = parts.suites.find((suite) => suite.id === run.suite)?.keys['pass'];
  if (written === undefined || NOT_FUNCTIONS.has(written)) return run;
  const { configHash, configHashParts, configDataParts } = artifact;
  const covered = recordedParts(configHash, configHashParts, configDataParts)?.modules ?? {};
  if (Object.keys(covered).length === 0) return run;
  return { ...run, plan: { ...plan, pass: 'function' } };
}
