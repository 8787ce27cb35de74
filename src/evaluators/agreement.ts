/**
 * Judges checked against people (`agreement: { column }` on an evaluator): each labelled row's
 * human verdict beside the judge's, tallied into a table, and the table's accuracy and Cohen's κ
 * (weighted κ for ordinal choices) with their confidence intervals. Pure: the run's summary
 * feeds it case by case and reads the result at the end.
 */
import type {
  AgreementSpec,
  AgreementSummary,
  EvaluationResult,
  Interval,
} from '../types/index.ts';
import { withoutNoiseOrNull } from '../shared/float-noise.ts';
import { formatCount } from '../shared/format-count.ts';

/** z for a two-sided 95% interval, the confidence every figure of a comparison uses. */
const Z_95 = 1.959963984540054;

/** The share of κ's variance terms below which their difference is rounding, not variance. */
const VARIANCE_NOISE = 1e-12;

/** The verdicts of a judge without choices: its evaluations fail or pass their threshold. */
const PASS_FAIL = ['fail', 'pass'];

/**
 * How one judge's verdicts and the human labels of its `agreement:` column read as verdict
 * categories: the tally below and the comparison's paired test of κ (compare/) read them alike.
 */
export class VerdictReader {
  readonly #spec: AgreementSpec;
  /** Verdict names by ascending score (the order written among equal scores). */
  readonly categories: readonly string[];
  readonly #scores: number[];
  /** Three or more choices with distinct scores are ordered: a near miss counts partly. */
  readonly ordinal: boolean;
  /** κ's agreement weights: linear by score when `ordinal`, else identity (Cohen's κ). */
  readonly weights: readonly (readonly number[])[];

  constructor(spec: AgreementSpec) {
    this.#spec = spec;
    if (spec.choices === null) {
      this.categories = PASS_FAIL;
      this.#scores = [0, 1];
    } else {
      const sorted = Object.entries(spec.choices)
        .map(([name, score], order) => ({ name, score, order }))
        .sort((a, b) => a.score - b.score || a.order - b.order);
      this.categories = sorted.map((choice) => choice.name);
      this.#scores = sorted.map((choice) => choice.score);
    }
    this.ordinal = this.#scores.length >= 3 && new Set(this.#scores).size === this.#scores.length;
    this.weights = this.ordinal
      ? linearWeights(this.#scores)
      : identityWeights(this.categories.length);
  }

  /** Whether a label cell is empty: an unlabelled row, left out of the agreement. */
  static unlabelled(label: unknown): boolean {
    return label === undefined || label === null || (typeof label === 'string' && !label.trim());
  }

  /**
   * A label's category: a verdict's name (case and surrounding spaces ignored), or a number: a
   * choice's score, or for pass/fail 1 and 0 (also `true`/`false`, `yes`/`no`). `null`: none.
   */
  label(label: unknown): number | null {
    if (typeof label === 'boolean') return this.#spec.choices === null ? (label ? 1 : 0) : null;
    const text = String(label).trim().toLowerCase();
    const byName = this.categories.findIndex((name) => name.toLowerCase() === text);
    if (byName !== -1) return byName;
    if (this.#spec.choices === null) {
      if (['1', 'true', 'yes'].includes(text)) return 1;
      if (['0', 'false', 'no'].includes(text)) return 0;
      return null;
    }
    const value = typeof label === 'number' ? label : text === '' ? NaN : Number(text);
    if (!Number.isFinite(value)) return null;
    const matches = this.#scores.flatMap((score, i) => (score === value ? [i] : []));
    return matches.length === 1 ? (matches[0] ?? null) : null;
  }

  /**
   * The judge's verdict: its choice (from the evaluation's `metadata.choice`, else the choice
   * nearest its score, which is how a case's averaged trials are read), or for a judge without
   * choices whether it passed. `null` when it gave none (an error, no score).
   */
  verdict(evaluation: EvaluationResult): number | null {
    if (evaluation.error !== null) return null;
    if (this.#spec.choices === null) {
      return evaluation.passed === null ? null : evaluation.passed ? 1 : 0;
    }
    const choice = evaluation.metadata?.choice;
    if (typeof choice === 'string') {
      const named = this.categories.indexOf(choice);
      if (named !== -1) return named;
    }
    const score = evaluation.score;
    if (score === null || !Number.isFinite(score)) return null;
    let nearest = 0;
    for (let i = 1; i < this.#scores.length; i++) {
      const distance = Math.abs((this.#scores[i] ?? 0) - score);
      if (distance < Math.abs((this.#scores[nearest] ?? 0) - score)) nearest = i;
    }
    return nearest;
  }
}

/**
 * Tallies one judge's verdicts against the human labels of a run. A row counts when its label
 * names a verdict (an empty cell is an unlabelled row, left out) and the judge gave one (see
 * {@link VerdictReader}).
 */
export class AgreementTally {
  readonly #spec: AgreementSpec;
  readonly #reader: VerdictReader;
  readonly #table: number[][];
  #unjudged = 0;
  #unrecognized = 0;

  constructor(spec: AgreementSpec) {
    this.#spec = spec;
    this.#reader = new VerdictReader(spec);
    const size = this.#reader.categories.length;
    this.#table = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  }

  /** The testset column holding the human verdicts. */
  get column(): string {
    return this.#spec.column;
  }

  /** One case: the value of its label column, and the judge's evaluation (absent: none ran). */
  add(label: unknown, evaluation: EvaluationResult | undefined): void {
    if (VerdictReader.unlabelled(label)) return;
    const human = this.#reader.label(label);
    if (human === null) {
      this.#unrecognized++;
      return;
    }
    const judge = evaluation === undefined ? null : this.#reader.verdict(evaluation);
    if (judge === null) {
      this.#unjudged++;
      return;
    }
    const row = this.#table[human];
    if (row !== undefined) row[judge] = (row[judge] ?? 0) + 1;
  }

  /** The agreement of the cases added so far; a fresh object each call. */
  summary(): AgreementSummary {
    const table = this.#table.map((row) => [...row]);
    const stats = kappa(table, this.#reader.weights);
    const compared = stats.n;
    const accuracy = compared > 0 ? diagonal(table) / compared : null;
    return {
      column: this.#spec.column,
      categories: [...this.#reader.categories],
      weighted: this.#reader.ordinal,
      compared,
      unjudged: this.#unjudged,
      unrecognized: this.#unrecognized,
      accuracy,
      accuracyCi: accuracy === null ? null : wilson(accuracy, compared),
      // Rounded like every value evalgate derives and a gate compares: a κ of exactly 0.4
      // computes as 0.3999999999999999 (see shared/float-noise.ts).
      kappa: withoutNoiseOrNull(stats.kappa),
      kappaSe: stats.se,
      kappaCi:
        stats.kappa === null || stats.se === null
          ? null
          : {
              low: Math.max(-1, stats.kappa - Z_95 * stats.se),
              high: Math.min(1, stats.kappa + Z_95 * stats.se),
            },
      table,
    };
  }
}

/**
 * Why an agreement has no κ, in words every report and the gate use: no labelled row was judged,
 * or every labelled row has one and the same label and verdict (chance agreement is then 1, and
 * κ divides by 1 − 1), which rows of that one verdict cannot help (see `kappaNotMeasurableText`).
 * `null` when κ is defined.
 */
export function kappaUndefinedReason(agreement: AgreementSummary): string | null {
  if (agreement.kappa !== null) return null;
  if (agreement.compared === 0) return 'no labelled row judged';
  const name = agreement.weighted ? 'weighted κ' : 'κ';
  const only = onlyVerdict(agreement);
  const same = only === undefined ? 'the same' : JSON.stringify(only);
  return `${name} undefined (every label and every verdict ${same}: label rows of ${otherVerdicts(agreement)} to measure it)`;
}

/**
 * Whether an agreement without κ agreed on every labelled row: κ is undefined only when no row
 * was judged, or when every label and every verdict is one and the same (chance agreement 1),
 * which is agreement on every row, with no variance for κ to measure it against.
 */
export function agreedWithoutVariance(agreement: AgreementSummary): boolean {
  return agreement.kappa === null && agreement.compared > 0 && agreement.accuracy === 1;
}

/**
 * What a κ rule says of an agreement on every labelled row with one label and one verdict
 * throughout (`agreedWithoutVariance`): κ is 0 / 0, and it is not read as 1, since those rows
 * cannot tell a judge that discriminates from one that gives that verdict to everything (it
 * would agree on each of them too). So the rule is not measurable, and fails as every gate rule
 * with nothing to measure does, naming what would make it measurable: rows of another verdict.
 */
export function kappaNotMeasurableText(agreement: AgreementSummary): string {
  const only = onlyVerdict(agreement);
  const same = only === undefined ? 'the same' : JSON.stringify(only);
  const rows = `${formatCount(agreement.compared)} labelled ${agreement.compared === 1 ? 'row' : 'rows'}`;
  const kappa = agreement.weighted ? 'weighted κ' : 'κ';
  return `not measurable (label rows of ${otherVerdicts(agreement)} too): every label and every verdict ${same} on ${rows}, so ${kappa} is 0 / 0, and these rows cannot show that the judge tells verdicts apart (one that gave ${same} to every row would agree as well)`;
}

/** The one verdict of an agreement whose labels and verdicts are all one category. */
function onlyVerdict(agreement: AgreementSummary): string | undefined {
  return agreement.categories.find((_, i) => (agreement.table[i]?.[i] ?? 0) > 0);
}

/** `"fail"`, `"no" or "partly"`: the verdicts no labelled row had. */
function otherVerdicts(agreement: AgreementSummary): string {
  const only = onlyVerdict(agreement);
  const others = agreement.categories.filter((name) => name !== only).map((n) => JSON.stringify(n));
  if (others.length <= 1) return others[0] ?? 'another verdict';
  return `${others.slice(0, -1).join(', ')} or ${others[others.length - 1] ?? ''}`;
}

/** κ, its standard error and the number of rows of a table (rows: human, columns: judge). */
export interface KappaResult {
  n: number;
  /** `null` without rows, or when chance agreement is 1 (every verdict the same on both sides). */
  kappa: number | null;
  se: number | null;
}

/**
 * Cohen's κ with agreement weights `weights` (1 on the diagonal; identity weights give the
 * unweighted κ): κ = (p_o − p_e) / (1 − p_e), with p_o the weighted share of agreement and p_e
 * the one expected from the margins. Its standard error is the large-sample one of Fleiss, Cohen
 * and Everitt (1969), valid away from κ = 0 as well as at it:
 * Var = [Σ p_ij (w_ij − (w̄_i· + w̄_·j)(1 − κ))² − (κ − p_e(1 − κ))²] / (n (1 − p_e)²),
 * with w̄_i· = Σ_j p_·j w_ij and w̄_·j = Σ_i p_i· w_ij.
 */
export function kappa(
  table: readonly (readonly number[])[],
  weights: readonly (readonly number[])[],
): KappaResult {
  const size = table.length;
  let n = 0;
  for (const row of table) for (const cell of row) n += cell;
  if (n === 0) return { n: 0, kappa: null, se: null };
  const rows = table.map((row) => row.reduce((a, b) => a + b, 0) / n);
  const columns = Array.from(
    { length: size },
    (_, j) => table.reduce((total, row) => total + (row[j] ?? 0), 0) / n,
  );
  const w = (i: number, j: number): number => weights[i]?.[j] ?? 0;
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      observed += (w(i, j) * (table[i]?.[j] ?? 0)) / n;
      expected += w(i, j) * (rows[i] ?? 0) * (columns[j] ?? 0);
    }
  }
  if (expected >= 1 - 1e-12) return { n, kappa: null, se: null };
  const k = (observed - expected) / (1 - expected);
  const rowMeans = Array.from({ length: size }, (_, i) =>
    columns.reduce((total, pj, j) => total + pj * w(i, j), 0),
  );
  const columnMeans = Array.from({ length: size }, (_, j) =>
    rows.reduce((total, pi, i) => total + pi * w(i, j), 0),
  );
  let sum = 0;
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      const p = (table[i]?.[j] ?? 0) / n;
      const term = w(i, j) - ((rowMeans[i] ?? 0) + (columnMeans[j] ?? 0)) * (1 - k);
      sum += p * term * term;
    }
  }
  const square = (k - expected * (1 - k)) ** 2;
  // The two terms are equal in exact arithmetic where the variance is 0 (every human label the
  // same: κ is 0 whatever the verdicts); in floating point their difference is a few ulps either
  // way, whose square root (~1e-8) would print as an interval around κ. A variance that real
  // counts give is far above a trillionth of the terms.
  const numerator = sum - square;
  const variance =
    numerator <= VARIANCE_NOISE * Math.max(sum, square) ? 0 : numerator / (n * (1 - expected) ** 2);
  return { n, kappa: k, se: Math.sqrt(variance) };
}

/** 1 on the diagonal, 0 elsewhere: Cohen's unweighted κ. */
export function identityWeights(size: number): number[][] {
  return Array.from({ length: size }, (_, i) =>
    Array.from({ length: size }, (_, j) => (i === j ? 1 : 0)),
  );
}

/** 1 − |s_i − s_j| / (max − min): a verdict one choice away counts partly, by score distance. */
export function linearWeights(scores: readonly number[]): number[][] {
  const range = Math.max(...scores) - Math.min(...scores);
  return scores.map((a) =>
    scores.map((b) => (range === 0 ? (a === b ? 1 : 0) : 1 - Math.abs(a - b) / range)),
  );
}

function diagonal(table: readonly (readonly number[])[]): number {
  return table.reduce((total, row, i) => total + (row[i] ?? 0), 0);
}

/**
 * Wilson's 95% score interval for a share `p` of `n`: sound near 0 and 1 and for small n. At
 * p = 1 its upper end is exactly 1 (and at p = 0 its lower end exactly 0); the formula's
 * rounding can land a hair inside, which would print 100% as "…99.9%", so those ends are set.
 */
export function wilson(p: number, n: number): Interval {
  const z2 = Z_95 * Z_95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return {
    low: p <= 0 ? 0 : Math.max(0, centre - half),
    high: p >= 1 ? 1 : Math.min(1, centre + half),
  };
}
