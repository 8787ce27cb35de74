/**
 * The rules a result passes by: an evaluation's threshold, and a suite's gate over its run.
 * Types only, importing nothing, as index.ts (which re-exports them).
 */

/** A range the score must fall in to pass. Any combination of bounds; all must hold. */
export interface Threshold {
  lt?: number;
  lte?: number;
  gt?: number;
  gte?: number;
}

/** A suite's verdict rule. With no `minPassRate`, every case must pass. */
export interface GateSpec {
  minPassRate?: number;
  evaluators?: Record<
    string,
    {
      mean?: Threshold;
      passRate?: Threshold;
      /** Bounds on the judge's agreement with the human labels (needs `agreement:` on it). */
      agreement?: { kappa?: Threshold; accuracy?: Threshold };
    }
  >;
  /** A significant regression against a baseline: `block` fails the suite, `warn` (default) reports it. */
  regressions?: 'block' | 'warn' | 'off';
  /** Baseline evaluators dropped on purpose: else one missing fails `regressions: block`. */
  removedEvaluators?: string[];
  /** Grid values of the baseline dropped on purpose, by key: else one gone fails `block`. */
  removedGridValues?: Record<string, unknown[]>;
  /** The suite's `allowEmpty: true`: a run of zero cases may pass (by default it fails). */
  allowEmpty?: boolean;
  /** The change a comparison row must detect, else it is `underpowered`; 0.1 when absent. */
  minDetectableEffect?: number;
}
