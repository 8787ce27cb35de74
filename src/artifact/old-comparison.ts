/**
 * The `comparison` block as an evalgate before 2026-11-26 recorded it, within the same
 * `schemaVersion` 1: a bootstrap interval and an exact McNemar test per row, its settings
 * `{ confidence, iterations, seed, minPaired }`, and none of the family (Holm's correction over
 * every row), the sign-flip resamples or the detectable effects that the comparison has held
 * since. Its rows are not the rows of today's comparison, and cannot be made into them (their
 * tests differ), but the block is only a record: a reader shows the results without it, and a
 * baseline is compared afresh from its cases. So it is left out, and the reader says so (see
 * `unknownFieldsNote`), rather than refusing the whole file.
 */
import { isRecord } from '../shared/is-record.ts';
import { artifactProblems, type UnknownProperties } from './schema.ts';

/**
 * Deletes the `comparison` of `value` (a parsed results file, or its frame) when it has the
 * shape of one recorded before 2026-11-26 (settings with `iterations`, no `resamples`, no
 * `family`) and the file is valid without it (read as `mode` reads it); returns whether it did.
 * A file with other problems keeps it, so that every problem is said at once.
 */
export function dropOldComparison(value: unknown, mode: UnknownProperties): boolean {
  if (!isRecord(value) || !isOldComparison(value.comparison)) return false;
  const { comparison: _old, ...rest } = value;
  if (artifactProblems(rest, mode).problems.length > 0) return false;
  delete value.comparison;
  return true;
}

/** Whether `comparison` has the shape of one recorded before 2026-11-26 (see the module). */
function isOldComparison(comparison: unknown): boolean {
  if (!isRecord(comparison) || 'family' in comparison) return false;
  const settings = comparison.settings;
  return (
    isRecord(settings) &&
    typeof settings.iterations === 'number' &&
    !('resamples' in settings) &&
    Array.isArray(comparison.runs)
  );
}
