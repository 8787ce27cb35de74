/**
 * Whether a request header can be sent as written: checked per attempt before fetch (whose own
 * errors say less) and at load for the headers a config writes (config/header-check.ts).
 */

/** A header name as HTTP defines it (a token): no spaces, colons or other separators. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers about the connection and the body's framing, which fetch sets itself: it refuses the
 * request when one is given (all of them every time, so every case would error), except
 * `content-length`, which it sends as given, and a request whose body is not that long then
 * waits for the rest until its time-out.
 */
const FETCH_SETS: Readonly<Record<string, string>> = {
  'content-length':
    'fetch sets it from the body, and a request whose body has another length waits for the rest until it times out',
  'transfer-encoding': 'fetch refuses it (invalid transfer-encoding header)',
  'keep-alive': 'fetch refuses it (invalid keep-alive header)',
  upgrade: 'fetch refuses it (invalid upgrade header)',
  expect: 'fetch does not support it (expect header not supported)',
};

/**
 * Why a request header cannot be sent as it is, or null: a name that is not a token, one fetch
 * sets itself (`content-length`, `transfer-encoding`, …, a `connection` other than `close` or
 * `keep-alive`), a value
 * with a line break or NUL, a character beyond U+00FF (fetch sends values as bytes). The value
 * is never quoted, since it may be a key: the problem names the header and the position.
 */
export function headerProblem(name: string, value: string): string | null {
  if (!HEADER_NAME.test(name)) {
    return `header name ${JSON.stringify(name)} is not valid: a name is letters, digits and !#$%&'*+-.^_\`|~, without spaces or colons`;
  }
  // Names are sent in lower case, and fetch leaves out a header named `__proto__` without a word.
  if (name.toLowerCase() === '__proto__') {
    return `header name ${JSON.stringify(name)} cannot be sent: fetch leaves a header of that name out of the request, without an error; use another name`;
  }
  const lower = name.toLowerCase();
  const owned = Object.hasOwn(FETCH_SETS, lower) ? FETCH_SETS[lower] : undefined;
  if (owned !== undefined) return `header ${name} cannot be set: ${owned}; leave it out`;
  if (lower === 'connection' && !/^\s*(close|keep-alive)\s*$/i.test(value)) {
    return `header ${name}: fetch refuses a value other than close or keep-alive (invalid connection header); leave it out`;
  }
  // fetch strips blanks and line breaks around a value (a key read from a file with its newline).
  const leading = /^[\t\n\r ]*/.exec(value)?.[0].length ?? 0;
  let position = leading;
  for (const char of value.slice(leading).replace(/[\t\n\r ]+$/, '')) {
    position++;
    if (char === '\r' || char === '\n' || char === '\0') {
      const what = char === '\0' ? 'a NUL character' : 'a line break';
      return `header ${name}: its value has ${what} at character ${position}, which a header cannot carry`;
    }
    const code = char.codePointAt(0) ?? 0;
    if (code > 0xff) {
      const hex = code.toString(16).toUpperCase().padStart(4, '0');
      return `header ${name}: its value has U+${hex} at character ${position}, outside Latin-1 (a header value holds only characters up to U+00FF): percent-encode it, or send it in the body`;
    }
  }
  return null;
}
