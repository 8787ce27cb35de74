/**
 * Text output with Windows line ends read as Unix ones: each CRLF becomes LF. A program or server
 * on Windows (or a script saved with CRLF that echoes its lines) writes `\r\n` where the testset,
 * whose cells are read with LF line ends, holds `\n`: kept, `is-equals` would fail on an answer
 * that reads the same. A lone CR is not a line end and stays (a progress line rewritten in place).
 */
export function lfLineEnds(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}

/**
 * A target's text output as it is scored: LF line ends, and without its trailing line breaks, as
 * a shell's `$(...)` reads a program's output. A program, a server (`res.end(text + '\n')`) and a
 * model alike end their text with a line break the testset's `expected` does not hold, which
 * `is-equals` would fail on; a command's stdout, an http target's text answer and a model
 * target's text reply are all read this way, so one answer scores the same from any of them.
 */
export function textOutput(text: string): string {
  return lfLineEnds(text).replace(/\n+$/, '');
}
