/**
 * A reason too wide for its line, cut where it can lose least. A reason is framing words that
 * say what happened (`POST … answered 500:`, `expected …, got …`, `is-equals 0 (needs ≥ 1):`)
 * around values that can be long: quoted strings, URLs, the body of an HTTP answer. The framing
 * stays whole and each long value is cut in its middle, so both the start of the message and
 * what each value ends with stay in view. When even the framing does not fit, the end of the
 * line is cut, never its start. A reason with no value in it is cut in the middle: the start
 * says where an error comes from and its end why.
 */
import { textWidthUpTo, truncateToWidth } from '../shared/text-table.ts';
import { cutMiddle } from './case-text.ts';

/**
 * One piece of a reason: framing (kept whole) or a value (cut in its middle when long). A URL
 * is a value that takes its room first: it belongs to the start of the message.
 */
interface Piece {
  text: string;
  value: boolean;
  url?: boolean;
}

/** The narrowest a value is cut to: `"ab…yz"` and its quotes still read as a value. */
const MIN_VALUE = 8;

/** The narrowest a value is cut to when the line has no room for {@link MIN_VALUE}: `"…"`. */
const TINY_VALUE = 3;

/** The body of an HTTP answer: what follows `answered 500: ` to the end. */
const ANSWER_BODY = /\banswered \d{3}: /;

/** A JSON-quoted string (`JSON.stringify` of a value) or a URL. */
const VALUE = /"(?:[^"\\]|\\.)*"|\b[a-z][a-z0-9+.-]*:\/\/[^\s"]+/gi;

/** `text` split into framing and values, in order; empty pieces left out. */
export function reasonPieces(text: string): Piece[] {
  // An answer's body only where the message says so, not inside a quoted value.
  const found = ANSWER_BODY.exec(text);
  const body = found !== null && !text.slice(0, found.index).includes('"') ? found : null;
  const head = body === null ? text : text.slice(0, body.index + body[0].length);
  const pieces: Piece[] = [];
  let at = 0;
  for (const match of head.matchAll(VALUE)) {
    if (match.index > at) pieces.push({ text: head.slice(at, match.index), value: false });
    pieces.push({
      text: match[0],
      value: true,
      ...(match[0].startsWith('"') ? {} : { url: true }),
    });
    at = match.index + match[0].length;
  }
  if (at < head.length) pieces.push({ text: head.slice(at), value: false });
  if (body !== null && head.length < text.length) {
    pieces.push({ text: text.slice(head.length), value: true });
  }
  return pieces;
}

/**
 * `text` in at most `max` columns: framing whole, long values cut in their middle to share the
 * room left (short ones whole); the end cut when the framing and the values at their narrowest
 * do not fit. Without values, cut in the middle ({@link cutMiddle}).
 */
export function cutReason(text: string, max: number): string {
  if (textWidthUpTo(text, max) <= max) return text;
  const pieces = reasonPieces(text);
  const values = pieces.filter((piece) => piece.value);
  if (values.length === 0) return cutMiddle(text, max);
  const framing = pieces
    .filter((piece) => !piece.value)
    .reduce((sum, piece) => sum + textWidthUpTo(piece.text, max), 0);
  const widths = values.map((piece) => textWidthUpTo(piece.text, max));
  const narrowest = widths.reduce((sum, width) => sum + Math.min(width, MIN_VALUE), 0);
  const room = max - framing;
  // Too little room for every value at its narrowest: they share what there is, each at least
  // `"…"`, so `, got …` is not what the end cut takes; with less than that, the end is cut.
  const allotted =
    room >= narrowest
      ? allot(values, widths, room)
      : room >= TINY_VALUE * values.length
        ? shareRoom(widths, room, TINY_VALUE)
        : widths.map((width) => Math.min(width, MIN_VALUE));
  let index = 0;
  const cut = pieces
    .map((piece) => (piece.value ? cutValue(piece.text, allotted[index++]!) : piece.text))
    .join('');
  return truncateToWidth(cut, max);
}

/**
 * A value in `max` columns: cut in its middle ({@link cutMiddle}); narrower than
 * {@link MIN_VALUE}, a quoted value keeps its quotes around its first characters (`"an…"`).
 */
function cutValue(text: string, max: number): string {
  if (max >= MIN_VALUE || textWidthUpTo(text, max) <= max) return cutMiddle(text, max);
  const quoted = text.length >= 2 && text.startsWith('"') && text.endsWith('"');
  if (!quoted || max < TINY_VALUE) return truncateToWidth(text, max);
  return `"${truncateToWidth(text.slice(1, -1), max - 2)}"`;
}

/**
 * Columns for each value: URLs first, as much as leaves the other values their narrowest; then
 * the others share what is left.
 */
function allot(values: readonly Piece[], widths: readonly number[], room: number): number[] {
  const urls = values.map((piece) => piece.url === true);
  const othersNarrowest = widths.reduce(
    (sum, width, index) => sum + (urls[index] ? 0 : Math.min(width, MIN_VALUE)),
    0,
  );
  const first = shareRoom(
    widths.map((width, index) => (urls[index] ? width : 0)),
    room - othersNarrowest,
  );
  const used = first.reduce((sum, width) => sum + width, 0);
  const rest = shareRoom(
    widths.map((width, index) => (urls[index] ? 0 : width)),
    room - used,
  );
  return widths.map((_, index) => (urls[index] ? first[index]! : rest[index]!));
}

/**
 * Columns for each value: the narrow ones take what they need, the wide ones share the rest
 * equally (each at least its narrowest).
 */
function shareRoom(widths: readonly number[], room: number, narrowest = MIN_VALUE): number[] {
  const order = widths.map((_, index) => index).sort((a, b) => widths[a]! - widths[b]!);
  const allotted = widths.map(() => 0);
  let left = room;
  order.forEach((index, rank) => {
    const share = Math.floor(left / (order.length - rank));
    const width = widths[index]!;
    const given = Math.min(width, Math.max(share, Math.min(width, narrowest)));
    allotted[index] = given;
    left -= given;
  });
  return allotted;
}
