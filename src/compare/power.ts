/**
 * What a row could have seen: the smallest change it detects most of the time, and how many cases
 * it would take to see a given change. Pure.
 */
import { normalQuantileUpper } from './normal.ts';
import { significanceLevel } from './sign-flip.ts';

/** Chance of detecting a change of the "detectable" size: the usual 80%. */
export const DETECTION_POWER = 0.8;

/** `gate.minDetectableEffect` when a suite does not set it. */
export const DEFAULT_MIN_DETECTABLE_EFFECT = 0.1;

/** What `rowPower` needs to know about a row. */
export interface PowerInput {
  /** Standard error of the row's change at its current number of cases. */
  standardError: number;
  /** Cases behind the row (the unit: with trials, a case's trials are averaged first). */
  cases: number;
  /** Rows tested together (Holm): a lone change must reach α / family to block. */
  family: number;
  /** Two-sided level of the whole family; 0.05 for 95% intervals. */
  alpha: number;
  /** The change a row must be able to see, in the row's units. */
  target: number;
  /**
   * Every case that changes moves by exactly ±1 (pass/fail rows, and score rows whose values are
   * all 0 or 1): a change of Δ is then carried by Δ × cases cases, so the fewest cases the
   * sign-flip test needs (`fewestDetectable`) bound the change itself. False for a row whose
   * cases can move by any amount: there a change of any size can be spread over enough cases,
   * and only the noise bounds it.
   */
  bounded: boolean;
  /**
   * The row is tested by the sign-flip test (score and pass-rate rows), whose smallest p-value
   * with k changed cases is 2 / 2^k: with fewer cases than `fewestDetectable`, no change of any
   * size can reach the corrected level. Implied by `bounded`; absent for κ, whose permutation
   * test's smallest p depends on the whole table, not on a count of changed rows alone.
   */
  signFlip?: boolean;
  /**
   * Cases whose change is not 0 (sign-flip rows). A graded row whose changed cases are fewer
   * than `fewestDetectable` has measured no noise a change must beat (none at all when no case
   * changed, as in two runs of a deterministic evaluator): its figure is then the count floor of
   * a bounded row, never a change of 0, unless every case changed. Absent: taken as enough.
   */
  changed?: number;
}

/** How large a change a row could detect. */
export interface PowerResult {
  /** Smallest change (either direction) detected with 80% power at the corrected level. */
  detectable: number;
  /** `detectable` exceeds the target. */
  underpowered: boolean;
  /** Cases it would take to detect the target; `null` when the row is not underpowered. */
  casesNeeded: number | null;
}

/**
 * The smallest change a row detects with 80% power when it is the only change among `family`
 * rows, i.e. at Holm's first step α / family: (z(α / 2F) + z(0.8)) × standard error, the row's
 * measured noise. This is the honest figure for a gate: a row's own 5% level would promise
 * changes the corrected gate does not block.
 *
 * The sign-flip test adds a floor, `k = fewestDetectable` cases that must all move the same way
 * before its p-value can reach the level. It bounds how many cases must change, so it bounds the
 * size of the change only for `bounded` rows, whose cases move by ±1: there the figure is never
 * below k / cases. A row whose cases move by any amount needs only k cases in all; with fewer
 * (and for a bounded row with fewer than k cases) the figure is k / cases, above 1, the largest
 * change a score or a pass rate can make: no change could be detected.
 *
 * A graded row with fewer than k changed cases (and not every case changed) gets the bounded
 * floor too. Its standard error rests on fewer changed cases than the test needs to see anything
 * (on none when no case changed: a deterministic evaluator scoring the same outputs twice), so
 * "the noise as measured" says nothing of how a real change would spread, and a change smaller
 * than k / cases can sit on fewer than k cases, each moving at most the whole score range
 * [0, 1], which no sign flip detects. Without the floor such a row claimed `could detect ±0.00`:
 * any change at all. The floor steps down as more cases change, to none at 2k − 1 changed
 * cases (`countedShare`), so that k changed cases do not drop it at once.
 *
 * The cases needed scale the standard error as 1/√n, the usual approximation: the noise per case
 * is taken as measured now. They are never fewer than k (k / target for a bounded row, and for
 * a graded row given the floor).
 */
export function rowPower(input: PowerInput): PowerResult {
  const family = Math.max(1, input.family);
  const multiplier =
    normalQuantileUpper(input.alpha / (2 * family)) + normalQuantileUpper(1 - DETECTION_POWER);
  const fewest =
    input.bounded || input.signFlip === true ? fewestDetectable(input.alpha, family) : 0;
  const noise = multiplier * input.standardError;
  const share = countedShare(input, fewest);
  // Below `fewest` cases even the largest change cannot reach the level, bounded or not.
  const floor = input.cases < fewest ? fewest : fewest * share;
  const detectable = Math.max(noise, input.cases > 0 ? floor / input.cases : Infinity);
  if (!(detectable > input.target)) return { detectable, underpowered: false, casesNeeded: null };
  const byNoise = input.cases * (noise / input.target) ** 2;
  const byCount = share > 0 ? Math.max(fewest, (fewest * share) / input.target) : fewest;
  const casesNeeded = Math.ceil(Math.max(byNoise, byCount, input.cases + 1));
  return { detectable, underpowered: true, casesNeeded };
}

/**
 * How much of the count floor k / cases a row gets, from 1 (all of it) to 0 (none). A bounded
 * row: all, always. A graded row: all while fewer than k of its cases changed (its noise rests on
 * too few changes to say anything); none once 2k − 1 or more changed, or every case did (the noise
 * as measured is the figure); in between, a linear step down: k − 1 changed cases get the whole
 * floor, k get (k − 1) / k of it, … So one more changed case never turns `could detect ±0.20`
 * into `±0.001` at once, as a floor that stopped at k did.
 */
function countedShare(input: PowerInput, fewest: number): number {
  if (input.bounded) return 1;
  const changed = input.changed ?? Infinity;
  if (fewest === 0 || changed >= input.cases) return 0;
  return Math.min(1, Math.max(0, (2 * fewest - 1 - changed) / fewest));
}

/**
 * The fewest cases that, all changing in the same direction while every other case stays put,
 * give a two-sided sign-flip p-value (2 / 2^k) below α / family.
 */
export function fewestDetectable(alpha: number, family: number): number {
  return Math.floor(1 + Math.log2(Math.max(1, family) / alpha)) + 1;
}

/**
 * Whether `paired` cases are too few for the sign-flip test to reject anything at `confidence`:
 * its smallest p-value, 2 / 2^n, is not below α (5 cases or fewer at 95%). Its interval is then
 * no bound at all, only the largest change seen on each side, so the reports say the row is
 * too small to test instead of quoting one.
 */
export function tooFewToTest(paired: number, confidence: number): boolean {
  return paired < fewestDetectable(significanceLevel(confidence), 1);
}
