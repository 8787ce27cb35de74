/**
 * Keeping evaluation metadata small: it lands in the results artifact, the PR comment and the
 * terminal for every failing case, so a 50 kB model output must not be copied into it whole.
 */
import { cutText } from '../shared/cut-text.ts';
import { formatCount } from '../shared/format-count.ts';
import { unencodableText } from './options.ts';

/** Longest string kept in metadata, in characters (code points, as every cut note counts). */
export const METADATA_STRING_LIMIT = 500;

/**
 * A judge's reason for its verdict: what a failed case is read for (the page and `evals show
 * --full` show it whole), so it is kept longer than other metadata strings.
 */
export const JUDGE_REASON_LIMIT = 2000;

/** Most list items kept in metadata (missing substrings, schema errors, …). */
export const METADATA_LIST_LIMIT = 20;

/**
 * `text` cut to `limit` characters, with a note of how many were dropped. The cut never splits a
 * surrogate pair: a lone surrogate would be mangled by JSON consumers.
 */
export function truncateText(text: string, limit = METADATA_STRING_LIMIT): string {
  const { start, left } = cutText(text, limit);
  if (left === 0) return text;
  return `${start}… (${formatCount(left)} more character${left === 1 ? '' : 's'})`;
}

/**
 * Cuts a text for metadata as {@link truncateText} does, its secrets removed first. `reshape`
 * (`oneLine`) runs between the scrub and the cut: a multi-line secret (a PEM key) put on one
 * line before the scrub would no longer be the text the scrub looks for.
 */
export type MetadataCut = (
  text: string,
  limit?: number,
  reshape?: (scrubbed: string) => string,
) => string;

/**
 * {@link truncateText} after `scrub` (a built-in's `context.scrub`): a text cut first would keep
 * a secret's first characters, too few for the scrub of the finished case to recognise.
 */
export function scrubbedCut(scrub: ((text: string) => string) | undefined): MetadataCut {
  return (text, limit, reshape) => {
    const clean = scrub === undefined ? text : scrub(text);
    return truncateText(reshape === undefined ? clean : reshape(clean), limit);
  };
}

/**
 * A value fit for metadata: short strings and small values as they are, long strings cut, and a
 * large object or array replaced by its cut JSON text (a string) so the size stays bounded.
 * `cut` cuts a text (a built-in's, from defineBuiltin, scrubs the run's secrets first: a cut
 * within a secret would keep its first characters).
 */
export function compactValue(value: unknown, cut: MetadataCut = truncateText): unknown {
  if (typeof value === 'string') return cut(value);
  // JSON has no undefined, NaN or BigInt: show them as text rather than lose them.
  if (value === undefined || typeof value === 'bigint') return String(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'symbol' || typeof value === 'function') return unencodableText(value);
  if (value === null || typeof value !== 'object') return value;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return unencodableText(value);
  return json.length <= METADATA_STRING_LIMIT ? value : cut(json);
}

/**
 * The first `limit` items of `items`, each compacted (by `cut`, as {@link compactValue}); when
 * some are left out, a last string item says how many (`"… 3 more"`), so the list keeps its shape
 * for readers.
 */
export function compactList(
  items: readonly unknown[],
  limit = METADATA_LIST_LIMIT,
  cut: MetadataCut = truncateText,
): unknown[] {
  const kept = items.slice(0, limit).map((item) => compactValue(item, cut));
  if (items.length > limit) kept.push(`… ${formatCount(items.length - limit)} more`);
  return kept;
}
