/**
 * Where a JSON pointer's value is written in JSON text. A schema validator says which value is
 * wrong by pointer (`/runs/0/cases/3/score`); a person fixing the file needs its line and
 * column. `JSON.parse` keeps no positions, and a parser that does would build a second tree of a
 * file that may be tens of megabytes, so this is one forward scan that keeps only the open
 * containers (their kind, element count and whether they lie on the pointer's path): memory by
 * nesting depth, not by value. It runs on the error path only, for the few pointers reported.
 */

/** Where the value at a pointer is: the offset of its first character, and of its key. */
export interface PointerOffset {
  /** The value's first character (`{`, `[`, `"`, a digit...). */
  value: number;
  /** The opening quote of the key naming it, in an object; the value's offset otherwise. */
  key: number;
}

/** One open container while scanning. */
interface Frame {
  array: boolean;
  /** This container is the value at the pointer's prefix of its depth. */
  onPath: boolean;
  /** The element or member being read is on the pointer's path. */
  childOnPath: boolean;
  /** An array's element count so far. */
  index: number;
  /** An object expects a key next. */
  expectKey: boolean;
  /** Offset of the current member's key. */
  keyOffset: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The position of the value `pointer` (RFC 6901: `''` is the whole text, `/a/0` the first
 * element of key `a`) names in `text`, JSON that `JSON.parse` accepted; null when there is no
 * such value. A key repeated in one object is found at its last occurrence, the value
 * `JSON.parse` keeps.
 */
export function locateJsonPointer(text: string, pointer: string): PointerOffset | null {
  if (pointer !== '' && !pointer.startsWith('/')) return null;
  const segments =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const target = segments.length;
  const stack: Frame[] = [];
  let found: PointerOffset | null = null;

  /** A value starts at `i`; returns whether it is on the pointer's path. */
  const valueAt = (i: number): boolean => {
    const top = stack[stack.length - 1];
    const onPath = top === undefined ? true : top.childOnPath;
    if (onPath && stack.length === target) {
      found = { value: i, key: top !== undefined && !top.array ? top.keyOffset : i };
    }
    return onPath;
  };
  /** Whether the child of the top container named `segment` is on the path. */
  const childOnPath = (frame: Frame, segment: () => string): boolean => {
    const depth = stack.length - 1;
    return frame.onPath && depth < target && segments[depth] === segment();
  };

  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x3a /* : */) continue;
    const top = stack[stack.length - 1];
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (top !== undefined && !top.array && top.expectKey) {
        top.expectKey = false;
        top.keyOffset = i;
        top.childOnPath = childOnPath(top, () => keyText(text, i, end));
      } else {
        valueAt(i);
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const onPath = valueAt(i);
      const array = c === 0x5b;
      const frame: Frame = {
        array,
        onPath,
        childOnPath: false,
        index: 0,
        expectKey: !array,
        keyOffset: i,
      };
      stack.push(frame);
      if (array) frame.childOnPath = childOnPath(frame, () => '0');
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      if (top === undefined) continue;
      if (top.array) {
        top.index++;
        top.childOnPath = childOnPath(top, () => String(top.index));
      } else {
        top.expectKey = true;
        top.childOnPath = false;
      }
    } else {
      // A number, true, false or null: to the next character that ends it.
      valueAt(i);
      while (i + 1 < text.length && !/[\s,:[\]{}"]/.test(text.charAt(i + 1))) i++;
    }
  }
  return found;
}

/** Offset of the closing quote of the string whose opening quote is at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = text.indexOf('"', start + 1); i !== -1; i = text.indexOf('"', i + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(i - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
  return text.length;
}

/** The key whose quotes are at `start` and `end`, its escapes read. */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end + 1)) as string) : raw;
}

/** `line` and `col` (1-based; the column in UTF-16 code units) of `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: offset - lineStart + 1 };
}
