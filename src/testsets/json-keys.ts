/**
 * Duplicate keys in JSON text. `JSON.parse` keeps the last value of a repeated key and says
 * nothing, so a row written `{"expected": "a", …, "expected": "b"}` would silently test "b";
 * `evals.yaml` refuses duplicate keys, and so do the JSON testset readers, with this scan.
 */
import type { Scrub } from '../shared/json-syntax.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A key that appears a second time in one object: its offset in the text, and the key. */
export interface DuplicateKey {
  offset: number;
  key: string;
}

/**
 * Every repeated key of every object in `text`, which `JSON.parse` has accepted, in text order.
 * One linear pass that tracks only strings, nesting and whether a key is expected next.
 */
export function duplicateJsonKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  // One entry per open object (its keys so far) or array (null).
  const open: ({ keys: Set<string>; expectKey: boolean } | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const object = open[open.length - 1];
      if (object?.expectKey) {
        const raw = text.slice(i + 1, end);
        // Keys written with different escapes (`"a"`, `"\u0061"`) are the same key.
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (object.keys.has(key)) found.push({ offset: i, key });
        else object.keys.add(key);
        object.expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      open.push({ keys: new Set(), expectKey: true });
    } else if (c === 0x5b /* [ */) {
      open.push(null);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      open.pop();
    } else if (c === 0x2c /* , */) {
      const object = open[open.length - 1];
      if (object) object.expectKey = true;
    }
  }
  return found;
}

/**
 * The message for a repeated key, `scrub` (the run's secrets) applied before a long key is cut:
 * cut first, a secret in it would keep its first characters, which no later scrub recognises.
 */
export function duplicateKeyMessage(key: string, scrub: Scrub = (text) => text): string {
  const shown = JSON.stringify(scrub(key));
  const quoted = shown.length > 80 ? `${shown.slice(0, 77)}..."` : shown;
  return `duplicate key ${quoted}: each key may appear once in an object (JSON would keep only the last value)`;
}

/**
 * Offset of the closing quote of the JSON string whose opening quote is at `start`; the text's
 * length when it has none.
 */
export function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    if (end === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}
