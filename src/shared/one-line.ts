/**
 * `text` on one line: each line break, with the spaces around it, becomes one space, and the
 * ends are trimmed. A multi-line error (a pretty-printed JSON body, an HTML page) then shows
 * whole in a one-line report instead of only its first line.
 */
export function oneLine(text: string): string {
  return text.trim().replace(/\s*\r?\n\s*/g, ' ');
}
