/**
 * The model `compareArtifacts` builds and the renderers print: plain JSON-serialisable data, with
 * keys always in the order declared here (so `JSON.stringify` of two equal comparisons is
 * byte-identical).
 */
import type { Params, TestCaseSource, Verdict } from './index.ts';

/**
 * What a row says about a change:
 * - `improved` / `regressed`: the row's own test finds a change in that direction: p < 0.05, which
 *   is exactly when the whole 95% interval is above / below 0 (below / above for an evaluator
 *   whose lower scores are better, `EvaluatorChange.lowerIsBetter`). Whether it survives the
 *   correction for the many rows of a comparison is `significant`;
 * - `unchanged`: no significant change either way. It does not prove the two are equal, only that
 *   the data cannot tell them apart;
 * - `too few cases`: fewer paired cases than the comparison's `minPaired`, so no verdict at all.
 */
export type ChangeLabel = 'improved' | 'regressed' | 'unchanged' | 'too few cases';

/**
 * The baseline a partial recovered from a killed run's recovery journal records (the artifact's
 * `baseline`): it holds no comparison whose `base` would, and `evals run --resume` compares with
 * it again. The file as `--baseline` named it (from where that command ran), and which run it
 * held: its config, commit and start, as a comparison's `base` says them.
 */
export interface RecoveredBaseline extends Pick<ArtifactInfo, 'config' | 'git' | 'startedAt'> {
  path: string;
}

/** Which results were compared: enough to say "against main at 3f9a1c2". */
export interface ArtifactInfo {
  config: string;
  git: { sha: string | null; ref: string | null } | null;
  startedAt: string;
  /**
   * Present when the artifact is incomplete: a run has fewer cases than it planned (interrupted),
   * or it was merged from only some shards, or it is marked `interrupted` although no run lacks
   * a planned case. A comparison with an incomplete side is informative, never clean: what an
   * incomplete run lacks was not run there, and regressions are judged only on the cases both ran.
   */
  incomplete?: IncompleteSide;
}

/**
 * Why a side is incomplete, and its finished and planned cases over every run (a missing
 * shard's cases are counted in neither). Which of its runs count as incomplete is decided run by
 * run: those in `shortRuns`; every run when `partialMerge` or `markedOnly` is present, since
 * then no per-run count can tell.
 */
export interface IncompleteSide extends CaseCount {
  /**
   * Its runs with fewer cases than they planned (cut short), in the artifact's order. Absent in
   * a comparison an earlier evalgate recorded (of this schemaVersion), which named none.
   */
  shortRuns?: (RunRef & CaseCount)[];
  /**
   * Merged from only some shards (`evals merge --allow-partial`): the shard count and the
   * shards merged. Every run lacks the missing shards' cases, which no count includes.
   */
  partialMerge?: { count: number; merged: number[] };
  /**
   * One shard of a run (`evals run --shard`) compared with a side that is not that same shard:
   * every run lacks the other shards' cases, which no count includes.
   */
  shard?: { index: number; count: number };
  /**
   * Marked `interrupted` though no run lacks a planned case and no shard is known missing: an
   * interrupt after the last case, or a partial merge by an older evalgate. Every run is then
   * taken as incomplete, since the two cannot be told apart.
   */
  markedOnly?: true;
}

/** Finished cases against planned ones. */
export interface CaseCount {
  cases: number;
  planned: number;
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
  /**
   * The label of a case only BASE has (removed, not run in HEAD), from BASE's data: a reader of
   * the comparison has HEAD's cases to name the others by, not BASE's. Absent when it has none.
   */
  label?: string;
}

/** A head case that passed in some trials and failed in others. */
export interface FlakyCase extends CaseRef {
  /** Share of its trials that passed; `null` when the artifact did not record it. */
  trialPassRate: number | null;
}

/** How large a change an `unchanged` row could have seen (see `rowPower`). */
export interface RowPower {
  /**
   * Smallest change, either way, the row detects 80% of the time when it is the only change
   * in the family (at Holm's first step, α divided by the family's size), in the row's units.
   */
  detectable: number;
  /** `detectable` is above the suite's `gate.minDetectableEffect`. */
  underpowered: boolean;
  /** Cases needed to detect `gate.minDetectableEffect`; `null` when not underpowered. */
  casesNeeded: number | null;
}

/**
 * What every row with a verdict carries: its test, its place in the family of rows tested
 * together (every row of the comparison), and its power.
 */
export interface RowTest {
  /** Two-sided, against "no change"; `null` when nothing is paired. */
  pValue: number | null;
  /**
   * Holm-adjusted over the comparison's family; `null` when the row is not in it (too few cases,
   * or no case changed at all, so it could never be significant).
   */
  adjustedP: number | null;
  /** Benjamini–Hochberg q-value over the same family; `null` when the row is not in it. */
  qValue: number | null;
  label: ChangeLabel;
  /**
   * `improved` or `regressed`, and still significant after Holm's correction over the family
   * (`adjustedP` < 0.05): what the gate acts on. The label alone is the row's own 5% test.
   */
  significant: boolean;
  /** For a row with a verdict; `null` for `too few cases`. */
  power: RowPower | null;
}

/**
 * One evaluator's score in both runs. Means are over the cases scored in both (same id, same
 * content, a score on each side), so `delta` is exactly the paired mean difference the interval
 * is about; a run's mean over all its cases is in its own summary. With trials, a case's score
 * is already the mean of its trials: the case is the unit.
 */
export interface EvaluatorChange extends RowTest {
  evaluator: string;
  /**
   * Lower scores are the better ones (HEAD's summary says so: its thresholds bound it from above
   * only), so a significant rise is `regressed` and a fall `improved`. `delta` is still
   * `head − base`. Absent for a higher-is-better evaluator.
   */
  lowerIsBetter?: true;
  /**
   * BASE read this evaluator the other way up (its threshold's direction changed between the
   * runs); the row is labelled as HEAD says. Absent when both agree.
   */
  directionChanged?: true;
  /** Cases with a score in both runs. */
  paired: number;
  /**
   * Cases BASE scored that HEAD has no score for (an evaluator error, a function error, NaN):
   * left out of the row's test, so said apart. Absent when none.
   */
  lostInHead?: number;
  /**
   * Cases HEAD scored that BASE has no score for (its evaluator errored there, or gave none):
   * nothing to compare them with, so said apart. Absent when none.
   */
  lostInBase?: number;
  /** `null` when no case is paired. */
  baseMean: number | null;
  headMean: number | null;
  /** Mean of the per-case `head − base` differences; `null` when no case is paired. */
  delta: number | null;
  /** Confidence interval of `delta` by the same test as `pValue`; `null` when no case is paired. */
  ci: { low: number; high: number } | null;
  /**
   * Only in `evals compare --format json`: why `ci` is `null` beside a `delta`, the paired cases
   * being too few to test (`no interval: 2 cases are too few to test`). Absent otherwise.
   */
  noInterval?: string;
  /** Standard deviation of the per-case differences, what power is computed from; `null` when none is paired. */
  sd: number | null;
}

/**
 * The pass rate in both runs over the paired cases. Tested like a score: each case's change is
 * +1 (fail → pass), −1 (pass → fail) or 0, so the test is McNemar's, by sign flips.
 */
export interface PassRateChange extends RowTest {
  /** Cases present in both runs with the same content. */
  paired: number;
  /** `null` when no case is paired. */
  baseRate: number | null;
  headRate: number | null;
  delta: number | null;
  /** Confidence interval of `delta`; `null` when no case is paired. */
  ci: { low: number; high: number } | null;
  /** Only in `evals compare --format json`: why `ci` is `null` (see `EvaluatorChange`). */
  noInterval?: string;
  /** Standard deviation of the per-case changes; `null` when none is paired. */
  sd: number | null;
  /** Paired cases that passed in BASE and not in HEAD. */
  passToFail: number;
  /** Paired cases that failed in BASE and passed in HEAD. */
  failToPass: number;
}

/**
 * A judge evaluator's agreement with the human labels (Cohen's κ) in both runs. The two κ are
 * compared as independent estimates (their standard errors added in quadrature): the same rows
 * and labels make them positively correlated, so the test is conservative, never optimistic.
 */
export interface AgreementChange extends RowTest {
  evaluator: string;
  /** The testset column holding the human verdicts (HEAD's). */
  column: string;
  /** `weighted` for ordinal choices (linear weights by score). */
  weighted: boolean;
  /** Labelled rows the judge gave a verdict on, on each side. */
  compared: { base: number; head: number };
  baseKappa: number | null;
  headKappa: number | null;
  delta: number | null;
  ci: { low: number; high: number } | null;
  /** Standard error of `delta`; `null` when either side has no κ. */
  se: number | null;
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
  /**
   * Only when BASE's run is incomplete (see `IncompleteSide`): the HEAD cases BASE has no
   * result for, listed here instead of `added`, since BASE most likely never reached them.
   */
  notRunInBase?: CaseRef[];
  /** The same for an incomplete HEAD: BASE cases HEAD has no result for, instead of `removed`. */
  notRunInHead?: CaseRef[];
  /**
   * Only when the two runs were narrowed by different `--tag` filters (`testset.tagFilter`): the
   * HEAD cases BASE's filter left out, listed here instead of `added`.
   */
  notSelectedInBase?: CaseRef[];
  /** The same for HEAD's filter: BASE cases HEAD's `--tag` left out, instead of `removed`. */
  notSelectedInHead?: CaseRef[];
}

/** One suite × grid point present in both artifacts. */
export interface RunComparison extends RunRef {
  /** Times each HEAD case ran (`trials`); with more than one, each case's trials are averaged first. */
  trials: number;
  /** Times each BASE case ran, only when it differs from `trials`. */
  baseTrials?: number;
  /** HEAD's `gate.minDetectableEffect` (0.1 by default): the change an `unchanged` row must be able to see. */
  minDetectableEffect: number;
  passRate: PassRateChange;
  /** Evaluators present in both runs, in HEAD's order. */
  evaluators: EvaluatorChange[];
  /** Agreement with human labels of the evaluators that have it on both sides, in HEAD's order. */
  agreement: AgreementChange[];
  evaluatorsOnlyInBase: string[];
  evaluatorsOnlyInHead: string[];
  /**
   * Evaluators of both runs whose scorer changed (`use:`, `not:`): in both lists above and not
   * compared, as a renamed one. Absent when none did, or a side recorded no scorers.
   */
  evaluatorsReplaced?: ReplacedScorer[];
  cases: CaseChanges;
  /** Present when a side's run is incomplete: that side's finished and planned cases in it. */
  incomplete?: { base?: CaseCount; head?: CaseCount };
  /**
   * Each side's verdict on its own gate (regressions aside). A run that passed in BASE and fails
   * in HEAD makes its newly failing cases news, whatever the statistics say. Absent in
   * comparisons written before it was recorded.
   */
  verdicts?: { base: Verdict; head: Verdict };
  /**
   * Both sides ran every case at least twice and every case's trials agreed (none passed in some
   * trials and failed in others, on either side): the suite answers the same each time, so a
   * case that flips between BASE and HEAD changed, it is not noise. Absent otherwise (one trial
   * on a side says nothing of how repeatable it is).
   */
  trialsAgreed?: true;
}

/** An evaluator id whose scorer (as `RunPlan.scorers` records it) differs between the runs. */
export interface ReplacedScorer {
  evaluator: string;
  base: string;
  head: string;
}

/** How many rows (pass rate, evaluator and agreement rows, over every run) got each label. */
export interface ChangeCounts {
  improved: number;
  regressed: number;
  unchanged: number;
  tooFewCases: number;
  /** Of the `unchanged` rows, those that could not have seen `gate.minDetectableEffect`. */
  underpowered: number;
}

/**
 * The rows tested together. One family per comparison, which is one gate decision: every suite,
 * grid point, evaluator, pass rate and agreement row with a verdict, except rows where no case
 * changed at all (they can never be significant, so they cost the others nothing).
 */
export interface ComparisonFamily {
  /** Rows in the family: what Holm's correction divides by. */
  rows: number;
  /** Regressed rows still significant after the correction: each one blocks (`regressions: block`). */
  regressions: number;
  /** Improved rows still significant after the correction. */
  improvements: number;
}

/** The settings the statistics ran with, so a JSON comparison explains itself. */
export interface ComparisonSettings {
  confidence: number;
  /**
   * Random sign vectors every resampled row draws first (4,999); rows with more than
   * `resamplingLimit` changed cases use the normal approximation instead.
   */
  resamples: number;
  /**
   * The most one row draws (4,999, more for a family above 62 rows so that α / rows stays
   * reachable): a row draws on, doubling, only while its p is below α and fewer than 40 vectors
   * reached the observed change. Absent in a comparison an evalgate recorded before it drew in
   * stages (within schemaVersion 1, a field added later is optional): it drew `resamples` only.
   */
  maxResamples?: number;
  resamplingLimit: number;
  seed: number;
  minPaired: number;
  /** Power of the `detectable` figures: 0.8. */
  power: number;
}

/** BASE against HEAD: everything `evals compare` reports. */
export interface Comparison {
  settings: ComparisonSettings;
  base: ArtifactInfo;
  head: ArtifactInfo;
  counts: ChangeCounts;
  family: ComparisonFamily;
  /** Some row regressed significantly after Holm's correction over the family. */
  hasRegression: boolean;
  /** Runs present in both, in HEAD's order. */
  runs: RunComparison[];
  /** Runs of BASE that HEAD does not have. */
  onlyInBase: RunRef[];
  /** Runs of HEAD that BASE does not have. */
  onlyInHead: RunRef[];
  /**
   * Said when BASE shares no suite and no case with HEAD while suites of BASE gone from HEAD's
   * config fail it: `none of the baseline's suites ("a") is in this config, … a baseline of
   * another config? …`. Absent otherwise, and in comparisons an earlier evalgate recorded.
   */
  foreignBaseline?: string;
}
