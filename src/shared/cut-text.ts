/**
 * Where a long text is cut when only its start is shown, and how much is left out. A leaf helper
 * shared by every place that writes `… (1,234 more characters)` (evaluators' metadata, the
 * terminal, `evals show`, the HTML report's model and its page), so they all count alike: in
 * characters as a person counts them, one per code point (an emoji is one, not two UTF-16 units).
 */

/** The number of characters (code points) in `text`: a surrogate pair counts once. */
export function characterCount(text: string): number {
  let count = text.length;
  // Bounded by the text's length.
  for (let i = 0; i < text.length - 1; i++) {
    if (isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1))) {
      count--;
      i++;
    }
  }
  return count;
}

/** The first `limit` characters (code points) of `text`: never half of an emoji, shown as `�`. */
export function startOf(text: string, limit: number): string {
  let units = 0;
  // Bounded by `limit` and the text's length.
  for (let chars = 0; chars < limit && units < text.length; chars++) {
    const pair = isHigh(text.charCodeAt(units)) && isLow(text.charCodeAt(units + 1));
    units += pair ? 2 : 1;
  }
  return text.slice(0, units);
}

/** `text` cut to its first `limit` characters, and how many characters were left out (0: none). */
export function cutText(text: string, limit: number): { start: string; left: number } {
  // A text of at most `limit` UTF-16 units has at most `limit` characters: nothing to count.
  if (text.length <= limit) return { start: text, left: 0 };
  const start = startOf(text, limit);
  return { start, left: characterCount(text.slice(start.length)) };
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
