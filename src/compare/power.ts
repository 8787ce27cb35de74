/**
 * What a row could have seen: the smallest change it detects most of the time, and how many cases
 * it would take to see a given change. Pure.
 */
import { normalQuantileUpper } from './normal.ts';

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
   * Per-case changes are bounded by 1 (scores and pass/fail): then a change carried by fewer
   * cases than `fewestDetectable` can never be significant, whatever the noise.
   */
  bounded: boolean;
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
 * rows, i.e. at Holm's first step α / family: (z(α / 2F) + z(0.8)) × standard error. This is the
 * honest figure for a gate: a row's own 5% level would promise changes the corrected gate does
 * not block. For bounded rows it is never below `fewestDetectable / cases`: with nothing else
 * moving, that many cases must all move the same way before the sign-flip test can reach the
 * level at all.
 *
 * The cases needed scale the standard error as 1/√n, the usual approximation: the noise per case
 * is taken as measured now.
 */
export function rowPower(input: PowerInput): PowerResult {
  const family = Math.max(1, input.family);
  const multiplier =
    normalQuantileUpper(input.alpha / (2 * family)) + normalQuantileUpper(1 - DETECTION_POWER);
  const floor = input.bounded ? fewestDetectable(input.alpha, family) : 0;
  const detectable = Math.max(
    multiplier * input.standardError,
    input.cases > 0 ? floor / input.cases : Infinity,
  );
  if (!(detectable > input.target)) return { detectable, underpowered: false, casesNeeded: null };
  const byNoise = input.cases * ((multiplier * input.standardError) / input.target) ** 2;
  const casesNeeded = Math.ceil(Math.max(byNoise, floor / input.target, input.cases + 1));
  return { detectable, underpowered: true, casesNeeded };
}

/**
 * The fewest cases that, all changing in the same direction while every other case stays put,
 * give a two-sided sign-flip p-value (2 / 2^k) below α / family.
 */
export function fewestDetectable(alpha: number, family: number): number {
  return Math.floor(1 + Math.log2(Math.max(1, family) / alpha)) + 1;
}
