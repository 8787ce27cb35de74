/**
 * What the charts draw, from the report's model: no DOM and no Chart.js, so tests read it in
 * Node. A chart with nothing to draw is `null` and left out, never drawn empty.
 */
import type { ReportModel } from '../src/report/html-model.ts';

/** Bins of the score distribution: 0.0–0.1 … 0.9–1.0. */
export const BINS = 10;

/** Each evaluator's cases per score bin, or `null` when no case of any run has a score. */
export function scoreBins(model: ReportModel): { labels: string[]; counts: number[][] } | null {
  if (model.evaluators.length === 0) return null;
  const counts = model.evaluators.map(() => new Array<number>(BINS).fill(0));
  let scored = 0;
  for (const view of model.cases) {
    view.scores.forEach((value, i) => {
      if (value === null) return;
      const bin = Math.min(BINS - 1, Math.floor(value * BINS));
      const row = counts[i];
      if (row !== undefined) row[bin] = (row[bin] ?? 0) + 1;
      scored++;
    });
  }
  if (scored === 0) return null;
  const labels = Array.from(
    { length: BINS },
    (_, i) => `${(i / BINS).toFixed(1)}–${((i + 1) / BINS).toFixed(1)}`,
  );
  return { labels, counts };
}

/**
 * Each run's pass rate in percent, `null` (no bar) for a run with no case, whose pass rate the
 * terminal and the tables show as `—`, not 0%; `null` for the whole chart when no run has one.
 */
export function passRatePercents(model: ReportModel): (number | null)[] | null {
  const rates = model.runs.map((run) => (run.passRate === null ? null : run.passRate * 100));
  return rates.some((rate) => rate !== null) ? rates : null;
}
