/**
 * Numbers in JSON text that `JSON.parse` cannot keep. It reads every number as a double and says
 * nothing when that changes it: an id `12345678901234567890` becomes `12345678901234567000`,
 * `1e400` becomes `Infinity` (which the results then record as `null`) and `1e-400` becomes `0`.
 * A case must score the data its file holds, so the readers refuse such numbers with this scan.
 * A decimal rounded to its nearest double (`0.1`) is what JSON means by a number and passes.
 */
import { stringEnd } from './json-keys.ts';

/** A number `JSON.parse` would change: its offset in the text, its text and what it reads as. */
export interface InexactNumber {
  offset: number;
  text: string;
  read: number;
}

/**
 * Only a run of 16 digits or more, or an exponent of three digits or more, can make a number
 * that a double does not keep: text without either (nearly every file) is not scanned.
 */
const MAY_BE_INEXACT = /\d{16}|[eE][+-]?\d{3}/;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Every number of `text`, which `JSON.parse` has accepted, that it would read as another. */
export function inexactJsonNumbers(text: string): InexactNumber[] {
  if (!MAY_BE_INEXACT.test(text)) return [];
  const found: InexactNumber[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = stringEnd(text, i);
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(text)?.[0] ?? text.charAt(i);
      const read = Number(token);
      if (!keeps(token, read)) found.push({ offset: i, text: token, read });
      i += token.length - 1;
    }
  }
  return found;
}

/** Whether `read`, the double of the number written `token`, is that number (or its nearest). */
function keeps(token: string, read: number): boolean {
  if (!Number.isFinite(read)) return false;
  if (read === 0) return !/[1-9]/.test(token.replace(/[eE].*/, ''));
  if (Number.isSafeInteger(read) || /[.eE]/.test(token)) return true;
  return BigInt(token) === BigInt(read);
}

/** YAML's own infinity and not-a-number (`.inf`, `-.Inf`, `.NaN`), which no JSON text writes. */
const SPECIAL_NUMBER = /^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/;

/** The message for such a number. */
export function inexactNumberMessage({ text, read }: InexactNumber): string {
  const shown = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  const what = SPECIAL_NUMBER.test(text)
    ? "is YAML's infinity or not-a-number, which JSON cannot hold: the results would record it as null"
    : !Number.isFinite(read)
      ? 'is too large for a JSON number: it would be read as Infinity (recorded as null)'
      : read === 0
        ? 'is too small for a JSON number: it would be read as 0'
        : `is not held exactly (a JSON number keeps whole numbers up to ${Number.MAX_SAFE_INTEGER}): it would be read as ${String(read)}`;
  return `the number ${shown} ${what}; write it in quotes, as a string, to keep it as written`;
}
