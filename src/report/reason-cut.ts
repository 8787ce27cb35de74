/**
 * A reason too wide for its line, cut where it can lose least. A reason is framing words that
 * say what happened (`POST … failed (ECONNREFUSED):`, `expected …, got …`, `the judge chose`)
 * around values that can be long: quoted strings, URLs, the body of an HTTP answer. The framing
 * stays whole, so the error's cause does; a URL keeps its host and port, a short quoted value
 * stays whole and a long one keeps its start, so no word is cut in its middle. When even that
 * does not fit, whole trailing parts are left out and counted; only then is the end cut. A
 * reason with no value in it is cut in the middle: the start says where an error comes from and
 * its end why.
 */
import { textWidth, textWidthUpTo, truncateToWidth } from '../shared/text-table.ts';
import { cutMiddle, tailOfWidth } from './case-text.ts';

/**
 * One piece of a reason: framing (kept whole) or a value (cut when long). A URL is a value
 * that takes its room last: the cause after it matters more ({@link cutReason}).
 */
interface Piece {
  text: string;
  value: boolean;
  url?: boolean;
}

/** The narrowest an answer's body is cut to: `ab…yz` still reads as a value. */
const MIN_VALUE = 8;

/** The widest a quoted value is that is never cut: a label, an id, a word (`"partially_correct"`). */
const SHORT_QUOTED = 24;

/** The narrowest a long quoted value is cut to: its quotes around its first words. */
const MIN_QUOTED = 8;

/** The note an evaluator ends a value it cut with: `… (29,500 more characters)`. */
const CUT_NOTE = /\u2026 \([\d,]+ more characters?\)$/;

/** The narrowest any quoted value is cut to when nothing else fits: `"a…"`. */
const TIGHT_QUOTED = 4;

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
 * `text` in at most `max` columns. A reason without values is cut in its middle
 * ({@link cutMiddle}). Else the framing stays whole (after a URL it is the error's cause:
 * `POST <url> failed (ECONNREFUSED): …`) and each value keeps at least its narrowest form: a
 * URL its method's host and port (`127.0.0.1:8787…`, its path cut first, then its scheme), a
 * short quoted value (`"partially_correct"`) whole, a long one its start (`"The capital of…"`).
 * The values share the room left over that. When even the narrowest forms do not fit, whole
 * trailing parts (after `; ` or `, `) are left out and counted (`(+2 more)`), and only when
 * that is not enough is the end cut, at a word when it can be.
 */
export function cutReason(text: string, max: number): string {
  if (textWidthUpTo(text, max) <= max) return text;
  const pieces = reasonPieces(text);
  if (!pieces.some((piece) => piece.value)) return cutMiddle(text, max);
  return fitPieces(pieces, max) ?? dropParts(pieces, max);
}

/** The `(+2 more)` that counts the trailing parts left out. */
function moreMark(count: number): string {
  return ` (+${count} more)`;
}

/** {@link fitPieces} of the fewest whole trailing parts left out, or the end cut at a word. */
function dropParts(pieces: readonly Piece[], max: number): string {
  const ends = partEnds(pieces);
  // The part that holds the first value (the last URL) is kept: without it nothing is said.
  const lastUrl = pieces.findLastIndex((piece) => piece.url === true);
  const keep = lastUrl >= 0 ? lastUrl : pieces.findIndex((piece) => piece.value);
  const candidates = ends.filter((end) => end.piece > keep).reverse();
  for (const end of candidates) {
    const dropped = ends.length - ends.indexOf(end);
    const head = [...pieces.slice(0, end.piece), { text: end.before, value: false }];
    const mark = moreMark(dropped);
    const fitted = fitPieces(head, max - textWidth(mark));
    if (fitted !== null) return `${fitted}${mark}`;
  }
  // Not even the first part fits: every quoted value cut at its end, short ones too, so that
  // `expected "an…", got "an…"` keeps both; failing that, the end is cut, at a word if it can be.
  const tight = fitPieces(pieces, max, true);
  if (tight !== null) return tight;
  const narrowest = pieces.map((piece) => (piece.value ? narrowForm(piece) : piece.text)).join('');
  return cutAtWord(narrowest, max);
}

/** Where a reason can lose its end: before a `; ` or `, ` of its framing, outside brackets. */
interface PartEnd {
  /** The framing piece the part ends in. */
  piece: number;
  /** That piece's text before the separator. */
  before: string;
}

function partEnds(pieces: readonly Piece[]): PartEnd[] {
  const ends: PartEnd[] = [];
  let depth = 0;
  pieces.forEach((piece, index) => {
    if (piece.value) return;
    // Bounded by the piece's length.
    for (let at = 0; at < piece.text.length; at++) {
      const char = piece.text[at]!;
      if (char === '(' || char === '[') depth++;
      else if ((char === ')' || char === ']') && depth > 0) depth--;
      else if (depth === 0 && (char === ';' || char === ',') && piece.text[at + 1] === ' ') {
        ends.push({ piece: index, before: piece.text.slice(0, at) });
      }
    }
  });
  return ends;
}

/** `text` cut at its end to `max` columns, after its last whole word when that keeps most of it. */
function cutAtWord(text: string, max: number): string {
  const cut = truncateToWidth(text, max);
  if (cut === text) return cut;
  const kept = cut.slice(0, -1);
  // A cut that falls just before a space already ends after a whole word.
  const space = text.startsWith(`${kept} `) ? kept.length : kept.lastIndexOf(' ');
  if (space <= kept.length / 2) return cut;
  // The separator or `…` the last whole word ends with goes too: `chose "a",…` reads as a cut.
  return `${kept.slice(0, space).replace(/[\s,;:\u2026]+$/, '')}\u2026`;
}

/** The narrowest a quoted value is shown: whole when short, else its start. */
function narrowForm(piece: Piece): string {
  return cutPiece(piece, narrowWidth(piece));
}

/**
 * The fewest columns a value is cut to (its whole width when it is never cut); `tight`, a
 * quoted value however short is cut to its first characters (`"an…"`).
 */
function narrowWidth(piece: Piece, tight = false): number {
  const width = textWidth(piece.text);
  if (piece.url === true) return Math.min(width, textWidth(urlHost(piece.text)) + 1);
  if (isQuoted(piece.text)) {
    if (tight) return Math.min(width, TIGHT_QUOTED);
    return width <= SHORT_QUOTED ? width : MIN_QUOTED;
  }
  return Math.min(width, MIN_VALUE);
}

/** A value in `max` columns, no fewer than {@link narrowWidth}. */
function cutPiece(piece: Piece, max: number, tight = false): string {
  return piece.url === true ? cutUrl(piece.text, max) : cutValue(piece.text, max, tight);
}

/**
 * The pieces in `max` columns, framing whole and each value at least its narrowest; null when
 * even that does not fit. Values other than URLs are whole when that leaves each URL its
 * narrowest, and the URLs share what is left; else every value shares the room.
 */
function fitPieces(pieces: readonly Piece[], max: number, tight = false): string | null {
  const framing = pieces
    .filter((piece) => !piece.value)
    .reduce((sum, piece) => sum + textWidth(piece.text), 0);
  const values = pieces.filter((piece) => piece.value);
  const room = max - framing;
  const narrowest = values.map((piece) => narrowWidth(piece, tight));
  if (narrowest.reduce((sum, width) => sum + width, 0) > room) return null;
  const widths = values.map((piece) => textWidthUpTo(piece.text, max));
  const isUrl = values.map((piece) => piece.url === true);
  const sumOf = (list: readonly number[], urls: boolean): number =>
    list.reduce((sum, width, index) => sum + (isUrl[index] === urls ? width : 0), 0);
  // The values other than URLs whole when that leaves each URL its narrowest; else every value
  // shares the room, and what a URL's cut leaves unused goes to the others.
  const allotted =
    sumOf(widths, false) + sumOf(narrowest, true) <= room
      ? widths.map((width, index) => (isUrl[index] ? 0 : width))
      : shareRoom(widths, room, narrowest);
  const urls = shareRoom(
    widths.map((width, index) => (isUrl[index] ? width : 0)),
    room - sumOf(allotted, false),
    narrowest,
  );
  const shownUrls = values.map((piece, index) =>
    isUrl[index] ? cutPiece(piece, urls[index]!) : '',
  );
  const urlsUsed = shownUrls.reduce((sum, shown) => sum + textWidth(shown), 0);
  const others = shareRoom(
    widths.map((width, index) => (isUrl[index] ? 0 : width)),
    room - urlsUsed,
    narrowest,
  );
  const shownOthers = values.map((piece, index) =>
    isUrl[index] ? shownUrls[index]! : cutPiece(piece, others[index]!, tight),
  );
  let index = 0;
  const shown = pieces.map((piece) => {
    if (!piece.value) return piece.text;
    return shownOthers[index++]!;
  });
  return truncateToWidth(shown.join(''), max);
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
 * A URL in `max` columns, the server it names kept whole: whole; its origin, `…` and the end of
 * its path (`https://api.openai.com…/completions`); its origin and `…`; its host and port and `…`
 * (`127.0.0.1:8787…`), even when that is wider than `max` (the caller leaves it that room).
 */
export function cutUrl(url: string, max: number): string {
  if (textWidthUpTo(url, max) <= max) return url;
  const origin = urlOrigin(url);
  const tailRoom = max - textWidth(origin) - 1;
  if (tailRoom >= MIN_URL_TAIL) {
    return `${origin}\u2026${tailOfWidth(url.slice(origin.length), tailRoom)}`;
  }
  if (tailRoom >= 0) return `${origin}\u2026`;
  return `${urlHost(url)}\u2026`;
}

/** A JSON-quoted value: cut at its end, and never when short. */
function isQuoted(text: string): boolean {
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"');
}

/**
 * A value in `max` columns: a quoted one keeps its start and its quotes (`"The capital of…"`),
 * whole when at most {@link SHORT_QUOTED} columns (a word cut in its middle, `"pa…orrect"`, reads
 * as another word); an answer's body is cut in its middle ({@link cutMiddle}): its end is often
 * the cause.
 */
function cutValue(text: string, max: number, tight = false): string {
  if (textWidthUpTo(text, max) <= max) return text;
  if (!isQuoted(text)) return cutMiddle(text, max);
  if (!tight && textWidth(text) <= SHORT_QUOTED) return text;
  const least = tight ? TIGHT_QUOTED : MIN_QUOTED;
  const inner = text.slice(1, -1);
  // A value its evaluator already cut keeps the note that says how much it left out.
  const note = CUT_NOTE.exec(inner)?.[0];
  const room = Math.max(max, least) - 2;
  if (note !== undefined && room - textWidth(note) >= TIGHT_QUOTED) {
    const start = inner.slice(0, inner.length - note.length);
    const kept = truncateToWidth(start, room - textWidth(note) + 1).replace(/\u2026$/, '');
    return `"${kept}${note}"`;
  }
  return `"${truncateToWidth(inner, room)}"`;
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
