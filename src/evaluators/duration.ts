import { parseDuration } from '../shared/duration.ts';

/**
 * A duration option of a built-in (`latency`'s `max`): the config's duration forms (`500ms`,
 * `2s`, `1m`), or a plain number of milliseconds, because a templated value from a CSV cell
 * arrives as bare digits.
 */
export function durationMs(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  return parseDuration(text);
}
