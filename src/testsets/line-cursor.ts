/** A 1-based line and column (UTF-16 code units, as editors on the web count them). */
export interface TextPosition {
  line: number;
  col: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Turns string offsets into line/column positions. A line ends at `\r\n`, `\n` or a lone `\r`,
 * the way editors count physical lines.
 *
 * Readers ask for offsets in increasing order (elements of an array, records of a file), so the
 * cursor only walks forward: converting every row of a file costs one pass over the text rather
 * than a line table or a rescan per row. Asking for an earlier offset restarts from the top.
 */
export class LineCursor {
  #offset = 0;
  #line = 1;
  #lineStart = 0;

  constructor(readonly text: string) {}

  /** Position of the character at `offset` (clamped to the text). */
  positionAt(offset: number): TextPosition {
    const target = Math.max(0, Math.min(offset, this.text.length));
    if (target < this.#offset) {
      this.#offset = 0;
      this.#line = 1;
      this.#lineStart = 0;
    }
    const text = this.text;
    for (let i = this.#offset; i < target; i++) {
      const c = text.charCodeAt(i);
      if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) {
        this.#line++;
        this.#lineStart = i + 1;
      }
    }
    this.#offset = target;
    return { line: this.#line, col: target - this.#lineStart + 1 };
  }
}

/** Number of line breaks in `text`: `\r\n`, `\n` and a lone `\r` each count once. */
export function countLineBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  // Lone CRs are rare (old Mac files); look only when there is a CR at all.
  if (text.includes('\r')) {
    for (let j = text.indexOf('\r'); j !== -1; j = text.indexOf('\r', j + 1)) {
      if (text.charCodeAt(j + 1) !== LF) count++;
    }
  }
  return count;
}
