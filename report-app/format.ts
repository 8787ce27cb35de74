/**
 * How the page writes numbers: one function per kind, used everywhere on it, and for counts,
 * percentages and costs the very functions the terminal, markdown and the model's usage lines
 * use, so a figure reads the same on the page as in the PR comment. No DOM: tests read them in Node.
 */
import {
  formatCost,
  formatMean,
  formatPercent,
  formatSeconds,
} from '../src/shared/format-numbers.ts';
import { formatKappa, formatScoreChange, signed } from '../src/shared/format-change.ts';
import { formatCount } from '../src/shared/format-count.ts';

/** `1,234`: every count on the page (cases, runs, milliseconds, characters). */
export function count(n: number): string {
  return formatCount(n);
}

/** `1 run`, `2,000 runs`. */
export function plural(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/** `91.7%` (a rate below 1 never shows as 100.0%), or `—`. */
export function percent(rate: number | null): string {
  return rate === null ? '—' : formatPercent(rate);
}

/** `-6.7`: a change of a rate in percentage points, with the digits a small one needs. */
export function points(delta: number | null): string {
  return delta === null ? '—' : signed(delta * 100, 1);
}

/** `-6.7 pp`. */
export function pointsChange(delta: number | null): string {
  return delta === null ? '—' : `${points(delta)} pp`;
}

/**
 * A score with 3 decimals (more when 3 would show a mean below 1 as `1.000`, as the terminal
 * does), or `—`.
 */
export function score(value: number | null): string {
  return value === null ? '—' : formatMean(value);
}

/** A κ as the terminal and the PR comment write it: `0.812`, `-0.250`, or `—`. */
export function kappa(value: number | null): string {
  return value === null ? '—' : formatKappa(value);
}

/**
 * `+0.050`, `-0.700`, `0.000`: a change of a score or κ, with the digits a small one needs, as the
 * terminal and the PR comment write it.
 */
export function scoreChange(value: number | null): string {
  return value === null ? '—' : formatScoreChange(value);
}

/** `$0.0123`, `$1,234.50`; `unknown` when a model had no price, `—` without model calls. */
export function cost(dollars: number | null, calls: number): string {
  if (calls === 0) return '—';
  return dollars === null ? 'unknown' : formatCost(dollars);
}

/** `1,234.5 s`. */
export function seconds(ms: number): string {
  return formatSeconds(ms);
}

/** `1,234 ms`. */
export function milliseconds(ms: number): string {
  return `${count(Math.round(ms))} ms`;
}
