/**
 * The model `compareArtifacts` builds and the renderers print: plain JSON-serialisable data, with
 * keys always in the order declared here (so `JSON.stringify` of two equal comparisons is
 * byte-identical).
 */
import type { Params, TestCaseSource } from './index.ts';

/**
 * What a row says about a change:
 * - `improved` / `regressed`: the change is statistically significant in that direction (for a
 *   score, the whole confidence interval is above / below 0; for the pass rate, McNemar p < 0.05);
 * - `unchanged`: no significant change either way. It does not prove the two are equal, only that
 *   the data cannot tell them apart;
 * - `too few cases`: fewer paired cases than the comparison's `minPaired`, so no verdict at all.
 */
export type ChangeLabel = 'improved' | 'regressed' | 'unchanged' | 'too few cases';

/** Which results were compared: enough to say "against main at 3f9a1c2". */
export interface ArtifactInfo {
  config: string;
  git: { sha: string | null; ref: string | null } | null;
  startedAt: string;
}

/** A run as identified across artifacts. */
export interface RunRef {
  suite: string;
  params: Params;
}

/** A case in a list: its identity and, when known, where its row is. */
export interface CaseRef {
  id: string;
  source: TestCaseSource | null;
}

/** A head case that passed in some trials and failed in others. */
export interface FlakyCase extends CaseRef {
  /** Share of its trials that passed; `null` when the artifact did not record it. */
  trialPassRate: number | null;
}

/**
 * One evaluator's score in both runs. Means are over the cases scored in both (same id, same
 * content, a score on each side), so `delta` is exactly the paired mean difference the interval
 * is about; a run's mean over all its cases is in its own summary.
 */
export interface EvaluatorChange {
  evaluator: string;
  /** Cases with a score in both runs. */
  paired: number;
  /** `null` when no case is paired. */
  baseMean: number | null;
  headMean: number | null;
  /** Mean of the per-case `head − base` differences; `null` when no case is paired. */
  delta: number | null;
  /** Confidence interval of `delta`; `null` when no case is paired. */
  ci: { low: number; high: number } | null;
  /** Two-sided; `null` when no case is paired. */
  pValue: number | null;
  label: ChangeLabel;
}

/** The pass rate in both runs over the paired cases, with McNemar's exact test. */
export interface PassRateChange {
  /** Cases present in both runs with the same content. */
  paired: number;
  /** `null` when no case is paired. */
  baseRate: number | null;
  headRate: number | null;
  delta: number | null;
  /** Paired cases that passed in BASE and not in HEAD. */
  passToFail: number;
  /** Paired cases that failed in BASE and passed in HEAD. */
  failToPass: number;
  /** Exact McNemar p-value on `passToFail` against `failToPass`. */
  pValue: number;
  label: ChangeLabel;
}

/** Cases that changed between the runs, each list in testset order. */
export interface CaseChanges {
  /** Passed in BASE, did not pass in HEAD (same content). */
  newlyFailing: CaseRef[];
  /** Did not pass in BASE, passed in HEAD (same content). */
  fixed: CaseRef[];
  /** In HEAD only. */
  added: CaseRef[];
  /** In BASE only (with BASE's source). */
  removed: CaseRef[];
  /**
   * Same id, different `contentId`: the testset row itself was edited, so a different score is
   * not a behaviour change. Left out of every statistic and of `newlyFailing` / `fixed`.
   */
  contentChanged: CaseRef[];
  /** HEAD cases marked `flaky` (trials disagreed). */
  flaky: FlakyCase[];
}

/** One suite × grid point present in both artifacts. */
export interface RunComparison extends RunRef {
  passRate: PassRateChange;
  /** Evaluators present in both runs, in HEAD's order. */
  evaluators: EvaluatorChange[];
  evaluatorsOnlyInBase: string[];
  evaluatorsOnlyInHead: string[];
  cases: CaseChanges;
}

/** How many rows (pass rate and evaluator rows, over every run) got each label. */
export interface ChangeCounts {
  improved: number;
  regressed: number;
  unchanged: number;
  tooFewCases: number;
}

/** The settings the statistics ran with, so a JSON comparison explains itself. */
export interface ComparisonSettings {
  confidence: number;
  iterations: number;
  seed: number;
  minPaired: number;
}

/** BASE against HEAD: everything `evals compare` reports. */
export interface Comparison {
  settings: ComparisonSettings;
  base: ArtifactInfo;
  head: ArtifactInfo;
  counts: ChangeCounts;
  /** Some row is `regressed`. */
  hasRegression: boolean;
  /** Runs present in both, in HEAD's order. */
  runs: RunComparison[];
  /** Runs of BASE that HEAD does not have. */
  onlyInBase: RunRef[];
  /** Runs of HEAD that BASE does not have. */
  onlyInHead: RunRef[];
}
