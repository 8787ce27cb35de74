/**
 * Integers in JSON text that a JSON number (a double) cannot hold: past 2^53, `JSON.parse` reads
 * `12345678901234567891` as 12345678901234567000, silently. An id of that size in an answer then
 * compares unequal to the same id in the testset (a CSV cell keeps its digits), and a template
 * puts other digits into a prompt. Outputs stay JSON numbers, as every JSON reader in JavaScript
 * gives them; the run warns once per target, naming the number and what it became, and each
 * case whose output holds one says so in its result (`warnings`).
 */

/** Numbers found in one text, at most this many (the first few say enough). */
const MAX_FOUND = 3;

/** A plain integer token (no fraction, no exponent) too long to be a safe integer for sure. */
const LONG_INTEGER = /^-?\d{16,}$/;

/** A number token where one starts. */
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The integer tokens of `text` (JSON that parsed) whose value `JSON.parse` rounds, each with
 * the number it is read as: `[["12345678901234567891", "12345678901234567000"]]`. Strings are
 * skipped; a fraction or exponent is read as the double it is written as, and not listed.
 */
export function roundedIntegers(text: string): [written: string, read: string][] {
  const found: [string, string][] = [];
  let at = 0;
  while (at < text.length && found.length < MAX_FOUND) {
    const char = text.charCodeAt(at);
    if (char === 0x22) {
      at = stringEnd(text, at + 1);
      continue;
    }
    if (char === 0x2d || (char >= 0x30 && char <= 0x39)) {
      NUMBER.lastIndex = at;
      const token = NUMBER.exec(text)?.[0] ?? text[at]!;
      if (LONG_INTEGER.test(token)) {
        const read = Number(token);
        // Past the largest double it is read as Infinity, which BigInt() refuses.
        if (!Number.isFinite(read) || BigInt(token) !== BigInt(read)) {
          found.push([token, String(read)]);
        }
      }
      at += token.length;
      continue;
    }
    at++;
  }
  return found;
}

/** The index just past the string whose text starts at `from` (after its opening quote). */
function stringEnd(text: string, from: number): number {
  for (let at = from; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === 0x5c) at++;
    else if (char === 0x22) return at + 1;
  }
  return text.length;
}

/** The longest integer a warning quotes whole (a 64-bit id has 20 digits). */
const MAX_QUOTED_DIGITS = 40;

/**
 * A check of each JSON text a target reads. Each text that holds a rounded integer gets a note
 * for its own case (the first such integer, as written and as read: a user looking at a failing
 * case sees why its number differs), and the first one in the suite is also warned about through
 * `warn` (once per target: the next cases would say the same on stderr).
 */
export function roundedIntegerNotes(
  warn: ((message: string) => void) | undefined,
  what: string,
  /** What the note says holds it: `the answer` when the output is one field of it. */
  holder = 'the output',
): (text: string) => string | undefined {
  let warned = warn === undefined;
  return (text) => {
    if (!/\d{16}/.test(text)) return undefined;
    const first = roundedIntegers(text)[0];
    if (first === undefined) return undefined;
    // A long one is named by its length, not quoted: a 100k-digit number would fill the terminal,
    // and a cut before the warning is scrubbed could keep the start of a secret made of digits.
    const integer =
      first[0].length <= MAX_QUOTED_DIGITS
        ? `${first[0]}, an integer`
        : `an integer of ${first[0].length.toLocaleString('en-US')} characters,`;
    const rounded = `${integer} past 2^53 that a JSON number cannot hold: it is read as ${first[1]}, so it compares and prints as that`;
    const advice = 'to compare such ids digit for digit, have them sent as JSON strings';
    if (!warned) {
      warned = true;
      warn?.(
        `${what} holds ${rounded} (later outputs are not warned about here; each case's result notes its own, see evals show); ${advice}`,
      );
    }
    return `${holder} holds ${rounded}; ${advice}`;
  };
}

/** `output` with `note` (if any) among its warnings, for the case's result. */
export function withNote<T extends { warnings?: string[] }>(
  output: T,
  note: string | undefined,
): T {
  return note === undefined ? output : { ...output, warnings: [...(output.warnings ?? []), note] };
}
