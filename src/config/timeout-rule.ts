/** The rule every time limit of the config follows, wherever it is written. */
import { parseDuration } from '../shared/duration.ts';
import type { ConfigPath } from './types.ts';

/** Durations are whole milliseconds (`parseDuration` rounds), so `0.0001ms` is a limit of 0. */
export function checkTimeout(
  value: unknown,
  path: ConfigPath,
  add: (code: string, path: ConfigPath, message: string) => void,
): void {
  if (typeof value !== 'string' || parseDuration(value) !== 0) return;
  const rounded = Number.parseFloat(value) === 0 ? '' : ' (it rounds to 0ms)';
  add(
    'duration.zero',
    path,
    `expected a duration of at least 1ms, found ${JSON.stringify(value)}${rounded}`,
  );
}
