/**
 * The test of a change in a judge's agreement κ between two runs, on the labelled rows both runs
 * judged: a paired permutation test. Under "the judge did not change", a row's BASE and HEAD
 * verdicts are exchangeable, so swapping them in any set of rows gives a change as likely as the
 * one seen. Rows whose two verdicts agree swap onto themselves; only the rows where they differ
 * are permuted. Exact over every swap up to `EXACT_LIMIT` such rows, random swaps beyond.
 *
 * Why not the large-sample (Wald) test of two κ: with the 10 to 30 labelled rows a team
 * typically has, its standard error is too small and a judge that did not change was flagged
 * 8–10% of the time at α = 0.05 (test/compare-kappa-change.test.ts measures both). Pure and
 * deterministic: the same verdicts and seed give the same p.
 */
import { kappa, VerdictReader } from '../evaluators/agreement.ts';
import type { AgreementSpec, CaseResult } from '../types/index.ts';
import { normalQuantileUpper, normalUpperTail } from './normal.ts';
import { drawsMore, resamplingStages } from './resampling-stages.ts';
import { mulberry32, RESAMPLING_WORK } from './sign-flip.ts';

/** One labelled row both runs judged: the human's category and each run's verdict. */
export interface VerdictPair {
  human: number;
  base: number;
  head: number;
}

/** The paired verdicts of one judge, with the categories' κ weights. */
export interface PairedVerdicts {
  /** κ's agreement weights, categories × categories (identity: Cohen's κ). */
  weights: readonly (readonly number[])[];
  rows: readonly VerdictPair[];
}

export interface KappaChangeTest {
  /** Labelled rows both runs judged. */
  compared: number;
  baseKappa: number;
  headKappa: number;
  delta: number;
  pValue: number;
  /**
   * Every swap enumerated, random swaps, or (past `RESAMPLING_WORK`) the normal approximation
   * of the swap distribution with its spread estimated from random swaps.
   */
  method: 'exact' | 'resampled' | 'normal';
  /** Random swaps drawn, when some were. */
  drawn?: number;
}

/**
 * The verdicts of `evaluator` on the labelled rows of cases paired between the runs (same id,
 * same row), read as each run's summary reads them. `undefined` when either artifact did not
 * record the evaluator's `agreement:` (one from before it was recorded) or the two differ (a
 * changed label column or choices): the row is then tested on the summaries' κ alone.
 */
export function pairVerdicts(
  paired: readonly (readonly [CaseResult, CaseResult])[],
  evaluator: string,
  baseSpec: AgreementSpec | undefined,
  headSpec: AgreementSpec | undefined,
): PairedVerdicts | undefined {
  if (baseSpec === undefined || headSpec === undefined) return undefined;
  if (baseSpec.column !== headSpec.column) return undefined;
  if (JSON.stringify(baseSpec.choices) !== JSON.stringify(headSpec.choices)) return undefined;
  const reader = new VerdictReader(headSpec);
  const rows: VerdictPair[] = [];
  for (const [baseCase, headCase] of paired) {
    const label = (headCase.data as Record<string, unknown> | null)?.[headSpec.column];
    if (VerdictReader.unlabelled(label)) continue;
    const human = reader.label(label);
    const base = verdictOf(reader, baseCase, evaluator);
    const head = verdictOf(reader, headCase, evaluator);
    if (human !== null && base !== null && head !== null) rows.push({ human, base, head });
  }
  return { weights: reader.weights, rows };
}

function verdictOf(reader: VerdictReader, result: CaseResult, evaluator: string): number | null {
  const evaluation = result.evaluations.find((e) => e.evaluator === evaluator);
  return evaluation === undefined ? null : reader.verdict(evaluation);
}

/** Up to this many rows with differing verdicts, all 2^m swaps are enumerated (65,536 at most). */
export const EXACT_LIMIT = 16;
/** A swapped change this close to the observed one counts as reaching it (rounding of κ). */
export const TOLERANCE = 1e-9;

/**
 * The κ change HEAD − BASE over `verdicts.rows` and its two-sided p-value. `null` when κ is
 * undefined on either side (no rows, or every label and verdict one and the same). Random swaps
 * are drawn as sign vectors are: `resamples` first, then in stages up to `maxResamples` while p
 * stays small (`resampling-stages.ts`, with `alpha`, 0.05 unless told).
 */
export function kappaChangeTest(
  verdicts: PairedVerdicts,
  options: { resamples: number; seed: number; maxResamples?: number; alpha?: number },
): KappaChangeTest | null {
  const kappas = new KappaTables(verdicts);
  const observed = kappas.change(() => false);
  if (observed === null) return null;
  const { base, head } = observed;
  const delta = head - base;
  const m = kappas.discordant;
  const reaches = (swap: (i: number) => boolean): boolean => {
    const swapped = kappas.change(swap);
    return swapped !== null && Math.abs(swapped.head - swapped.base) >= Math.abs(delta) - TOLERANCE;
  };
  const result = { compared: verdicts.rows.length, baseKappa: base, headKappa: head, delta };
  if (m === 0) return { ...result, pValue: 1, method: 'exact' };
  if (m <= EXACT_LIMIT) {
    let count = 0;
    const total = 2 ** m;
    for (let mask = 0; mask < total; mask++) {
      if (reaches((i) => ((mask >>> i) & 1) === 1)) count++;
    }
    return { ...result, pValue: count / total, method: 'exact' };
  }
  const random = mulberry32(options.seed);
  const draw = (): boolean[] => Array.from({ length: m }, () => random() < 0.5);
  const most = Math.max(options.resamples, options.maxResamples ?? options.resamples);
  if (m * most <= RESAMPLING_WORK) {
    let count = 0;
    let drawn = 0;
    for (const size of resamplingStages(options.resamples, most)) {
      if (drawn > 0 && !drawsMore(count, drawn, options.alpha ?? 0.05)) break;
      for (; drawn < size; drawn++) {
        const swaps = draw();
        if (reaches((i) => swaps[i] === true)) count++;
      }
    }
    return { ...result, pValue: (1 + count) / (drawn + 1), method: 'resampled', drawn };
  }
  // Thousands of rows whose verdicts differ: the swap distribution is near normal around 0 (it
  // is symmetric: swapping every row negates the change), so its spread from a bounded number
  // of draws gives p, and a comparison's time stays bounded whatever the testset's size.
  const draws = Math.max(200, Math.floor(RESAMPLING_WORK / m));
  let squares = 0;
  for (let r = 0; r < draws; r++) {
    const swaps = draw();
    const swapped = kappas.change((i) => swaps[i] === true);
    if (swapped !== null) squares += (swapped.head - swapped.base) ** 2;
  }
  const spread = Math.sqrt(squares / draws);
  const pValue = spread > 0 ? Math.min(1, 2 * normalUpperTail(Math.abs(delta) / spread)) : 1;
  return { ...result, pValue, method: 'normal', drawn: draws };
}

/** The κ change seen, without its test: whether the row belongs in the comparison's family. */
export function observedKappaChange(
  verdicts: PairedVerdicts,
): { compared: number; discordant: number; delta: number } | null {
  const kappas = new KappaTables(verdicts);
  const observed = kappas.change(() => false);
  if (observed === null) return null;
  return {
    compared: verdicts.rows.length,
    discordant: kappas.discordant,
    delta: observed.head - observed.base,
  };
}

/**
 * The interval that goes with a p-value: Δ ± z·|Δ|/z_p, z_p the normal quantile of p/2
 * (Miettinen's test-based interval). It excludes 0 exactly when p < α, as every other row's
 * interval does. At p = 1 (always so when Δ = 0) it has no finite width: it is then the whole
 * range a change of κ can take, [−2, 2], with no standard error.
 */
export function testBasedInterval(
  delta: number,
  pValue: number,
  alpha: number,
): { low: number; high: number; se: number | null } {
  if (delta === 0 || pValue >= 1) return { low: -2, high: 2, se: null };
  // The normal approximation's p underflows to 0 for a change of dozens of standard errors (κ
  // 1 → 0 over thousands of rows), whose quantile is infinite: take the smallest p a double
  // holds (z ≈ 38.5), which keeps the interval finite and as narrow as it can honestly be.
  const se = Math.abs(delta) / normalQuantileUpper(Math.max(pValue / 2, Number.MIN_VALUE));
  const half = normalQuantileUpper(alpha / 2) * se;
  // κ lies in [−1, 1], so a change of κ lies in [−2, 2].
  return { low: Math.max(-2, delta - half), high: Math.min(2, delta + half), se };
}

/** The two runs' κ over the paired rows, recomputed under any set of swaps. */
class KappaTables {
  readonly #weights: readonly (readonly number[])[];
  /** Counts of the rows whose verdicts agree, human × verdict: the same on both sides. */
  readonly #common: number[][];
  /** The rows whose verdicts differ. */
  readonly #rows: VerdictPair[] = [];

  constructor(verdicts: PairedVerdicts) {
    const size = verdicts.weights.length;
    this.#weights = verdicts.weights;
    this.#common = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    for (const row of verdicts.rows) {
      if (row.base !== row.head) this.#rows.push(row);
      else {
        const counts = this.#common[row.human];
        if (counts !== undefined) counts[row.base] = (counts[row.base] ?? 0) + 1;
      }
    }
  }

  /** Rows whose two verdicts differ: the only ones a swap changes. */
  get discordant(): number {
    return this.#rows.length;
  }

  /** BASE's and HEAD's κ with row i's verdicts swapped where `swap(i)`; `null`: κ undefined. */
  change(swap: (i: number) => boolean): { base: number; head: number } | null {
    const base = this.#common.map((row) => [...row]);
    const head = this.#common.map((row) => [...row]);
    for (const [i, row] of this.#rows.entries()) {
      const swapped = swap(i);
      const baseRow = base[row.human];
      const headRow = head[row.human];
      if (baseRow === undefined || headRow === undefined) continue;
      const toBase = swapped ? row.head : row.base;
      const toHead = swapped ? row.base : row.head;
      baseRow[toBase] = (baseRow[toBase] ?? 0) + 1;
      headRow[toHead] = (headRow[toHead] ?? 0) + 1;
    }
    const baseKappa = kappa(base, this.#weights).kappa;
    const headKappa = kappa(head, this.#weights).kappa;
    return baseKappa === null || headKappa === null ? null : { base: baseKappa, head: headKappa };
  }
}
