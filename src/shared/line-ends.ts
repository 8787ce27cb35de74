/**
 * Text output with Windows line ends read as Unix ones: each CRLF becomes LF. A program or server
 * on Windows (or a script saved with CRLF that echoes its lines) writes `\r\n` where the testset,
 * whose cells are read with LF line ends, holds `\n`: kept, `is-equals` would fail on an answer
 * that reads the same. A lone CR is not a line end and stays (a progress line rewritten in place).
 */
export function lfLineEnds(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}
