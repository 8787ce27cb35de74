/**
 * BASE against HEAD: matches runs and cases, runs the paired statistics and labels every row.
 * Pure: two artifacts in, a `Comparison` out; the same inputs give the same comparison.
 */
import type { ResultsArtifact, RunResult } from '../types/index.ts';
import { DEFAULT_BOOTSTRAP_ITERATIONS, DEFAULT_BOOTSTRAP_SEED } from './stats.ts';
import type {
  ArtifactInfo,
  ChangeCounts,
  Comparison,
  ComparisonSettings,
  RunRef,
} from '../types/comparison.ts';
import { matchRuns } from './match-runs.ts';
import { compareRuns } from './run-comparison.ts';

/** Options of `compareArtifacts`. */
export interface CompareOptions {
  /** Bootstrap seed; the default is fixed, so output never varies between calls. */
  seed?: number;
  /** Bootstrap resamples per row; 2000 by default. */
  iterations?: number;
  /** Rows with fewer paired cases are labelled `too few cases`; 10 by default. */
  minPaired?: number;
}

/** Rows with fewer paired cases than this get no verdict. */
export const DEFAULT_MIN_PAIRED = 10;

/** Every interval is 95%, and the pass rate's McNemar test uses the matching α = 0.05. */
export const COMPARISON_CONFIDENCE = 0.95;

/**
 * Compares HEAD with BASE. Runs match by suite and params (deep-equal, whatever the key order);
 * cases within a run by `id`, and only when their `contentId` is also equal: a case whose testset
 * row was edited is listed as `contentChanged` and kept out of the statistics, since its score
 * moved with the question. Runs and evaluators found on one side only are listed, never dropped.
 *
 * Every row's bootstrap uses the same seed, so a row's interval depends only on its own data:
 * adding an evaluator or a run never moves the numbers of the others.
 *
 * Expects artifacts that passed `validateComparable`.
 */
export function compareArtifacts(
  base: ResultsArtifact,
  head: ResultsArtifact,
  options: CompareOptions = {},
): Comparison {
  const settings: ComparisonSettings = {
    confidence: COMPARISON_CONFIDENCE,
    iterations: options.iterations ?? DEFAULT_BOOTSTRAP_ITERATIONS,
    seed: options.seed ?? DEFAULT_BOOTSTRAP_SEED,
    minPaired: options.minPaired ?? DEFAULT_MIN_PAIRED,
  };

  const { pairs, onlyInBase, onlyInHead } = matchRuns(base.runs, head.runs);
  const runs = pairs.map(([baseRun, headRun]) => compareRuns(baseRun, headRun, settings));

  const counts: ChangeCounts = { improved: 0, regressed: 0, unchanged: 0, tooFewCases: 0 };
  for (const run of runs) {
    for (const label of [run.passRate.label, ...run.evaluators.map((row) => row.label)]) {
      if (label === 'too few cases') counts.tooFewCases++;
      else counts[label]++;
    }
  }

  return {
    settings,
    base: artifactInfo(base),
    head: artifactInfo(head),
    counts,
    hasRegression: counts.regressed > 0,
    runs,
    onlyInBase: onlyInBase.map(runRef),
    onlyInHead: onlyInHead.map(runRef),
  };
}

function runRef(run: RunResult): RunRef {
  return { suite: run.suite, params: run.params };
}

function artifactInfo(artifact: ResultsArtifact): ArtifactInfo {
  return {
    config: artifact.config,
    git: artifact.git === null ? null : { sha: artifact.git.sha, ref: artifact.git.ref },
    startedAt: artifact.startedAt,
  };
}
