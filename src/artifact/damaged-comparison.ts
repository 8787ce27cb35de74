/**
 * A results file whose `comparison` block alone is damaged (a field of the wrong type, one
 * missing): `--resume` makes the comparison again over every case, so such a block is no reason
 * to refuse the partial; it is left out, and the problems it had are said.
 */
import { isRecord } from '../shared/is-record.ts';
import {
  artifactProblems,
  isExactlyValid,
  listProblems,
  problemText,
  type UnknownProperties,
} from './schema.ts';

/**
 * Deletes the `comparison` of `value` (a parsed results file) when the file is valid without it
 * (read as `mode` reads it) and not with it; returns its problems then, else undefined.
 */
export function dropDamagedComparison(value: unknown, mode: UnknownProperties): string | undefined {
  if (!isRecord(value) || value.comparison === undefined || isExactlyValid('results', value)) {
    return undefined;
  }
  const { comparison: _dropped, ...rest } = value;
  if (artifactProblems(rest, mode).problems.length > 0) return undefined;
  const found = artifactProblems(value, mode);
  delete value.comparison;
  return listProblems({ problems: found.problems.map(problemText), all: found.all });
}
