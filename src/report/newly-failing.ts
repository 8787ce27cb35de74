/**
 * Whether a run's newly failing cases are news. With a noisy evaluator (an LLM judge re-asked)
 * some cases flip each way in every pull request, so a bold "Newly failing" list in nearly every
 * comparison that changed nothing taught reviewers to skip it (bench/stats-false-alarm.ts
 * measures how often). The cases are always listed; only the heading's emphasis and words follow
 * the statistics of the same grid point, and every form (text, markdown, the HTML page) reads
 * them from here.
 */
import { formatP } from './comparison-numbers.ts';
import { formatCount, plural } from './labels.ts';
import { shownLabel, withinFamilyNoise, type ShownLabel } from './shown-label.ts';
import type { RunComparison } from '../types/comparison.ts';

/** The parts of a run the reading looks at. */
type FlipsRun = Pick<RunComparison, 'passRate' | 'evaluators' | 'verdicts' | 'trialsAgreed'>;

/**
 * The newly failing cases of `run` are an alarm (bold, red, listed open) when the grid point's
 * pass rate, or one of its evaluators' scores, is shown as a regression or a possible one (what
 * makes a case fail moved for the worse, beyond the noise of every row compared); when its pass
 * rate has too few paired cases for any verdict (nothing can vouch that the flips are noise);
 * when the grid point passed its own gate in BASE and fails it in HEAD (a FAIL above a folded
 * "within the noise" list would contradict itself); and when every trial of every case agreed on
 * both sides (`trialsAgreed`: the suite answers the same each time, so a case that flips
 * changed, whatever the pass rate says). Otherwise, the pass rate `unchanged` or better, they
 * are flips within run-to-run noise and are listed without emphasis (`flipsAside` says why). A
 * judge's agreement κ is left out: it measures the judge against people, not whether cases pass.
 */
export function newlyFailingAlarm(run: FlipsRun): boolean {
  if (run.passRate.label === 'too few cases') return true;
  // The grid point passed its gate in BASE and fails it now: these cases are likely why.
  if (run.verdicts?.base === 'pass' && run.verdicts.head === 'fail') return true;
  // No trial ever disagreed with another: there is no run-to-run noise for a flip to be.
  if (run.trialsAgreed === true) return true;
  return [run.passRate, ...run.evaluators].some((row) => {
    const shown = shownLabel(row);
    return shown === 'regressed' || shown === 'possible regression';
  });
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
 * way, whether that is within the noise, and the pass rate's verdict with its McNemar p.
 * `4 fixed the other way, within the noise: pass rate unchanged, McNemar p = 0.740`;
 * `12 fixed the other way: pass rate improved, McNemar p = 0.002`;
 * `9 fixed the other way, within the noise: pass rate unchanged at each of the 3 grid points,
 * lowest McNemar p = 0.210`. '' when `runs` is empty or holds an alarm.
 */
export function flipsAside(runs: readonly FlipsRun[]): string {
  if (runs.length === 0 || runs.some(newlyFailingAlarm)) return '';
  const fixed = runs.reduce((sum, run) => sum + run.passRate.failToPass, 0);
  const labels = runs.map((run) => shownLabel(run.passRate));
  const noise = flipsWithinNoise(runs);
  const other = `${fixed === 0 ? 'none' : formatCount(fixed)} fixed the other way`;
  const verdict = noise ? `${other}, within the noise: pass rate` : `${other}: pass rate`;
  const [only] = runs;
  if (runs.length === 1 && only !== undefined) {
    return `${verdict} ${CALM_WORDS[shownLabel(only.passRate)] ?? ''}${mcNemar(only)}`;
  }
  if (noise) {
    // The grid point with the lowest p, its q after it as one grid point's (`mcNemar`).
    const lowest = runs.reduce((low, run) => (pOf(run) < pOf(low) ? run : low));
    return `${verdict} unchanged at each of the ${formatCount(runs.length)} grid points${mcNemar(lowest, 'lowest McNemar')}`;
  }
  const counts = new Map<string, number>();
  for (const label of labels) {
    const words = CALM_WORDS[label] ?? label;
    counts.set(words, (counts.get(words) ?? 0) + 1);
  }
  const parts = [...counts].map(([words, n]) => `${words} at ${plural(n, 'grid point')}`);
  return `${verdict} ${parts.join(', ')}`;
}

/**
 * Whether the newly failing cases of `runs` are within run-to-run noise: none is an alarm and
 * each pass rate is shown `unchanged` (not improved, which is news of its own).
 */
export function flipsWithinNoise(runs: readonly FlipsRun[]): boolean {
  return (
    runs.length > 0 &&
    runs.every((run) => !newlyFailingAlarm(run) && shownLabel(run.passRate) === 'unchanged')
  );
}

/**
 * What a folded list of newly failing cases that are no alarm is called in a summary line:
 * `newly failing within the noise`, or `newly failing, no regression` when a pass rate improved.
 */
export function calmFlipsName(runs: readonly FlipsRun[]): string {
  return flipsWithinNoise(runs) ? 'newly failing within the noise' : 'newly failing, no regression';
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
