/**
 * A reason too wide for its line, cut where it can lose least. A reason is framing words that
 * say what happened (`POST … answered 500:`, `expected …, got …`, `is-equals 0 (needs ≥ 1):`)
 * around values that can be long: quoted strings, URLs, the body of an HTTP answer. The framing
 * stays whole and each long value is cut in its middle, so both the start of the message and
 * what each value ends with stay in view. When even the framing does not fit, the end of the
 * line is cut, never its start. A reason with no value in it is cut in the middle: the start
 * says where an error comes from and its end why.
 */
import { textWidth, textWidthUpTo, truncateToWidth } from '../shared/text-table.ts';
import { cutMiddle, tailOfWidth } from './case-text.ts';

/**
 * One piece of a reason: framing (kept whole) or a value (cut in its middle when long). A URL
 * is a value that takes its room last: the cause after it matters more ({@link cutReason}).
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
 *
 * A reason with a URL in it is an error about a request, and what follows the URL is its cause
 * (`POST <url> failed: 401: Incorrect API key provided`), which tells the user what to fix: the
 * cause is kept whole when it fits, the URL getting only the room left, shortened to its origin
 * or host ({@link cutUrl}); when even the URL's `…` leaves too little room, the start is cut
 * short before the cause, and only a cause too wide for the line is cut (in its middle).
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
  const urls = values.map((piece) => piece.url === true);
  const room = max - framing;
  const cuts = urls.some(Boolean)
    ? cutAroundUrls(values, widths, room)
    : cutValues(values, widths, room);
  let index = 0;
  const shown = pieces.map((piece) => (piece.value ? cuts[index++]! : piece.text));
  if (!urls.some(Boolean)) return truncateToWidth(shown.join(''), max);
  // What follows the last URL is the cause: whole when it leaves the start a few columns.
  const last = pieces.findLastIndex((piece) => piece.url === true);
  const cause = shown.slice(last + 1).join('');
  const headRoom = max - textWidth(cause);
  return headRoom >= MIN_HEAD
    ? `${truncateToWidth(shown.slice(0, last + 1).join(''), headRoom)}${cause}`
    : cutMiddle(shown.join(''), max);
}

/** The fewest columns of a reason's start kept before its cause (`POS…`): fewer, a middle cut. */
const MIN_HEAD = 4;

/** Each value cut to share `room`, at least its narrowest; with less room, at least `"…"`. */
function cutValues(values: readonly Piece[], widths: readonly number[], room: number): string[] {
  const narrowest = widths.reduce((sum, width) => sum + Math.min(width, MIN_VALUE), 0);
  // Too little room for every value at its narrowest: they share what there is, each at least
  // `"…"`, so `, got …` is not what the end cut takes; with less than that, the end is cut.
  const allotted =
    room >= narrowest
      ? shareRoom(widths, room)
      : room >= TINY_VALUE * values.length
        ? shareRoom(widths, room, TINY_VALUE)
        : widths.map((width) => Math.min(width, MIN_VALUE));
  return values.map((piece, index) => cutValue(piece.text, allotted[index]!));
}

/**
 * Values of a reason holding URLs, cut so that the cause survives: when every other value fits
 * whole, the URLs share what is left; else every value shares the room (a URL at least its host),
 * and what a URL's cut leaves unused goes to the others.
 */
function cutAroundUrls(
  values: readonly Piece[],
  widths: readonly number[],
  room: number,
): string[] {
  const isUrl = values.map((piece) => piece.url === true);
  const urlCount = isUrl.filter(Boolean).length;
  const othersWhole = widths.reduce((sum, width, index) => sum + (isUrl[index] ? 0 : width), 0);
  // The other values whole when that leaves each URL at least `…`; else every value shares the
  // room, a URL at least its host, when their narrowest fit; else the URLs are `…`.
  const narrowest = values.map((piece, index) =>
    isUrl[index]
      ? Math.min(widths[index]!, textWidth(urlHost(piece.text)) + 1)
      : Math.min(widths[index]!, MIN_VALUE),
  );
  const shared =
    room - othersWhole < urlCount && narrowest.reduce((sum, width) => sum + width, 0) <= room;
  const allotted = shared
    ? shareRoom(widths, room, narrowest)
    : widths.map((width, index) => (isUrl[index] ? 0 : width));
  const urlRoom =
    room - allotted.reduce((sum, width, index) => sum + (isUrl[index] ? 0 : width), 0);
  const urlShares = shareRoom(
    widths.map((width, index) => (isUrl[index] ? width : 0)),
    Math.max(urlRoom, urlCount),
    1,
  );
  const cutUrls = values.map((piece, index) =>
    isUrl[index] ? cutUrl(piece.text, urlShares[index]!) : '',
  );
  const urlsUsed = cutUrls.reduce((sum, cut) => sum + textWidth(cut), 0);
  const others = shareRoom(
    widths.map((width, index) => (isUrl[index] ? 0 : width)),
    room - urlsUsed,
    values.map(() => TINY_VALUE),
  );
  return values.map((piece, index) =>
    isUrl[index] ? cutUrls[index]! : cutValue(piece.text, others[index]!),
  );
}

/** The origin of a URL (`https://api.example.com:8443`), or the whole text if it has none. */
function urlOrigin(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? url;
}

/** The host (and port) of a URL: its origin without the scheme. */
function urlHost(url: string): string {
  return urlOrigin(url).replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
}

/** The fewest columns of a URL's path kept after its origin: fewer read as noise. */
const MIN_URL_TAIL = 4;

/**
 * A URL in `max` columns, the server it names kept as long as there is room: whole; its origin,
 * `…` and the end of its path (`https://api.openai.com…/completions`); its origin or host and
 * `…`; its host cut at its end (`api.op…`); `…`.
 */
export function cutUrl(url: string, max: number): string {
  if (textWidthUpTo(url, max) <= max) return url;
  const origin = urlOrigin(url);
  const host = urlHost(url);
  const tailRoom = max - textWidth(origin) - 1;
  if (tailRoom >= MIN_URL_TAIL) {
    return `${origin}\u2026${tailOfWidth(url.slice(origin.length), tailRoom)}`;
  }
  if (tailRoom >= 0) return `${origin}\u2026`;
  return truncateToWidth(`${host}\u2026`, max);
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
 * Columns for each value: the narrow ones take what they need, the wide ones share the rest
 * equally (each at least its narrowest, one number for all or one per value).
 */
function shareRoom(
  widths: readonly number[],
  room: number,
  narrowest: number | readonly number[] = MIN_VALUE,
): number[] {
  const least = (index: number): number =>
    typeof narrowest === 'number' ? narrowest : narrowest[index]!;
  const order = widths.map((_, index) => index).sort((a, b) => widths[a]! - widths[b]!);
  const allotted = widths.map(() => 0);
  let left = room;
  order.forEach((index, rank) => {
    const share = Math.floor(left / (order.length - rank));
    const width = widths[index]!;
    const given = Math.min(width, Math.max(share, Math.min(width, least(index))));
    allotted[index] = given;
    left -= given;
  });
  return allotted;
}
