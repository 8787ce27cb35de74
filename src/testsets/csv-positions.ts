import { LineCursor, type TextPosition } from './line-cursor.ts';

/**
 * Where things sit inside one CSV record's text, for error messages only: csv-parse reads the
 * cells but says neither where each cell starts nor where a stray quote is. This runs only
 * after csv-parse has found a problem in the record, so it never has to agree with csv-parse
 * on a good file; it follows the same rules (`,` between cells, a cell quoted only when its
 * first character is `"`, `""` for a quote inside quotes).
 */
export interface RecordLayout {
  /** Offset in the record's text where each cell starts. */
  cellStarts: number[];
  /** Offset of the first `"` that ends a quoted cell but is followed by more text, or -1. */
  strayQuote: number;
}

export function recordLayout(raw: string): RecordLayout {
  const cellStarts: number[] = [];
  let strayQuote = -1;
  let i = 0;
  // Each pass reads one cell; a record of n commas has n + 1 cells, so this ends.
  for (;;) {
    cellStarts.push(i);
    if (raw.charCodeAt(i) === 0x22) {
      i = quotedCellEnd(raw, i, (quote) => {
        if (strayQuote === -1) strayQuote = quote;
      });
    }
    const comma = raw.indexOf(',', i);
    if (comma === -1) break;
    i = comma + 1;
  }
  return { cellStarts, strayQuote };
}

/** The offset just past the quoted cell that opens at `start` (its closing quote, or the end). */
function quotedCellEnd(raw: string, start: number, onStray: (offset: number) => void): number {
  let i = start + 1;
  for (;;) {
    const quote = raw.indexOf('"', i);
    if (quote === -1) return raw.length;
    const next = raw[quote + 1];
    if (next === '"') {
      i = quote + 2;
      continue;
    }
    if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') onStray(quote);
    return quote + 1;
  }
}

/** The file position of `offset` in a record whose text starts at column 1 of `line`. */
export function positionInRecord(raw: string, line: number, offset: number): TextPosition {
  const at = new LineCursor(raw).positionAt(offset);
  return { line: line + at.line - 1, col: at.col };
}
