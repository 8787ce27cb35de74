/**
 * Secrets spelled with JSON escapes a writer need not use: PHP's json_encode writes `/` as `\/`,
 * and a server may write any character as `\u0041`. A scrub of the text as it is misses such a
 * secret, and whoever decodes it later gets it back whole; so the text is decoded (each escape
 * mapped back to where it is written) and every secret found there is removed where it is
 * written, escapes and all.
 */

/** The escapes that stand for one character, by the letter after the backslash. */
const SIMPLE: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** The escapes that may hide a secret from a scrub of the text as written. */
const ESCAPES = /\\(?:u([0-9a-fA-F]{4})|\/)/g;

/**
 * A scrub of the secrets `values` spelled with escapes: `text` with each of them that its JSON
 * escapes decode to replaced by `replacement` where it is written. `text` itself, not decoded,
 * unless an escape stands for a character of a secret: JSON.stringify's own `\u001b` (an
 * output's colours) in a whole results file costs a scan, not a decoding.
 */
export function escapedSecretsScrub(
  values: readonly string[],
  replacement: string,
): (text: string) => string {
  const chars = new Set([...values.join('')]);
  const longestFirst = [...values].sort((a, b) => b.length - a.length);
  const hides = (text: string): boolean => {
    for (const [, hex] of text.matchAll(ESCAPES)) {
      if (chars.has(hex === undefined ? '/' : String.fromCharCode(Number.parseInt(hex, 16)))) {
        return true;
      }
    }
    return false;
  };
  return (text) =>
    text.includes('\\') && hides(text) ? replaceDecoded(text, longestFirst, replacement) : text;
}

/** `text` decoded, each of `longestFirst` found there replaced where it is written. */

function replaceDecoded(
  text: string,
  longestFirst: readonly string[],
  replacement: string,
): string {
  // The decoded text, and where each of its characters starts in `text` (one more at the end).
  let decoded = '';
  const starts = new Uint32Array(text.length + 1);
  let count = 0;
  let i = 0;
  while (i < text.length) {
    starts[count++] = i;
    const next = text[i + 1] ?? '';
    if (text[i] === '\\' && next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      decoded += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
      i += 6;
    } else if (text[i] === '\\' && Object.hasOwn(SIMPLE, next)) {
      decoded += SIMPLE[next];
      i += 2;
    } else {
      decoded += text[i];
      i += 1;
    }
  }
  starts[count] = text.length;
  // The spans of `text` to replace, longest secret first (one that holds another goes whole).
  const spans: [number, number][] = [];
  for (const value of longestFirst) {
    for (let at = decoded.indexOf(value); at !== -1; at = decoded.indexOf(value, at + 1)) {
      const from = starts[at] ?? 0;
      const to = starts[at + value.length] ?? text.length;
      if (!spans.some(([f, t]) => from < t && to > f)) spans.push([from, to]);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let last = 0;
  for (const [from, to] of spans) {
    out += text.slice(last, from) + replacement;
    last = to;
  }
  return out + text.slice(last);
}
