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
 * prints as `0.050` (it shows four), so the number never contradicts the label.
 */
export function formatP(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  if (p >= 0.9995) return 'p = 1';
  const text = p.toFixed(3);
  return `p = ${p < 0.05 && text === '0.050' ? p.toFixed(4) : text}`;
}
