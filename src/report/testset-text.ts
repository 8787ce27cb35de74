/**
 * How the `evals testset` renderers show user text and measure it: one line, control characters
 * written out, values as compact JSON, revisions at a fixed length.
 */
import { textWidthUpTo, printable } from '../shared/text-table.ts';

/** Characters of a revision shown (and of a hash-like case id). */
export const REVISION_LENGTH = 12;

/**
 * The widest of `texts`, 0 for none; `limit + 1` when one is wider than `limit` (see
 * `textWidthUpTo`). A loop: spreading 100,000 rows into Math.max overflows.
 */
export function widest(texts: readonly string[], limit = Infinity): number {
  let width = 0;
  for (const text of texts) width = Math.max(width, textWidthUpTo(text, limit));
  return width;
}

/**
 * Compact JSON for display, keys in the row's own order. Never throws: a value JSON cannot
 * write (a bigint from code) is shown as its text.
 */
export function compactJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  return printable(text ?? String(value));
}

/**
 * Whether a case id is a hash (a sha256 of the content, or of `hash:` fields) rather than a
 * dedup id a user wrote: shown as its first `REVISION_LENGTH` hex digits. Only the whole 64 hex
 * digits count: a dedup id may well be a long number or hex word (`2024010100001`).
 */
export function isHashId(id: string): boolean {
  return /^[0-9a-f]{64}$/.test(id);
}
