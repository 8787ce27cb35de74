/**
 * Numbers of a comparison row besides its changes (which shared/format-change.ts writes for every
 * report): a detectable change below half the last printed digit gets the decimals it needs, so
 * `could detect ±0.00` never stands for a real change; and p-values, worded so the number never
 * contradicts the row's label.
 */
import { visibleFixed } from '../shared/format-change.ts';

/** `±0.06`. */
export function plusMinus(value: number): string {
  return `±${visibleFixed(value, 2)}`;
}

/**
 * `p < 0.001`, `p = 0.034`, `p = 1`. Three decimals, except that a p-value under 0.05 never
 * prints as 0.05 (`0.0498`, `0.04996`: as many as it takes), so the number never contradicts
 * the label.
 */
export function formatP(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  if (p >= 0.9995) return 'p = 1';
  let decimals = 3;
  let text = p.toFixed(decimals);
  // Bounded: 17 decimals tell any double below 0.05 from 0.05.
  while (p < 0.05 && Number(text) >= 0.05 && decimals < 17) text = p.toFixed(++decimals);
  return `p = ${text}`;
}
