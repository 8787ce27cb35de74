/**
 * A bench figure beside the limit it is held to. The table prints the figure rounded, and a
 * rounded figure must never seem to meet a limit the real one misses (3.95 printed as "4.0"
 * beside "≥ 4× less" and "NO"), nor the other way round.
 */

/** `at-most`: value ≤ bound; `below`: value < bound; `at-least`: value ≥ bound. */
export interface Limit {
  bound: number;
  keep: 'at-most' | 'below' | 'at-least';
}

export function meets(value: number, limit: Limit): boolean {
  switch (limit.keep) {
    case 'at-most':
      return value <= limit.bound;
    case 'below':
      return value < limit.bound;
    case 'at-least':
      return value >= limit.bound;
  }
}

/** How many digits past `digits` a figure may gain before it is rounded toward failing. */
const EXTRA_DIGITS = 2;

/**
 * `value` with `digits` decimals, or with more when those would round it across `limit`: the
 * figure shown meets the limit exactly when `value` does. A value so close to the bound that
 * even `digits + 2` decimals cross it is rounded toward failing (up for an upper bound, down
 * for a lower one), so the figure may read as missing by a hair but never as meeting it.
 */
export function fixedAgainst(value: number, digits: number, limit: Limit): string {
  const met = meets(value, limit);
  for (let d = digits; d <= digits + EXTRA_DIGITS; d++) {
    const shown = value.toFixed(d);
    if (meets(Number(shown), limit) === met) return shown;
  }
  const d = digits + EXTRA_DIGITS;
  const scale = 10 ** d;
  const towardFailing = limit.keep === 'at-least' ? Math.floor : Math.ceil;
  return (towardFailing(value * scale) / scale).toFixed(d);
}
