import { REDACTED } from './secrets.ts';

/** Where JSON text first goes wrong, as a string offset, and what was expected there. */
export interface JsonSyntaxError {
  offset: number;
  message: string;
  /** The text ends before its value does (a file cut off), rather than going wrong inside. */
  endsEarly?: true;
}

/**
 * Finds the first syntax error in text that `JSON.parse` rejected.
 *
 * `JSON.parse` messages are not a usable source of positions: for some mistakes V8 gives none
 * (a trailing comma is `Unexpected token ']', "[1,]" is not valid JSON` on Node 20 and 24), and
 * the wording differs between V8 versions. This small checker of the JSON grammar runs only on
 * the failure path, so its speed does not matter, and it gives the same position and message on
 * every Node version. Returns `null` when it finds nothing wrong (the caller then falls back to
 * whatever the engine's message says).
 *
 * `scrub` removes secrets from what a message quotes of the text: the token found there is
 * scrubbed whole before it is cut short (a cut piece of a secret is no longer recognised), while
 * the offset stays the one in `text` as given, which is the text the user has.
 */
export function locateJsonError(text: string, scrub?: Scrub): JsonSyntaxError | null {
  const n = text.length;
  /** Open containers, innermost last: `[` or `{`. */
  const stack: string[] = [];
  /** What may come next: a value, a property name, or a separator after a complete value. */
  let state: 'value' | 'first-value' | 'key' | 'first-key' | 'after' = 'value';
  let lastComma = -1;
  let i = 0;

  for (;;) {
    i = skipWhitespace(text, i);
    const top = stack[stack.length - 1];
    if (i >= n) {
      if (state === 'after' && top === undefined) return null;
      const what =
        top === undefined ? 'a JSON value' : top === '[' ? "the closing ']'" : "the closing '}'";
      return { offset: n, message: `unexpected end of file: expected ${what}`, endsEarly: true };
    }
    const c = text.charAt(i);

    if (state === 'after') {
      if (top === undefined) {
        return { offset: i, message: `unexpected ${found(text, i, scrub)} after the JSON value` };
      }
      const close = top === '[' ? ']' : '}';
      if (c === ',') {
        lastComma = i;
        state = top === '[' ? 'value' : 'key';
        i++;
      } else if (c === close) {
        stack.pop();
        i++;
      } else {
        const after = top === '[' ? 'an array element' : 'a property value';
        return {
          offset: i,
          message: `expected ',' or '${close}' after ${after}, found ${found(text, i, scrub)}`,
        };
      }
      continue;
    }

    if (state === 'key' || state === 'first-key') {
      if (c === '}') {
        if (state === 'first-key') {
          stack.pop();
          state = 'after';
          i++;
          continue;
        }
        return { offset: lastComma, message: "trailing comma: JSON allows no ',' before '}'" };
      }
      if (c !== '"') {
        return {
          offset: i,
          message: `expected a property name in double quotes, found ${found(text, i, scrub)}`,
        };
      }
      const end = scanString(text, i);
      if (typeof end !== 'number') return end;
      i = skipWhitespace(text, end);
      if (text.charAt(i) !== ':') {
        return {
          offset: i,
          message: `expected ':' after the property name, found ${found(text, i, scrub)}`,
        };
      }
      state = 'value';
      i++;
      continue;
    }

    // state is 'value' or 'first-value'
    if (c === ']' && top === '[') {
      if (state === 'first-value') {
        stack.pop();
        state = 'after';
        i++;
        continue;
      }
      return { offset: lastComma, message: "trailing comma: JSON allows no ',' before ']'" };
    }
    if (c === '[' || c === '{') {
      stack.push(c);
      state = c === '[' ? 'first-value' : 'first-key';
      i++;
      continue;
    }
    const end = scanScalar(text, i, scrub);
    if (typeof end !== 'number') return end;
    i = end;
    state = 'after';
  }
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const NUMBER_CONTINUES = /[0-9.eE+-]/;
const LITERALS = ['true', 'false', 'null'];

/** Scans a string, number or literal starting at `i`; returns the offset after it, or the error. */
function scanScalar(text: string, i: number, scrub?: Scrub): number | JsonSyntaxError {
  const c = text.charAt(i);
  if (c === '"') return scanString(text, i);
  if (c === '-' || (c >= '0' && c <= '9')) {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    const end = match && match[0] !== '-' ? i + match[0].length : i;
    if (end === i || NUMBER_CONTINUES.test(text.charAt(end))) {
      return { offset: i, message: `invalid number ${found(text, i, scrub)}` };
    }
    return end;
  }
  for (const literal of LITERALS) {
    if (text.startsWith(literal, i)) return i + literal.length;
  }
  const hint = c === "'" ? ' (JSON strings use double quotes)' : '';
  return { offset: i, message: `expected a value, found ${found(text, i, scrub)}${hint}` };
}

const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** Scans the string whose opening quote is at `start`; returns the offset after its closing quote. */
function scanString(text: string, start: number): number | JsonSyntaxError {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '"') return i + 1;
    if (c === '\\') {
      const next = text.charAt(i + 1);
      if (next === 'u') {
        if (!HEX4.test(text.slice(i + 2, i + 6))) {
          return { offset: i, message: 'invalid \\u escape: expected four hex digits' };
        }
        i += 5;
      } else if (ESCAPES.has(next)) {
        i++;
      } else {
        return { offset: i, message: `invalid escape ${JSON.stringify(`\\${next}`)} in a string` };
      }
    } else if (c.charCodeAt(0) < 0x20) {
      const what = c === '\n' || c === '\r' ? 'a line break' : 'a control character';
      return { offset: i, message: `${what} inside a string (write it as an escape such as \\n)` };
    }
  }
  return { offset: start, message: 'a string that starts here is never closed', endsEarly: true };
}

/** Removes secrets from a piece of text. */
export type Scrub = (text: string) => string;

/**
 * Whether characters `from` to `to` of `text` are part of a secret `scrub` removes: blanking them
 * leaves fewer secrets to remove. On the error path only, so two passes over the text are cheap.
 */
function revealsSecret(text: string, from: number, to: number, scrub: Scrub): boolean {
  const count = (t: string): number => t.split(REDACTED).length;
  const blanked = `${text.slice(0, from)}${'\u0000'.repeat(to - from)}${text.slice(to)}`;
  return count(scrub(blanked)) < count(scrub(text));
}

/** `'}'`, `"undefined"`, or `end of file`, for "found …" in messages. */
function found(text: string, i: number, scrub?: Scrub): string {
  if (i >= text.length) return 'end of file';
  if (scrub !== undefined) {
    // The whole token, up to what ends one, so that a secret in it is seen whole.
    const token = /[^\s,:[\]{}"]+/y;
    token.lastIndex = i;
    const whole = token.exec(text)?.[0];
    const clean = whole === undefined ? undefined : scrub(whole);
    if (clean !== undefined && clean !== whole) {
      return JSON.stringify(clean.length > 20 ? `${clean.slice(0, 20)}\u2026` : clean);
    }
  }
  const word = /[A-Za-z0-9_$.+-]+/y;
  word.lastIndex = i;
  const match = word.exec(text);
  if (match) {
    // The word may still be the middle or end of a secret that starts before it: a hex key
    // printed unquoted (`{"key": 9f8e7d…}`) is read as the number 9, and its error is at `f`.
    // That piece is no secret scrubbing recognises, so it is quoted as the secret it is part of.
    if (scrub !== undefined && revealsSecret(text, i, i + Math.min(match[0].length, 20), scrub)) {
      return JSON.stringify(REDACTED);
    }
    // A word that goes on from one begun before it (`9f8e…` read as 9, then `f8e…`) is quoted
    // by its first character only: a caller without `scrub` leaves scrubbing to the finished
    // message, which knows a secret's start (`sk-live…`) but not a piece from its middle.
    if (i > 0 && /[A-Za-z0-9_$.+-]/.test(text.charAt(i - 1))) {
      return `'${text.charAt(i)}'`;
    }
    // A word cut short, at 20 characters or where the token goes on with other characters
    // (`abc/def`, base64), ends with an ellipsis: it may be a key's start, which scrubbing knows.
    const after = text.charAt(i + match[0].length);
    const cut = match[0].length > 20 || (after !== '' && !/[\s,:[\]{}"]/.test(after));
    return JSON.stringify(cut ? `${match[0].slice(0, 20)}\u2026` : match[0]);
  }
  const c = text.charAt(i);
  if (c === "'") return `"'"`;
  // A byte order mark inside the text (files joined with `cat`) or a zero-width or no-break
  // space would print as nothing, or as a space: name it.
  if (c === '\uFEFF') return 'a byte order mark (U+FEFF, left where files were joined?)';
  if (/[\u00A0\u1680\u180E\u2000-\u200F\u2028\u2029\u202F\u205F\u2060\u3000]/.test(c)) {
    return `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}, an invisible or no-break space`;
  }
  // JSON.stringify shows control characters and quotes as escapes rather than raw.
  return `'${JSON.stringify(c).slice(1, -1)}'`;
}

/**
 * The position and message to report for text that `JSON.parse` rejected with `error`: the
 * checker's finding, else the engine's own `at position N` (the only structured detail its
 * messages carry), else the start of the text with the engine's message.
 */
export function explainJsonError(text: string, error: unknown, scrub?: Scrub): JsonSyntaxError {
  const located = locateJsonError(text, scrub);
  if (located) return located;
  const said = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(said);
  // V8 quotes a cut piece of the text (`Unexpected token 's', "{\"a\": sk-live-01"... is not valid JSON`):
  // left out, since it may hold a secret it cuts.
  const message = said.replace(/, ".*is not valid JSON$/s, ' (not valid JSON)');
  return { offset: position ? Number(position[1]) : 0, message };
}

/**
 * `line L, column C: what was expected, what was found` for text that `JSON.parse` rejected
 * with `error`, counted in the text as given (its first line is line 1), what it quotes of the
 * text passed through `scrub` (see {@link locateJsonError}).
 */
export function describeJsonError(text: string, error: unknown, scrub?: Scrub): string {
  const found = explainJsonError(text, error, scrub);
  const before = text.slice(0, found.offset);
  const line = (before.match(/\n/g)?.length ?? 0) + 1;
  const col = found.offset - (before.lastIndexOf('\n') + 1) + 1;
  return `line ${line}, column ${col}: ${found.message}`;
}
