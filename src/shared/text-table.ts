/**
 * Text laid out in columns for a terminal: how wide a string shows, cutting it to a width, and
 * aligned tables. Every terminal table goes through here, so they all measure text the same way:
 * by `string-width`, where CJK and emoji take two columns, combining marks none, and ANSI colour
 * codes nothing.
 *
 * `string-width` and the grapheme segmenter are loaded the first time a text that is not plain
 * ASCII is measured, not when this module is: compiling string-width's emoji pattern and creating
 * a segmenter load Unicode data, which every command (`--version` too) would otherwise pay at
 * start-up whether or not it prints such a text (bench/README.md, cold start).
 */
import { createRequire } from 'node:module';
import type stringWidthOf from 'string-width';
import { STRING_WIDTH_MODULE } from './string-width-module.ts';

const ELLIPSIS = '…';
/** Printable ASCII: one column per character, so measuring is `length` and cutting a `slice`. */
const PLAIN_ASCII = /^[\u0020-\u007e]*$/;
/**
 * The escape sequences a cell may hold: CSI (colours are `ESC [ … m`) and OSC (hyperlinks).
 * Captured, so `split` keeps them at the odd indexes. User text is expected to have had its own
 * escapes neutralised before it gets here.
 */
// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /(\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\))/;
/** Code units measured per `string-width` call when a long text is measured up to a limit. */
const CHUNK = 64;

let loadedStringWidth: ((text: string) => number) | undefined;
let segmenter: Intl.Segmenter | undefined;

/** `string-width` itself, loaded on the first call. */
function stringWidth(text: string): number {
  loadedStringWidth ??= (
    createRequire(import.meta.url)(STRING_WIDTH_MODULE) as { default: typeof stringWidthOf }
  ).default;
  return loadedStringWidth(text);
}

/** `text`'s user-perceived characters (grapheme clusters), with a segmenter made on the first call. */
export function graphemesOf(text: string): Intl.Segments {
  segmenter ??= new Intl.Segmenter();
  return segmenter.segment(text);
}

/** Columns `text` takes on a terminal (`string-width`); ANSI escape sequences count for nothing. */
export function textWidth(text: string): number {
  return PLAIN_ASCII.test(text) ? text.length : stringWidth(text);
}

/**
 * {@link textWidth}, but counting stops once past `limit`: anything wider is `limit + 1`.
 * `string-width` takes microseconds per non-ASCII character, so a cell holding a whole document
 * must not be measured to the end just to learn that it will be cut.
 */
export function textWidthUpTo(text: string, limit: number): number {
  // No grapheme is wider than two columns per UTF-16 code unit.
  if (text.length * 2 <= limit) return textWidth(text);
  let width = 0;
  for (const piece of textPieces(text)) {
    if (PLAIN_ASCII.test(piece)) {
      width += piece.length;
    } else {
      // Whole graphemes per call: a cluster cut in two could measure differently.
      let chunk = '';
      for (const { segment } of graphemesOf(piece)) {
        chunk += segment;
        if (chunk.length < CHUNK) continue;
        width += stringWidth(chunk);
        chunk = '';
        if (width > limit) break;
      }
      width += stringWidth(chunk);
    }
    if (width > limit) return limit + 1;
  }
  return width;
}

/** The text between the escape sequences of `text`. */
function textPieces(text: string): string[] {
  if (!text.includes('\x1b')) return [text];
  return text.split(ANSI_SEQUENCE).filter((_, index) => index % 2 === 0);
}

/**
 * `text` cut to at most `max` columns, the cut marked with `…` (which takes one of them). Cuts
 * between user-perceived characters, so a wide character or an emoji sequence is never split;
 * the cut may then leave a column unused. Colour codes are kept, those after the cut too, so a
 * colour closed at the end of the text is still closed.
 */
export function truncateToWidth(text: string, max: number): string {
  if (textWidthUpTo(text, max) <= max) return text;
  if (max <= 0) return '';
  if (PLAIN_ASCII.test(text)) return `${text.slice(0, max - 1)}${ELLIPSIS}`;
  const room = max - textWidth(ELLIPSIS);
  let kept = '';
  let width = 0;
  let cut = false;
  text.split(ANSI_SEQUENCE).forEach((piece, index) => {
    if (index % 2 === 1) {
      kept += piece;
      return;
    }
    if (cut) return;
    for (const { segment } of graphemesOf(piece)) {
      const next = textWidth(segment);
      if (width + next > room) {
        kept += ELLIPSIS;
        cut = true;
        return;
      }
      kept += segment;
      width += next;
    }
  });
  return kept;
}

/** `text` padded with spaces to `width` columns, on the right (`left`) or the left (`right`). */
export function padToWidth(text: string, width: number, align: ColumnAlign = 'left'): string {
  return pad(text, width - textWidth(text), align);
}

function pad(text: string, spaces: number, align: ColumnAlign = 'left'): string {
  const gap = ' '.repeat(Math.max(0, spaces));
  return align === 'right' ? gap + text : text + gap;
}

/** Which side of its column a cell keeps to. */
export type ColumnAlign = 'left' | 'right';

/** How one column of {@link renderTable} behaves. */
export interface TableColumn {
  /** Default `left`. */
  align?: ColumnAlign;
  /**
   * The column gives up width when a line would be wider than `maxWidth`: its cells are cut
   * with `…`. Several such columns share the room fairly.
   */
  shrink?: boolean;
  /**
   * Narrowest a shrinking column gets (never more than its widest cell). Default 1, room for
   * the `…` alone.
   */
  minWidth?: number;
}

/** How {@link renderTable} lays out its rows. */
export interface TableOptions {
  /** Per column, by position; a column without an entry is left-aligned and never shrinks. */
  columns?: readonly TableColumn[];
  /** Put before every line, counted in `maxWidth`. Default none. */
  indent?: string;
  /** Between two cells. Default two spaces. */
  gap?: string;
  /**
   * Columns a line may take. Only `shrink` columns give way, and none below its `minWidth`,
   * so a table with too little to shrink can still be wider. Default: no limit.
   */
  maxWidth?: number;
  /**
   * A character drawn under each column after the first row (the header), e.g. `─`, as wide as
   * the column. Default: no such line.
   */
  rule?: string;
}

/**
 * Lays `rows` out in aligned columns, one line per row: each column as wide as its widest cell
 * (by {@link textWidth}, so CJK, emoji and coloured cells line up), cells padded to it, left or
 * right. A row with fewer cells ends early. Padding is never left at the end of a line, so the
 * last column is not padded. Cells wider than their column after shrinking are cut
 * by {@link truncateToWidth}.
 */
export function renderTable(
  rows: readonly (readonly string[])[],
  options: TableOptions = {},
): string[] {
  const indent = options.indent ?? '';
  const gap = options.gap ?? '  ';
  const count = rows.reduce((most, row) => Math.max(most, row.length), 0);
  const specs = Array.from({ length: count }, (_, column) => options.columns?.[column] ?? {});

  // Each cell is measured once. A shrinking column wider than the whole line will be cut
  // anyway, so its cells are measured only that far, but never less than its minimum: on a
  // line narrower than that (COLUMNS=1) every cell would measure alike and none would be cut.
  const room = options.maxWidth === undefined ? Infinity : options.maxWidth - textWidth(indent);
  const limits = specs.map((spec) => (spec.shrink ? Math.max(room, spec.minWidth ?? 1) : Infinity));
  const measured = rows.map((row) =>
    row.map((cell, column) => textWidthUpTo(cell, limits[column] ?? Infinity)),
  );
  const widths = new Array<number>(count).fill(0);
  for (const row of measured) {
    row.forEach((width, column) => {
      widths[column] = Math.max(widths[column] ?? 0, width);
    });
  }
  if (room !== Infinity) shrinkColumns(widths, specs, room, textWidth(gap));

  const line = (cells: readonly string[]): string =>
    `${indent}${cells.join(gap)}`.replace(/ +$/, '');
  const lines = rows.map((row, index) =>
    line(
      row.map((cell, column) => {
        const width = widths[column] ?? 0;
        const align = specs[column]?.align;
        const cellWidth = measured[index]?.[column] ?? 0;
        return cellWidth <= width
          ? pad(cell, width - cellWidth, align)
          : padToWidth(truncateToWidth(cell, width), width, align);
      }),
    ),
  );
  const rule = options.rule;
  if (rule !== undefined && lines.length > 0) {
    lines.splice(1, 0, line(widths.map((width) => rule.repeat(width))));
  }
  return lines;
}

/**
 * Narrows the `shrink` columns so a line fits `room` columns, max-min fairly: taken from the
 * narrowest up, each gets its natural width or an even share of what is left, whichever is
 * smaller, but not less than its minimum. Changes `widths` in place.
 */
function shrinkColumns(
  widths: number[],
  specs: readonly TableColumn[],
  room: number,
  gapWidth: number,
): void {
  const total = widths.reduce((sum, width) => sum + width, 0) + gapWidth * (widths.length - 1);
  if (total <= room) return;
  const shrinking = specs.flatMap((spec, column) => (spec.shrink ? [column] : []));
  let remaining = room - gapWidth * (widths.length - 1);
  widths.forEach((width, column) => {
    if (specs[column]?.shrink !== true) remaining -= width;
  });
  // A stable sort: equally wide columns share in their order on the line.
  const byWidth = shrinking.sort((a, b) => (widths[a] ?? 0) - (widths[b] ?? 0));
  byWidth.forEach((column, index) => {
    const natural = widths[column] ?? 0;
    const minimum = Math.min(natural, specs[column]?.minWidth ?? 1);
    const share = Math.floor(remaining / (byWidth.length - index));
    const width = Math.max(minimum, Math.min(natural, share));
    widths[column] = width;
    remaining -= width;
  });
}

/**
 * Characters that act on the terminal instead of showing, or that show as nothing: C0 and C1
 * controls (escape sequences start with one); format characters (Cf: the bidirectional marks,
 * embeddings, overrides and isolates that make text read differently from what it is,
 * CVE-2021-42574, and zero-width spaces, joiners, soft hyphens, the BOM); line and paragraph
 * separators; spaces other than the space (no-break, thin, ideographic…), which look like one;
 * and the fillers that show as blanks (U+034F, U+115F, U+1160, U+3164, U+FFA0). Two values
 * that differ only by one of them must not look the same (`expected "ab", got "a\u200bb"`).
 */
const ACTING = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u034f\u115f\u1160\u3164\uffa0]|(?! )\p{Zs}/gu;

/** An emoji before a zero-width joiner, maybe with its presentation selector or skin tone. */
const EMOJI_BEFORE = /\p{Extended_Pictographic}(?:\ufe0f|\p{Emoji_Modifier})?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;
/** A tag character (U+E0020–U+E007F) after a black flag or another tag: a subdivision flag. */
const TAG = /[\u{e0020}-\u{e007f}]/u;
const FLAG_OR_TAG_BEFORE = /[\u{1f3f4}\u{e0020}-\u{e007f}]$/u;

/**
 * Whether the format character `char` at `offset` of `text` is part of an emoji: the joiner
 * of a sequence such as 👨‍👩‍👧, or a tag of a flag such as 🏴󠁧󠁢󠁳󠁣󠁴󠁿. Those show as the emoji they make.
 */
function inEmoji(char: string, offset: number, text: string): boolean {
  const before = text.slice(Math.max(0, offset - 4), offset);
  if (char === '\u200d') {
    return EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(text.slice(offset + 1, offset + 3));
  }
  return TAG.test(char) && FLAG_OR_TAG_BEFORE.test(before);
}

/**
 * Makes user text (labels, ids, keys, values) safe to print: acting and invisible characters
 * (see `ACTING`), escape sequences, tabs and line breaks included, are shown as `\uXXXX`
 * (`\u{XXXXX}` beyond U+FFFF), so `a\tb` and `a b` never read alike; the joiners and tags inside
 * an emoji are kept. A backslash is left as it is: the texts printed hold JSON-quoted values
 * (`expected "x", got "a\u001bb"`), whose backslashes JSON has escaped already, so doubling
 * them here would make a real escape read as a literal one.
 */
export function printable(text: string): string {
  return text.replace(ACTING, (char: string, offset: number) => {
    if (inEmoji(char, offset, text)) return char;
    const code = char.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
