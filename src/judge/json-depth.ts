/**
 * How deep a JSON text nests, found by scanning it, not by walking the parsed value. V8 parses
 * JSON of any depth, but `JSON.stringify`, scrubbing and the cache's writer recurse, and a body
 * nested some thousands of levels deep (no chat answer is) would overflow the stack there: the
 * call would fail with `Maximum call stack size exceeded`, which names nothing. The answer is
 * refused where it is read instead, with a message that says what is wrong with it.
 */

/** Deeper than this is no API answer; the cache's canonical writer stops at the same depth. */
export const MAX_ANSWER_NESTING = 1000;

/** True when the arrays and objects of the JSON `text` nest more than `limit` levels deep. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The error of an answer {@link nestsDeeperThan} refused. */
export function tooDeepMessage(method: string, url: string, status: number): string {
  return `${method} ${url} answered ${status} with JSON nested more than ${MAX_ANSWER_NESTING} levels deep, which no API answer is: not read`;
}
