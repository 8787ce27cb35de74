/**
 * Whether a request header can be sent as written: checked per attempt before fetch (whose own
 * errors say less) and at load for the headers a config writes (config/header-check.ts).
 */

/** A header name as HTTP defines it (a token): no spaces, colons or other separators. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Why a request header cannot be sent as it is, or null: a name that is not a token, a value
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
