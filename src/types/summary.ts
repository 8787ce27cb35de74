/**
 * What a run adds up to: its model usage, each evaluator's summary (with a judge's agreement
 * with human labels) and the run's totals. Part of the results artifact (schemaVersion 1),
 * re-exported by `types/index.ts`; apart only to keep that file readable.
 */

/**
 * Model calls and what they cost. Cache hits are counted, but their tokens, latency and cost
 * are not: the usage is what this run spent, so a re-run served from the cache costs nothing.
 */
export interface Usage {
  /**
   * Calls sent to the server, answered or failed; one call however many attempts it took (see
   * `retries`). A call never sent (its server given up on after `stopAfterErrors`) is not one.
   */
  calls: number;
  /** Calls served from the on-disk cache, with no request made. */
  cacheHits: number;
  promptTokens: number;
  completionTokens: number;
  /**
   * In US dollars from the configured prices; `null` when a model used has no price, or when a
   * successful call's answer did not report its token counts (the provider billed tokens that
   * are not known). A failed call is priced by the tokens the server reported with it, $0 when
   * it reported none (a timeout, a dropped connection): providers bill the tokens they report.
   */
  cost: number | null;
  /**
   * Summed wall time of the calls sent to the server, failed ones included: every attempt and
   * the waits between them.
   */
  latencyMs: number;
  /**
   * Attempts beyond the first of each call (a 429 or 5xx retried, a timeout tried again),
   * summed; absent when no call was retried. Each retry is one more request sent.
   */
  retries?: number;
}

/** A 95% confidence interval. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * Where an evaluator's verdicts are checked against people: the testset column holding the human
 * verdict of each row, and what the verdicts are.
 */
export interface AgreementSpec {
  /** The testset column with the human's verdict (a choice name, or 0/1/a score). */
  column: string;
  /**
   * The judge's choices and their scores, in the order written, for a judge that picks one;
   * `null`: its pass/fail against its threshold is the verdict.
   */
  choices: Record<string, number> | null;
}

/** A judge's agreement with the human labels over a run (`agreement:` on the evaluator). */
export interface AgreementSummary {
  /** The testset column holding the human verdicts. */
  column: string;
  /** The verdicts, in order: the judge's choices by ascending score, or `fail`, `pass`. */
  categories: string[];
  /** κ with linear weights by score (3 or more choices with distinct scores); else Cohen's κ. */
  weighted: boolean;
  /** Labelled rows the judge gave a verdict on: the n of every figure below. */
  compared: number;
  /** Labelled rows without a judge verdict (the evaluator or the case errored). */
  unjudged: number;
  /** Labelled rows whose label is none of `categories`: left out. */
  unrecognized: number;
  /** Share of rows where the judge's verdict is the human's; `null` when none was compared. */
  accuracy: number | null;
  /** Wilson interval of `accuracy`. */
  accuracyCi: Interval | null;
  /** Cohen's κ (weighted when `weighted`); `null` when none was compared or κ is undefined. */
  kappa: number | null;
  /** Large-sample standard error of κ (Fleiss, Cohen and Everitt, 1969). */
  kappaSe: number | null;
  /** κ ± 1.96 standard errors, within [−1, 1]. */
  kappaCi: Interval | null;
  /**
   * Rows by human verdict, columns by judge verdict, in `categories` order. With trials a case
   * counts once, by its aggregated evaluation: the choice nearest its trials' mean score, or
   * whether it passed.
   */
  table: number[][];
}

export interface EvaluatorSummary {
  /** Evaluations recorded (including errored ones). */
  count: number;
  /** Mean score over evaluations that produced a score; `null` when none did. */
  mean: number | null;
  passed: number;
  failed: number;
  errors: number;
  /**
   * Evaluations that gave a score without an error: those `mean` averages. Present only when
   * some evaluation errored (`errors` > 0), so the gate can bound what the mean would have been
   * whatever the errored ones scored (run/mean-bounds.ts); absent in artifacts of earlier
   * versions, whose such mean rules stay not decided.
   */
  scored?: number;
  /**
   * Trials that errored in cases whose combined evaluation scored on its other trials (`trials:`;
   * its `metadata.erroredTrials`): `down` and `up` sum how far those evaluations' scores would
   * move had their errored trials scored 0 or 1, so the gate bounds the mean as it does over
   * errored evaluations (run/mean-bounds.ts). Absent when no such trial errored.
   */
  erroredTrials?: { trials: number; down: number; up: number };
  /**
   * Cases that did not error whose first baseline this evaluator recorded instead of judging them
   * (an automatic battle; `CaseResult.recordedBaseline`); absent when none.
   */
  baselinesRecorded?: number;
  /** passed / (passed + failed); `null` when no evaluation had a threshold. */
  passRate: number | null;
  /**
   * Lower scores are the better ones: its thresholds bound it from above only (`lte`/`lt`, as
   * `noise-sensitivity`'s default `lte: 0.5`). Comparisons then call a rise a regression and grid
   * matrices mark the lowest mean. Absent for the usual higher-is-better evaluator.
   */
  lowerIsBetter?: true;
  /** Model calls of this evaluator over the run; absent when it made none. */
  usage?: Usage;
  /** Agreement with the human labels; present when the evaluator has `agreement:`. */
  agreement?: AgreementSummary;
}

export interface RunSummary {
  cases: number;
  passed: number;
  failed: number;
  errored: number;
  /** passed / cases; 1 when there are no cases. */
  passRate: number;
  /** Cases that passed some trials and failed others; present only when the suite ran trials. */
  flaky?: number;
  /**
   * Cases that did not error whose first baseline an evaluator recorded instead of judging them
   * (`CaseResult.recordedBaseline`); absent when there were none. The gate excuses them from
   * `judged` (run/gate.ts).
   */
  baselinesRecorded?: number;
  evaluators: Record<string, EvaluatorSummary>;
  /** Model calls of every evaluator of the run; absent when none made any. */
  usage?: Usage;
}
