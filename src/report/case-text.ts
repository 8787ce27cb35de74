/**
 * How a case and its problems read in a listing: ids shortened with a visible `…` and kept
 * apart from each other, a readable label for cases whose id is a hash, long lines cut in the
 * middle (the end of an error message is its cause), and identical errors counted once.
 * Plain text in, plain text out; callers escape for their medium.
 */
import { textWidthUpTo, truncateToWidth } from '../shared/text-table.ts';
import type { CaseResult } from '../types/index.ts';
import { formatCount } from './labels.ts';

// A case's label is read by the comparison too (a removed case is named from BASE).
export { caseLabel } from '../shared/case-label.ts';

const ELLIPSIS = '\u2026';
/** Shortest prefix shown of a long id: 11 characters and the `…` take 12 columns. */
const MIN_PREFIX = 11;

/**
 * Each id shortened to the first characters that tell it apart from every other id in `ids`
 * (at least 11), with `…` when anything was cut. Two ids that share 30 characters both show 31.
 */
export function distinctShortIds(ids: readonly string[]): Map<string, string> {
  const unique = [...new Set(ids)].sort();
  const shown = new Map<string, string>();
  unique.forEach((id, index) => {
    // In sorted order the longest prefix an id shares is with a neighbour.
    const shared = Math.max(
      commonPrefix(id, unique[index - 1] ?? ''),
      commonPrefix(id, unique[index + 1] ?? ''),
    );
    const keep = Math.max(MIN_PREFIX, shared + 1);
    shown.set(id, id.length > keep + 1 ? `${id.slice(0, keep)}${ELLIPSIS}` : id);
  });
  return shown;
}

function commonPrefix(a: string, b: string): number {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  return at;
}

/** `3f9a1c2b7d4… "What is the capital of France?"` or `capitals-fr`: id and label, one line. */
export function caseName(shortId: string, label: string | null, labelWidth = 40): string {
  return label === null
    ? shortId
    : `${shortId} ${JSON.stringify(truncateToWidth(label, labelWidth))}`;
}

/**
 * `text` in at most `max` columns, cut in the middle: its start says where a message comes from
 * and its end says why (`judge call failed: POST http://… 401: Incorrect API key`), so the cut
 * keeps a third of the room for the start and the rest for the end.
 */
export function cutMiddle(text: string, max: number): string {
  if (textWidthUpTo(text, max) <= max) return text;
  if (max < 8) return truncateToWidth(text, max);
  const headRoom = Math.floor((max - 1) / 3);
  const tailRoom = max - 1 - headRoom;
  // A grapheme is at most a few code units; the ends looked at are bounded for huge texts.
  const head = truncateToWidth(text.slice(0, max * 8), headRoom + 1).replace(/\u2026$/, '');
  const tail = tailOfWidth(text.slice(-max * 8), tailRoom);
  return `${head}${ELLIPSIS}${tail}`;
}

/** Fewest columns {@link fitBeside} leaves a name: enough for `ab…yz` to read as a cut value. */
const MIN_FITTED = 12;

/**
 * `name` (a run's name: its suite and grid values) cut in its middle so that it fits, beside
 * `taken` columns of the line that stay whole (the verdict, `3 cases compared`), in `width`;
 * as it is when `width` is unknown (nothing to fit: a pipe with no `COLUMNS`). Never narrower
 * than a few columns, so a name always shows something of both its ends.
 */
export function fitBeside(name: string, taken: number, width: number | undefined): string {
  if (width === undefined) return name;
  return cutMiddle(name, Math.max(MIN_FITTED, width - taken));
}

/** The end of `text` that fits in `width` columns, whole characters only. */
export function tailOfWidth(text: string, width: number): string {
  const chars = Array.from(text);
  let start = chars.length;
  while (start > 0 && textWidthUpTo(chars.slice(start - 1).join(''), width) <= width) start--;
  return chars.slice(start).join('');
}

/** One message and how many times it was seen. */
export interface CountedMessage {
  message: string;
  count: number;
}

/** How many distinct messages a tally keeps; others are counted together. */
const MAX_DISTINCT = 50;

/**
 * Identical error messages counted once each (`30 × judge call failed: 401 …`), from the
 * function's error and every evaluator's, as cases finish. Keeps at most 50 distinct messages;
 * the rest only add to `others`, so a run of all-different errors holds a bounded amount.
 */
export class ErrorTally {
  #counts = new Map<string, number>();
  others = 0;

  /** Counts the errors of one finished case. */
  addCase(result: CaseResult): void {
    if (result.error !== null) this.add(`error: ${result.error}`);
    for (const evaluation of result.evaluations) {
      if (evaluation.error !== null)
        this.add(`${evaluation.evaluator}: error: ${evaluation.error}`);
    }
  }

  add(message: string): void {
    const oneLine = message.replace(/\s*\r?\n\s*/g, ' ⏎ ');
    const count = this.#counts.get(oneLine);
    if (count !== undefined) this.#counts.set(oneLine, count + 1);
    else if (this.#counts.size < MAX_DISTINCT) this.#counts.set(oneLine, 1);
    else this.others++;
  }

  /** The messages, most frequent first (ties in the order first seen). */
  counted(): CountedMessage[] {
    return [...this.#counts.entries()]
      .map(([message, count]) => ({ message, count }))
      .sort((a, b) => b.count - a.count);
  }
}

/** `30 × message` */
export function countedLine({ message, count }: CountedMessage): string {
  return `${formatCount(count)} \u00d7 ${message}`;
}
