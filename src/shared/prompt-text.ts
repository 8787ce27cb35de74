/**
 * A prompt file's text as it is sent: without a leading BOM, its line ends read as LF (a CRLF
 * or a lone CR each one LF), as testset cells and the config are read, so a checkout that
 * converts line ends (Windows) sends the same prompt, hits the same cache entries and is the
 * same config to `--resume` and `evals merge`.
 */
export function promptFileText(text: string): string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.replace(/\r\n?/g, '\n');
}
