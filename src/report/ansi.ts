/** ANSI styling for terminal reports, a no-op when color is off. */
export interface Painter {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

/**
 * Close codes reset only the attribute that was set (22 bold/dim, 39 color), so styles nest; an
 * empty string stays empty so alignment math never sees stray escape codes.
 */
export function painter(color: boolean): Painter {
  const wrap =
    (open: number, close: number) =>
    (text: string): string =>
      color && text !== '' ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
  };
}
