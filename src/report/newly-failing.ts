/**
 * Whether a run's newly failing cases are news. With a noisy evaluator (an LLM judge re-asked)
 * some cases flip each way in every pull request, so a bold "Newly failing" list in nearly every
 * comparison that changed nothing taught reviewers to skip it (bench/stats-false-alarm.ts
 * measures how often). The cases are always listed; only the heading's emphasis and words follow
 * the statistics of the same grid point, and every form (text, markdown, the HTML page) reads
 * them from here.
 */
import { COMPARISON_CONFIDENCE } from '../compare/compare.ts';
import { fewestDetectable } from '../compare/power.ts';
import { significanceLevel } from '../compare/sign-flip.ts';
import { signed, visibleFixed } from '../shared/format-change.ts';
import { formatP } from './comparison-numbers.ts';
import { formatCount, plural } from './labels.ts';
import { endsAtZero, shownLabel, withinFamilyNoise, type ShownLabel } from './shown-label.ts';
import { alarmReasons } from './alarm-reasons.ts';
import type { RunComparison } from '../types/comparison.ts';

/** The parts of a run the reading looks at. */
type FlipsRun = Pick<
  RunComparison,
  'passRate' | 'evaluators' | 'verdicts' | 'minDetectableEffect' | 'trialsAgreed' | 'trials'
> &
  Partial<Pick<RunComparison, 'baseTrials'>>;

/**
 * Fewer flips than this, all one way, still give a McNemar p of 0.05 or more (2 / 2^k): no test
 * at the comparison's level could call them a change either way, whatever they are.
 */
export const FEWEST_TELLING_FLIPS = fewestDetectable(significanceLevel(COMPARISON_CONFIDENCE), 1);

/**
 * The newly failing cases of `run` are an alarm (bold, red, listed open) when the grid point's
 * pass rate, or one of its evaluators' scores, is shown as a regression or a possible one (what
 * makes a case fail moved for the worse, beyond the noise of every row compared); when its pass
 * rate has too few paired cases for any verdict (nothing can vouch that the flips are noise);
 * when the grid point passed its own gate in BASE and fails it in HEAD (a FAIL above a folded
 * list would contradict itself); and when every trial of every case agreed on both sides
 * (`trialsAgreed`: the suite answers the same each time, so a case that flips changed, whatever
 * the pass rate says). Otherwise they are listed without emphasis (`flipsAside` says what the
 * pass rate can and cannot tell). A judge's agreement κ is left out: it measures the judge
 * against people, not whether cases pass.
 */
export function newlyFailingAlarm(run: FlipsRun): boolean {
  return alarmReasons(run).length > 0;
}

/**
 * What the pass rate of a grid point whose newly failing cases are no alarm supports saying:
 * - `improved`: shown improved or possibly improved, news of its own;
 * - `noise`: the flips are within the noise: the row could have seen a change of the suite's
 *   `gate.minDetectableEffect` (not underpowered) and its interval rules out a drop that large;
 * - `too few flips`: fewer than `FEWEST_TELLING_FLIPS` cases changed, which no test can call;
 * - `not significant`: no verdict, but a drop of the size the suite cares about is not ruled
 *   out (an underpowered row, or an interval reaching that far): "unchanged" would overstate.
 */
export type FlipsReading = 'improved' | 'noise' | 'too few flips' | 'not significant';

/** What the pass rate of `run` supports saying of its flips (see `FlipsReading`). */
export function flipsReading(run: FlipsRun): FlipsReading {
  const shown = shownLabel(run.passRate);
  if (shown === 'improved' || shown === 'possible improvement') return 'improved';
  const { power, ci, passToFail, failToPass } = run.passRate;
  const powered = power !== null && !power.underpowered;
  if (powered && ci !== null && ci.low > -run.minDetectableEffect) return 'noise';
  return passToFail + failToPass < FEWEST_TELLING_FLIPS ? 'too few flips' : 'not significant';
}

/** How a pass rate that is not a regression is worded, by its shown label. */
const CALM_WORDS: Partial<Record<ShownLabel, string>> = {
  unchanged: 'unchanged',
  improved: 'improved',
  'possible improvement': 'possibly improved',
};

/**
 * What the heading of newly failing cases that are no alarm says after their count, for the runs
 * they come from (one grid point, or several the markdown table merges): the flips the other
 * way, and what the pass rate supports (`flipsReading`):
 * `4 fixed the other way, within the noise: pass rate unchanged, McNemar p = 0.740` (with one
 * trial a case, which cannot tell noise from a change, `4 fixed the other way: pass rate
 * unchanged (a drop of 10.0 pp ruled out), McNemar p = 0.740; with one trial a case, whether
 * these flips are noise cannot be told`);
 * `12 fixed the other way: pass rate improved, McNemar p = 0.002`;
 * `5 fixed the other way: pass rate not significant, -2.0 pp (95% CI -14.0…+10.0 pp), McNemar
 * p = 0.740; underpowered: could detect ±16.2 pp`;
 * `none fixed the other way: too few flips to tell noise from a change (1; fewer than 6 can
 * never be significant)`; over several grid points, `9 fixed the other way, within the noise:
 * pass rate unchanged at each of the 3 grid points, lowest McNemar p = 0.210`, or each reading
 * counted. '' when `runs` is empty or holds an alarm.
 */
export function flipsAside(runs: readonly FlipsRun[]): string {
  if (runs.length === 0 || runs.some(newlyFailingAlarm)) return '';
  const fixed = runs.reduce((sum, run) => sum + run.passRate.failToPass, 0);
  const noise = flipsWithinNoise(runs);
  const other = `${fixed === 0 ? 'none' : formatCount(fixed)} fixed the other way`;
  const [only] = runs;
  if (runs.length === 1 && only !== undefined) return `${other}${oneReading(only)}`;
  if (noise) {
    // The grid point with the lowest p, its q after it as one grid point's (`mcNemar`).
    const lowest = runs.reduce((low, run) => (pOf(run) < pOf(low) ? run : low));
    const each = `at each of the ${formatCount(runs.length)} grid points`;
    const p = mcNemar(lowest, 'lowest McNemar');
    if (runs.every(seenNoisy)) return `${other}, within the noise: pass rate unchanged ${each}${p}`;
    // Each rules out a drop of its own minDetectableEffect, so of the largest of them.
    const largest = Math.max(...runs.map((run) => run.minDetectableEffect));
    return `${other}: pass rate unchanged ${each} (${ruledOut(largest)})${p}; ${ONE_TRIAL}`;
  }
  const counts = new Map<string, number>();
  for (const run of runs) {
    const words = readingWords(run);
    counts.set(words, (counts.get(words) ?? 0) + 1);
  }
  const unsure = runs.filter((run) => flipsReading(run) === 'not significant');
  const lows = unsure.flatMap((run) => (run.passRate.ci === null ? [] : [run.passRate.ci.low]));
  const reach = lows.length === 0 ? '' : ` (${ciName()} down to ${points(Math.min(...lows))})`;
  const parts = [...counts].map(([words, n]) => {
    const where =
      n === runs.length ? `each of the ${formatCount(n)} grid points` : plural(n, 'grid point');
    return `${words} at ${where}${words === 'not significant' ? reach : ''}`;
  });
  // `too few flips to tell` is no verdict on the pass rate: said after those that are.
  const verdicts = parts.filter((part) => !part.startsWith(TOO_FEW));
  const tooFew = parts.filter((part) => part.startsWith(TOO_FEW));
  const rate = verdicts.length === 0 ? [] : [`pass rate ${verdicts.join(', ')}`];
  return `${other}: ${[...rate, ...tooFew].join('; ')}`;
}

const TOO_FEW = 'too few flips to tell';

/**
 * What one trial a case cannot tell. A flip is noise only if the suite answers differently when
 * asked again, and a single trial never asks again: a deterministic target and evaluators flip
 * only when something changed. The artifact records no more than that (a function, model, http
 * or command target may vary even under built-in checks), so the heading says it cannot tell.
 */
const ONE_TRIAL = 'with one trial a case, whether these flips are noise cannot be told';

/**
 * Whether the flips of `run` may be called noise: both sides ran each case at least twice and
 * some trials disagreed (when none did, `trialsAgreed`, the flips are an alarm instead), so the
 * suite was seen to answer differently when asked again.
 */
function seenNoisy(run: FlipsRun): boolean {
  return Math.min(run.trials, run.baseTrials ?? run.trials) > 1 && run.trialsAgreed !== true;
}

/** `a drop of 10.0 pp ruled out`. */
function ruledOut(effect: number): string {
  return `a drop of ${visibleFixed(effect * 100, 1)} pp ruled out`;
}

/** `95% CI`: the comparison's intervals, as the rows name them. */
function ciName(): string {
  return `${Math.round(COMPARISON_CONFIDENCE * 100)}% CI`;
}

/** One grid point's reading, after `N fixed the other way`. */
function oneReading(run: FlipsRun): string {
  const reading = flipsReading(run);
  const pass = run.passRate;
  if (reading === 'noise') {
    if (seenNoisy(run)) return `, within the noise: pass rate unchanged${mcNemar(run)}`;
    const ruled = ruledOut(run.minDetectableEffect);
    return `: pass rate unchanged (${ruled})${mcNemar(run)}; ${ONE_TRIAL}`;
  }
  if (reading === 'improved') {
    return `: pass rate ${CALM_WORDS[shownLabel(pass)] ?? ''}${mcNemar(run)}`;
  }
  const flips = pass.passToFail + pass.failToPass;
  if (reading === 'too few flips') {
    return `: too few flips to tell noise from a change (${formatCount(flips)}; fewer than ${formatCount(FEWEST_TELLING_FLIPS)} can never be significant)`;
  }
  // As the row writes it: `-2.0 pp (95% CI -14.0…+10.0 pp)`.
  const interval =
    pass.delta === null || pass.ci === null
      ? ''
      : ` ${points(pass.delta)} (${ciName()} ${signed(pass.ci.low * 100, 1)}\u2026${points(pass.ci.high)}${endsAtZero(pass.delta, pass.ci) ? ', includes 0' : ''})`;
  const power = pass.power;
  const detect =
    power === null || !power.underpowered
      ? ''
      : power.detectable > 1
        ? '; underpowered: too few cases to detect any change'
        : `; underpowered: could detect \u00b1${visibleFixed(power.detectable * 100, 1)} pp`;
  return `: pass rate not significant${interval === '' ? '' : `,${interval}`}${mcNemar(run)}${detect}`;
}

/** A grid point's reading in a list of several: `unchanged`, `not significant`, …. */
function readingWords(run: FlipsRun): string {
  const reading = flipsReading(run);
  if (reading === 'noise') return 'unchanged';
  if (reading === 'improved') return CALM_WORDS[shownLabel(run.passRate)] ?? 'improved';
  return reading === 'too few flips' ? TOO_FEW : 'not significant';
}

/** `-2.0 pp`: a pass rate's change or an end of its interval. */
function points(value: number): string {
  return `${signed(value * 100, 1)} pp`;
}

/**
 * Whether the newly failing cases of `runs` are within run-to-run noise: none is an alarm and
 * each grid point's pass rate reads `noise` (`flipsReading`; not improved, which is news of its
 * own, nor a row that could have missed a drop of the size the suite cares about).
 */
export function flipsWithinNoise(runs: readonly FlipsRun[]): boolean {
  return (
    runs.length > 0 && runs.every((run) => !newlyFailingAlarm(run) && flipsReading(run) === 'noise')
  );
}

/**
 * What a folded list of newly failing cases that are no alarm is called in a summary line:
 * `newly failing within the noise` (`newly failing, pass rate unchanged` where a grid point ran
 * one trial a case, which cannot tell noise from a change); `newly failing, not significant` when some grid point could
 * have missed a drop (`flipsReading`); else `newly failing, no regression` (a pass rate improved).
 */
export function calmFlipsName(runs: readonly FlipsRun[]): string {
  if (flipsWithinNoise(runs)) {
    return runs.every(seenNoisy)
      ? 'newly failing within the noise'
      : 'newly failing, pass rate unchanged';
  }
  const unsure = runs.some((run) => {
    const reading = flipsReading(run);
    return reading === 'not significant' || reading === 'too few flips';
  });
  return unsure ? 'newly failing, not significant' : 'newly failing, no regression';
}

/** A grid point's McNemar p, 1 when it has none (as a lowest among others). */
function pOf(run: FlipsRun): number {
  return run.passRate.pValue ?? 1;
}

/**
 * `, McNemar p = 0.740` (`, lowest McNemar p = ...` with `name`); a p below 0.05 the family does
 * not back (the row is shown `unchanged`) adds its q-value, lest the number read as a verdict the
 * heading contradicts. No p: nothing said of one grid point, `p = 1` as the lowest of several.
 */
function mcNemar(run: FlipsRun, name = 'McNemar'): string {
  const { pValue, qValue } = run.passRate;
  if (pValue === null) return name === 'McNemar' ? '' : `, ${name} ${formatP(1)}`;
  const q =
    withinFamilyNoise(run.passRate) && qValue !== null
      ? ` (q ${formatP(qValue).slice(2)} over every row)`
      : '';
  return `, ${name} ${formatP(pValue)}${q}`;
}
