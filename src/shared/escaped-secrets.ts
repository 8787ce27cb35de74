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

/** An escape that may hide a secret from a scrub of the text as written. */
const HIDING_ESCAPE = /\\(?:u[0-9a-fA-F]{4}|\/)/;

/**
 * `text` with each of `values` that its JSON escapes decode to replaced by `replacement` where
 * it is written; `text` itself when it holds no `\uXXXX` or `\/` escape.
 */
export function scrubEscaped(text: string, values: readonly string[], replacement: string): string {
  if (!HIDING_ESCAPE.test(text)) return text;
  // The decoded text, and where each of its characters starts in `text` (one more at the end).
  let decoded = '';
  const starts: number[] = [];
  let i = 0;
  while (i < text.length) {
    starts.push(i);
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
  starts.push(text.length);
  // The spans of `text` to replace, longest secret first (one that holds another goes whole).
  const spans: [number, number][] = [];
  for (const value of [...values].sort((a, b) => b.length - a.length)) {
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
