/**
 * A gate's mean rule over an evaluator some of whose evaluations errored. The mean is over the
 * scores given, so it says nothing of what the errored ones would have scored (17 errored and 3
 * that scored 0.95 would pass `gte: 0.8`). But every score the engine accepts lies in [0, 1]
 * (run/evaluation.ts makes any other an evaluation error, for built-ins, judges and custom
 * evaluators alike), so the mean over every evaluation lies between the one with each errored
 * evaluation at 0 and the one with each at 1. The rule is decided when that whole range is on
 * one side of its bound: one timeout in 1,000 cannot move a mean of 0.95 below 0.8.
 */
import type { EvaluatorSummary, GateCondition, Threshold } from '../types/index.ts';
import { formatCount } from '../shared/format-count.ts';
import { meetsThreshold } from './threshold.ts';

/** The lowest and highest score an evaluation can have: the engine refuses any other. */
const LOWEST = 0;
const HIGHEST = 1;

/**
 * Significant digits a bound of the range keeps. It is derived from the summary's mean, itself
 * rounded to 15 digits (shared/float-noise.ts), so its own 14th and 15th digits are noise: 1 in
 * 3 scored and 7 errored at 0 comes to 0.0999999999999999, not the 0.1 it is, and would miss
 * `gte: 0.1`. 12 digits keep any bound a person writes and are far finer than any real
 * difference of a mean (float-noise.ts calls a billionth noise).
 */
const RANGE_DIGITS = 12;

/**
 * `condition` (the rule as measured over the scores given) once `measured`'s errored evaluations
 * are accounted for: unchanged without errors; passed when the rule holds wherever they scored,
 * failed when it holds nowhere, and otherwise not decided, which fails, as a gate that could
 * not check must. A summary without `scored` (an artifact of an earlier version) cannot be
 * bounded and stays not decided.
 */
export function meanWithErrors(
  condition: GateCondition,
  threshold: Threshold,
  measured: Pick<EvaluatorSummary, 'mean' | 'count' | 'errors' | 'scored' | 'erroredTrials'>,
): GateCondition {
  const { mean, errors, scored } = measured;
  // Trials that errored beside scored ones (`trials:`) move their case's score as an errored
  // evaluation moves the mean: by at most `down` and `up` over the run (run/summary.ts).
  const trials = measured.erroredTrials ?? { trials: 0, down: 0, up: 0 };
  if ((errors === 0 && trials.trials === 0) || mean === null) return condition;
  const erroredTrials = trials.trials === 0 ? [] : [plural(trials.trials, 'errored trial')];
  const errored = [
    ...(errors > 0
      ? [`${formatCount(errors)} of ${formatCount(measured.count)} evaluations errored`]
      : []),
    ...erroredTrials.map((text) => `${text} beside scored ones`),
  ].join(', ');
  const given = `mean ${condition.actual} over the ${errors > 0 ? 'others' : 'trials that scored'}`;
  if (scored === undefined || scored <= 0) {
    return { ...condition, actual: `not decided: ${errored} (${given})`, passed: false };
  }
  const at = (score: number, shift: number): number =>
    Number(
      ((mean * scored + shift + score * errors) / (scored + errors)).toPrecision(RANGE_DIGITS),
    );
  const low = at(LOWEST, trials.down);
  const high = at(HIGHEST, trials.up);
  const them = [
    ...(errors > 0 ? [`the ${plural(errors, 'errored evaluation')}`] : []),
    ...erroredTrials.map((text) => (errors > 0 ? text : `the ${text}`)),
  ].join(' and ');
  const others =
    errors > 0
      ? `${condition.actual} over the other ${formatCount(scored)}`
      : `${condition.actual} over the trials that scored`;
  if (meetsThreshold(low, threshold) && meetsThreshold(high, threshold)) {
    return {
      ...condition,
      actual: `passes ${wherever(threshold, true, them, low, high)} (${others})`,
      passed: true,
    };
  }
  if (failsThroughout(threshold, low, high)) {
    return {
      ...condition,
      actual: `fails ${wherever(threshold, false, them, low, high)} (${others})`,
      passed: false,
    };
  }
  return {
    ...condition,
    actual: `not decided: ${errored} (${given}; ${shown(low, 'down')} to ${shown(high, 'up')} as they scored ${LOWEST} or ${HIGHEST})`,
    passed: false,
  };
}

/**
 * Whether no mean in [low, high] meets `threshold`. Its lower bounds (`gte`, `gt`) fail the
 * whole range when they fail its top; its upper bounds when they fail its bottom. A band that
 * both ends miss on opposite sides (`gte: 0.4, lte: 0.6` against 0.3 to 0.7) holds in between.
 */
function failsThroughout(threshold: Threshold, low: number, high: number): boolean {
  const lower: Threshold = { ...pick(threshold, 'gt'), ...pick(threshold, 'gte') };
  const upper: Threshold = { ...pick(threshold, 'lt'), ...pick(threshold, 'lte') };
  const hasLower = threshold.gt != null || threshold.gte != null;
  const hasUpper = threshold.lt != null || threshold.lte != null;
  return (hasLower && !meetsThreshold(high, lower)) || (hasUpper && !meetsThreshold(low, upper));
}

function pick<K extends keyof Threshold>(threshold: Threshold, key: K): Partial<Threshold> {
  return threshold[key] != null ? { [key]: threshold[key] } : {};
}

/**
 * Where the rule was decided, in the words of its direction: a lower bound only is decided by
 * the errored evaluations at the bottom of the scale when it passes (`even if the 1 errored
 * evaluation scored 0: mean ≥ 0.949`), at the top when it fails; an upper bound only the other
 * way round; a band by both ends (`whatever ... scored: mean from 0.41 to 0.43`).
 */
function wherever(
  threshold: Threshold,
  passed: boolean,
  them: string,
  low: number,
  high: number,
): string {
  const lowerOnly =
    (threshold.gt != null || threshold.gte != null) &&
    threshold.lt == null &&
    threshold.lte == null;
  const upperOnly =
    (threshold.lt != null || threshold.lte != null) &&
    threshold.gt == null &&
    threshold.gte == null;
  // A pass is decided by the worst end, a failure by the best one.
  if (lowerOnly) {
    return passed
      ? `even if ${them} scored ${LOWEST}: mean \u2265 ${shown(low, 'down')}`
      : `even if ${them} scored ${HIGHEST}: mean \u2264 ${shown(high, 'up')}`;
  }
  if (upperOnly) {
    return passed
      ? `even if ${them} scored ${HIGHEST}: mean \u2264 ${shown(high, 'up')}`
      : `even if ${them} scored ${LOWEST}: mean \u2265 ${shown(low, 'down')}`;
  }
  return `whatever ${them} scored: mean from ${shown(low, 'down')} to ${shown(high, 'up')}`;
}

/**
 * A bound of the range for text, to 4 decimals rounded away from the inside of the range, so
 * `mean ≥ 0.949` is never more than the mean could be (0.94905 shows as 0.949, not 0.9491).
 * The verdict always comes from the exact value.
 */
function shown(value: number, direction: 'down' | 'up'): string {
  const scale = 10_000;
  // Scaled to 15 significant digits first: 0.57 * 10,000 is 5699.999999999999.
  const scaled = Number((value * scale).toPrecision(15));
  const rounded = direction === 'down' ? Math.floor(scaled) : Math.ceil(scaled);
  return String(rounded / scale);
}

/** `1 errored trial`, `2 errored trials`. */
function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}
