/**
 * BASE against HEAD: matches runs and cases, tests every row as one family and labels it.
 * Pure: two artifacts in, a `Comparison` out; the same inputs give the same comparison.
 */
import type { ResultsArtifact, RunResult } from '../types/index.ts';
import type {
  ArtifactInfo,
  ChangeCounts,
  ChangeLabel,
  Comparison,
  ComparisonSettings,
  IncompleteSide,
  RunRef,
} from '../types/comparison.ts';
import { mergedShards } from '../artifact/partial-merge.ts';
import { matchRuns } from './match-runs.ts';
import { DETECTION_POWER } from './power.ts';
import { testRuns } from './row-tests.ts';
import { pairRuns, plannedCases } from './run-comparison.ts';
import { DEFAULT_RESAMPLES, DEFAULT_SEED, resamplingLimit } from './sign-flip.ts';

/** Options of `compareArtifacts`. */
export interface CompareOptions {
  /** Sign-flip seed; the default is fixed, so output never varies between calls. */
  seed?: number;
  /**
   * Sign vectors every resampled row draws first; 4,999 by default (in a large family, a row whose
   * p stays small draws more).
   */
  resamples?: number;
  /** Rows with fewer paired cases are labelled `too few cases`; 10 by default. */
  minPaired?: number;
}

/** Rows with fewer paired cases than this get no verdict. */
export const DEFAULT_MIN_PAIRED = 10;

/** Every interval is 95%, and every test and the family's correction use α = 0.05. */
export const COMPARISON_CONFIDENCE = 0.95;

/**
 * Compares HEAD with BASE. Runs match by suite and params (deep-equal, whatever the key order);
 * cases within a run by `id`, and only when their `contentId` is also equal: a case whose testset
 * row was edited is listed as `contentChanged` and kept out of the statistics, since its score
 * moved with the question. Runs and evaluators found on one side only are listed, never dropped.
 *
 * Every row of every run is then tested as one family (`testRuns`): a pull request is one gate
 * decision, so its chance of a false block is held at 5% however many suites, grid points and
 * evaluators it has. Every resampled row uses the same seed, so a row's interval depends only on
 * its own data and the family's size (which matters only above 62 rows, where a row whose p
 * stays small draws more sign vectors).
 *
 * Expects artifacts that passed `validateComparable`.
 */
export function compareArtifacts(
  base: ResultsArtifact,
  head: ResultsArtifact,
  options: CompareOptions = {},
): Comparison {
  const minPaired = options.minPaired ?? DEFAULT_MIN_PAIRED;
  const seed = options.seed ?? DEFAULT_SEED;
  const { pairs, onlyInBase, onlyInHead } = matchRuns(base.runs, head.runs);
  // Two shards with the same index and count hold the same rows: neither lacks the other's.
  const sameShard =
    base.shard !== undefined &&
    head.shard !== undefined &&
    base.shard.index === head.shard.index &&
    base.shard.count === head.shard.count;
  const baseInfo = artifactInfo(base, sameShard);
  const headInfo = artifactInfo(head, sameShard);
  const tested = testRuns(
    pairs.map(([baseRun, headRun]) =>
      pairRuns(baseRun, headRun, {
        base: runIncomplete(baseRun, baseInfo.incomplete),
        head: runIncomplete(headRun, headInfo.incomplete),
      }),
    ),
    {
      confidence: COMPARISON_CONFIDENCE,
      resamples: options.resamples ?? DEFAULT_RESAMPLES,
      seed,
      minPaired,
    },
  );
  const settings: ComparisonSettings = {
    confidence: COMPARISON_CONFIDENCE,
    resamples: tested.resamples,
    maxResamples: tested.maxResamples,
    resamplingLimit: resamplingLimit(tested.maxResamples),
    seed,
    minPaired,
    power: DETECTION_POWER,
  };

  const counts: ChangeCounts = {
    improved: 0,
    regressed: 0,
    unchanged: 0,
    tooFewCases: 0,
    underpowered: 0,
  };
  for (const run of tested.runs) {
    for (const row of [run.passRate, ...run.evaluators, ...run.agreement]) {
      const label: ChangeLabel = row.label;
      if (label === 'too few cases') counts.tooFewCases++;
      else counts[label]++;
      if (label === 'unchanged' && row.power?.underpowered === true) counts.underpowered++;
    }
  }

  return {
    settings,
    base: baseInfo,
    head: headInfo,
    counts,
    family: tested.family,
    hasRegression: tested.family.regressions > 0,
    runs: tested.runs,
    onlyInBase: onlyInBase.map(runRef),
    onlyInHead: onlyInHead.map(runRef),
  };
}

function runRef(run: RunResult): RunRef {
  return { suite: run.suite, params: run.params };
}

/**
 * What the comparison says of one side. It is `incomplete` when a run has fewer cases than it
 * planned, or the artifact is a partial merge (its runs fail the `shards` condition merge gives
 * them), or one shard compared with anything but the same shard (`sameShard`), or it is marked
 * `interrupted` with none of these (an interrupt after the last case, or a
 * partial merge by an older evalgate); its counts are over every run.
 */
function artifactInfo(artifact: ResultsArtifact, sameShard: boolean): ArtifactInfo {
  const info: ArtifactInfo = {
    config: artifact.config,
    git: artifact.git === null ? null : { sha: artifact.git.sha, ref: artifact.git.ref },
    startedAt: artifact.startedAt,
  };
  let cases = 0;
  let planned = 0;
  const shortRuns: IncompleteSide['shortRuns'] = [];
  let partialMerge: IncompleteSide['partialMerge'];
  for (const run of artifact.runs) {
    cases += run.cases.length;
    planned += plannedCases(run);
    if (run.cases.length < run.testset.cases) {
      shortRuns.push({ ...runRef(run), cases: run.cases.length, planned: plannedCases(run) });
    }
  }
  const shards = mergedShards(artifact);
  if (shards !== undefined) partialMerge = { count: shards.count, merged: shards.merged };
  // A run split into one shard is the whole run.
  const shard = sameShard || artifact.shard?.count === 1 ? undefined : artifact.shard;
  const known = partialMerge !== undefined || shard !== undefined;
  if (shortRuns.length === 0 && !known && !artifact.interrupted) return info;
  info.incomplete = {
    cases,
    planned,
    shortRuns,
    ...(partialMerge === undefined ? {} : { partialMerge }),
    ...(shard === undefined ? {} : { shard: { index: shard.index, count: shard.count } }),
    ...(shortRuns.length === 0 && !known ? { markedOnly: true as const } : {}),
  };
  return info;
}

/**
 * Whether a run of an incomplete side is incomplete itself: cut short, or any run when no per-run
 * count can tell (a partial merge lacks its missing shards' cases in every run, and planned none
 * of them).
 */
function runIncomplete(run: RunResult, side: IncompleteSide | undefined): boolean {
  if (side === undefined) return false;
  if (side.partialMerge !== undefined || side.shard !== undefined || side.markedOnly === true) {
    return true;
  }
  return run.cases.length < run.testset.cases;
}
