/**
 * Prose for a terminal broken into lines between words, so a long fixed text (a footnote, a
 * warning) fits the terminal's width and loses nothing, where cutting it would lose its end.
 */
import { textWidth } from './text-table.ts';

/** The narrowest width prose is broken to. */
const MIN_WRAP_WIDTH = 40;

/**
 * `text`'s words in lines of at most `width` columns (by display width), the first line
 * `firstTaken` columns shorter (it follows something kept whole on its line). A word wider than
 * its line is not cut: it takes a line of its own. Never narrower than 40 columns. With no `width` (a pipe with no `COLUMNS`),
 * the text as one line.
 */
export function wrapWords(text: string, width: number | undefined, firstTaken = 0): string[] {
  if (width === undefined) return [text];
  // A terminal narrower than this is a mistake (COLUMNS=1): a word a line would read worse.
  width = Math.max(MIN_WRAP_WIDTH, width);
  const lines: string[] = [];
  let line = '';
  let room = width - firstTaken;
  for (const word of text.split(' ')) {
    if (line === '') {
      line = word;
    } else if (textWidth(line) + 1 + textWidth(word) <= room) {
      line += ` ${word}`;
    } else {
      lines.push(line);
      line = word;
      room = width;
    }
  }
  lines.push(line);
  return lines;
}
