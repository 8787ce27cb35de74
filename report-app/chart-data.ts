/**
 * What the charts draw, from the report's model: no DOM and no Chart.js, so tests read it in
 * Node. A chart with nothing to draw is `null` and left out, never drawn empty.
 */
import type { ReportModel } from '../src/report/html-model.ts';
import { visible } from '../src/shared/bidi-visible.ts';

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

/** Characters on one line of a bar's name: Chart.js gives its axis at most half the chart. */
export const AXIS_LINE_CHARS = 24;
/** Lines of a bar's name at most; the last ends with `…` when the name needs more. */
export const AXIS_MAX_LINES = 4;

/**
 * A bar's name on the lines Chart.js draws it on (`string[]`), for each of `parts` (a run, then
 * what the bar measures) from a new line. Chart.js draws a name from its right end, so one wider
 * than the axis lost its start (which run it is) past the canvas's left edge. Lines break at
 * spaces, else after `-`, `/`, `_`, `,`, `=` or `.` in a long grid value, else anywhere. Past
 * `AXIS_MAX_LINES`, the first part is cut (`…`), never the last: two bars of one run (its pass
 * rate, an evaluator) must still read apart.
 */
export function axisLines(...parts: string[]): string[] {
  const wrapped = parts.map((part) => wrap(visible(part), AXIS_LINE_CHARS));
  if (wrapped.flat().length <= AXIS_MAX_LINES) return wrapped.flat();
  const [first = [], ...rest] = wrapped;
  const tail = cutLines(rest.flat(), AXIS_MAX_LINES - 1);
  return [...cutLines(first, AXIS_MAX_LINES - tail.length), ...tail];
}

/** `lines` cut to at most `max`, the last one kept ending with `…` when any were left out. */
function cutLines(lines: string[], max: number): string[] {
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  const last = Array.from(kept[max - 1] ?? '');
  while (last.length > 0 && columnsOf(last.join('')) > AXIS_LINE_CHARS - 1) last.pop();
  kept[max - 1] = `${last.join('')}…`;
  return kept;
}

/** Columns a text takes, roughly: CJK, emoji and other wide characters count two. */
function columnsOf(text: string): number {
  let columns = 0;
  for (const char of text) columns += (char.codePointAt(0) ?? 0) >= 0x1100 ? 2 : 1;
  return columns;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (columnsOf(joined) <= width) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(line);
    let rest = Array.from(word);
    while (columnsOf(rest.join('')) > width) {
      let fit = 0;
      while (fit < rest.length && columnsOf(rest.slice(0, fit + 1).join('')) <= width) fit++;
      const head = rest.slice(0, Math.max(1, fit));
      const at = Math.max(...['-', '/', '_', ',', '=', '.'].map((c) => head.lastIndexOf(c)));
      const cut = at > 0 ? at + 1 : head.length;
      lines.push(rest.slice(0, cut).join(''));
      rest = rest.slice(cut);
    }
    line = rest.join('');
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The height in pixels of a horizontal bar chart whose bars have names of `lines` lines each. */
export function barChartHeight(lines: readonly number[]): number {
  const rows = lines.reduce((sum, count) => sum + Math.max(26, 14 * count + 8), 0);
  return Math.max(160, rows + 60);
}
