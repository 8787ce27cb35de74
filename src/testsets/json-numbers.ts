/**
 * Numbers in JSON text that `JSON.parse` cannot keep. It reads every number as a double and says
 * nothing when that changes it: an id `12345678901234567890` becomes `12345678901234567000`,
 * `1e400` becomes `Infinity` (which the results then record as `null`) and `1e-400` becomes `0`.
 * A case must score the data its file holds, so the readers refuse such numbers with this scan.
 * A decimal rounded to its nearest double (`0.1`) is what JSON means by a number and passes.
 */
import type { Scrub } from '../shared/json-syntax.ts';
import { stringEnd } from './json-keys.ts';
import { formatTemplatePath } from '../shared/templates.ts';

/** A number `JSON.parse` would change: its offset in the text, its text and what it reads as. */
export interface InexactNumber {
  offset: number;
  text: string;
  read: number;
  /**
   * The field holding it, from the row (`id`, `meta.ids[2]`): a testset's scan gives it, so the
   * message names the field as well as the line and column. Absent at the top of the text.
   */
  field?: string;
}

/** An open object (its current key, and whether a key comes next) or array (its index). */
type Open = { key: string | undefined; expectKey: boolean } | { index: number };

/**
 * Only a run of 16 digits or more, or an exponent of three digits or more, can make a number
 * that a double does not keep: text without either (nearly every file) is not scanned.
 */
const MAY_BE_INEXACT = /\d{16}|[eE][+-]?\d{3}/;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Every number of `text`, which `JSON.parse` has accepted, that it would read as another. `column`:
 * the CSV column whose cell `text` is, whose name starts each field's path (`meta.ids[1]`); a
 * cell's top-level array is then that column's value, not a list of rows.
 */
export function inexactJsonNumbers(text: string, column?: string): InexactNumber[] {
  if (!MAY_BE_INEXACT.test(text)) return [];
  const found: InexactNumber[] = [];
  // Where the scan is, to name the field of a number found (one pass, as json-keys.ts scans).
  const open: Open[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const top = open[open.length - 1];
      if (top !== undefined && 'expectKey' in top && top.expectKey) {
        const raw = text.slice(i + 1, end);
        top.key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        top.expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      open.push({ key: undefined, expectKey: true });
    } else if (c === 0x5b /* [ */) {
      open.push({ index: 0 });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      open.pop();
    } else if (c === 0x2c /* , */) {
      const top = open[open.length - 1];
      if (top !== undefined && 'index' in top) top.index++;
      else if (top !== undefined) top.expectKey = true;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(text)?.[0] ?? text.charAt(i);
      const read = Number(token);
      if (!keeps(token, read)) {
        const field = fieldOf(open, column);
        found.push({ offset: i, text: token, read, ...(field !== '' ? { field } : {}) });
      }
      i += token.length - 1;
    }
  }
  return found;
}

/**
 * The field the scan is in (`id`, `meta.ids[2]`). A JSON testset's list of rows is left out
 * (`[3].id` is `id`: the line places the row); any other path is whole, from the text's top,
 * after the CSV `column` whose cell the text is.
 */
function fieldOf(open: readonly Open[], column: string | undefined): string {
  const keys = open.map((entry) => ('index' in entry ? String(entry.index) : (entry.key ?? '')));
  if (column !== undefined) return formatTemplatePath('', [column, ...keys]).replace(/^\./, '');
  const inRow = open[0] !== undefined && 'index' in open[0] ? keys.slice(1) : keys;
  return formatTemplatePath('', inRow).replace(/^\./, '');
}

/** Whether `read`, the double of the number written `token`, is that number (or its nearest). */
function keeps(token: string, read: number): boolean {
  if (!Number.isFinite(read)) return false;
  if (read === 0) return !/[1-9]/.test(token.replace(/[eE].*/, ''));
  if (Number.isSafeInteger(read) || /[.eE]/.test(token)) return true;
  return BigInt(token) === BigInt(read);
}

/** A field's path, a long one cut (a key may be a whole sentence); one line, as it is escaped. */
function shortField(field: string): string {
  return field.length > 80 ? `${field.slice(0, 77)}...` : field;
}

/** YAML's own infinity and not-a-number (`.inf`, `-.Inf`, `.NaN`), which no JSON text writes. */
const SPECIAL_NUMBER = /^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/;

/**
 * The message for such a number, `scrub` (the run's secrets) applied to its digits and field
 * before either is cut: a long number may be a key, and a cut would keep its first digits.
 */
export function inexactNumberMessage(
  { text, read, field }: InexactNumber,
  scrub: Scrub = (written) => written,
): string {
  const clean = scrub(text);
  const digits = clean.length > 40 ? `${clean.slice(0, 37)}...` : clean;
  // The field as the row's templates name it, so a row of many numbers says which one.
  const shown = field === undefined ? digits : `${digits} (field ${shortField(scrub(field))})`;
  const what = SPECIAL_NUMBER.test(text)
    ? "is YAML's infinity or not-a-number, which JSON cannot hold: the results would record it as null"
    : !Number.isFinite(read)
      ? 'is too large for a JSON number: it would be read as Infinity (recorded as null)'
      : read === 0
        ? 'is too small for a JSON number: it would be read as 0'
        : `is not held exactly (a JSON number keeps whole numbers up to ${Number.MAX_SAFE_INTEGER}): it would be read as ${
            // The number as read is the secret's first digits, in a form no scrub recognises.
            clean === text ? String(read) : 'another number'
          }`;
  return `the number ${shown} ${what}; write it in quotes, as a string, to keep it as written`;
}
