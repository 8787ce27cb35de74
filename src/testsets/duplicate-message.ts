/**
 * The message of two rows claiming one case identity (`testset.duplicate-id`). The identity
 * itself is a sha256 for `hash:` fields and for content, which tells the user nothing: the
 * message names both rows where they are (`file:line`) and what made them one case, the values
 * of the `hash:` fields, the `__dedup_id__`, or what `testCaseHash` returned.
 */
import { canonicalJson } from '../shared/canonical-json.ts';
import { startOf } from '../shared/cut-text.ts';
import type { Scrub } from '../shared/json-syntax.ts';
import type { RowMeta } from '../types/index.ts';

/** How the testset identifies its rows: named fields, a hash function, or their content. */
export type IdentityBasis =
  { kind: 'content' } | { kind: 'fields'; names: readonly string[] } | { kind: 'function' };

/** One of the two rows: where it is (a column only for rows sharing a line), and what it holds. */
export interface ClashingRow {
  line: number;
  col: number;
  data: Record<string, unknown>;
  meta: RowMeta;
}

/** Characters of a hash field's value shown; a longer value is cut, ending in `…`. */
const VALUE_CHARS = 60;

/**
 * The message of `here`, whose identity `id` is that of the earlier row `first`, in the rows of
 * `file` (`null`: cases given in code, `runTestSuite`'s `testCases`, named by their index).
 * `scrub` removes the run's secrets from a field's value before it is cut short: a cut would
 * otherwise keep a secret's first characters, too few for a scrub after it to recognise.
 */
export function duplicateMessage(
  id: string,
  first: ClashingRow,
  here: ClashingRow,
  basis: IdentityBasis,
  file: string | null,
  scrub: Scrub = (text) => text,
): string {
  const rows =
    file === null
      ? `testCases[${first.line - 1}] and testCases[${here.line - 1}]`
      : `rows ${place(file, first)} and ${place(file, here)}`;
  const fix =
    file === null ? 'make the testCaseHash values unique' : 'make the hash: fields unique';
  // A dedup id is the row's own identity, whatever the testset's basis (see identityOf).
  const dedup = here.meta.dedupId;
  if (dedup !== undefined || first.meta.dedupId !== undefined) {
    return dedup !== undefined && first.meta.dedupId === dedup
      ? `duplicate case identity: ${rows} have the same __dedup_id__ ${JSON.stringify(dedup)} (make __dedup_id__ unique)`
      : `duplicate case identity: ${rows} have the same case identity ${JSON.stringify(id)}, one as its __dedup_id__ (make __dedup_id__ unique)`;
  }
  if (basis.kind === 'function') {
    return `duplicate case identity: testCaseHash returned ${JSON.stringify(id)} for ${rows} (${fix})`;
  }
  if (basis.kind === 'content') {
    return `duplicate case identity: ${rows} have the same data, with other tags or metadata (remove one, or give each its own __dedup_id__)`;
  }
  const fields = basis.names
    .filter((name) => shownValue(here.data[name], scrub) !== null)
    .map((name) => `${fieldName(name)} ${shownValue(here.data[name], scrub)!}`);
  const named = `${file === null ? 'testCaseHash' : 'hash:'} fields, ${listed(fields)}`;
  return file === null
    ? `duplicate case identity: ${rows} have the same ${named} (${fix})`
    : `duplicate case identity: ${rows} have the same ${named} (${fix}, or give each row its own __dedup_id__)`;
}

/** `file:line`, or `file:line:col` for a row that shares its line with another. */
function place(file: string, row: ClashingRow): string {
  return row.col > 0 ? `${file}:${row.line}:${row.col}` : `${file}:${row.line}`;
}

/**
 * A field's value as JSON (a string quoted), scrubbed, then cut; null for what the identity
 * leaves out.
 */
function shownValue(value: unknown, scrub: Scrub): string | null {
  // Functions and symbols (data given in code) are not part of the identity: JSON drops them.
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return null;
  const text = scrub(canonicalJson(value));
  const start = startOf(text, VALUE_CHARS);
  return start.length < text.length ? `${start}…` : text;
}

/** A field name as written in YAML or code: bare when it is a plain word, else quoted. */
function fieldName(name: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(name) ? name : JSON.stringify(name);
}

/** `a`, `a and b`, `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}
