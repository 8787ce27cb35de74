/**
 * The text of an answer's body. A body is read in the charset its content-type names (a server
 * may rightly answer `text/plain; charset=iso-8859-1`); one that names none, or UTF-8, must be
 * UTF-8. Decoded anyway, its bad bytes would become U+FFFD and the answer would be scored on
 * text the server never sent (a Latin-1 `café` passing a check that `é` is NOT there), so such
 * a body is flagged, and the call that reads it (an http target, a model API) errors on it, as a
 * command's stdout does.
 */
import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';

/** A body's text, and whether its bytes were meant as UTF-8 but are not. */
export interface BodyText {
  text: string;
  notUtf8: boolean;
}

const UTF8 = new TextDecoder('utf-8');

/** `bytes` decoded in the charset `contentType` names, else as UTF-8 (see above). */
export function bodyText(bytes: Buffer, contentType: string | null): BodyText {
  const decoder = declaredDecoder(contentType);
  if (decoder !== undefined) return { text: decoder.decode(bytes), notUtf8: false };
  // A leading byte order mark is no part of the text (a JSON answer would not parse with it).
  return { text: UTF8.decode(bytes), notUtf8: !isUtf8(bytes) };
}

/** The error of a body that is not UTF-8 and names no other charset. */
export function notUtf8Message(
  method: string,
  url: string,
  status: number,
  contentType: string | null,
): string {
  const declared =
    contentType === null
      ? 'it has no content-type naming another charset'
      : `its content-type (${contentType}) names no other charset`;
  return `${method} ${url} answered ${status} with a body that is not valid UTF-8, and ${declared}: send UTF-8, or name the charset (content-type: text/plain; charset=iso-8859-1)`;
}

/** A decoder for the charset a content-type names, when it names one other than UTF-8. */
function declaredDecoder(contentType: string | null): TextDecoder | undefined {
  const label = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  if (label === undefined) return undefined;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    // A charset no decoder knows: the body is then held to UTF-8, as one that names none.
    return undefined;
  }
  return decoder.encoding === 'utf-8' ? undefined : decoder;
}
