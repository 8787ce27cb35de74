/**
 * Testset files must be UTF-8. A file saved as UTF-16 (Excel's "Unicode text") or UTF-32, or
 * one with bytes that are not UTF-8, would otherwise be read as garbled text (U+FFFD, NULs) and
 * fail later with a confusing message, or not fail at all. {@link Utf8Reader} decodes the bytes
 * as they stream in, with a fatal `TextDecoder` in place of plain decoding (no second pass), and
 * stops at the first problem; its exact line and column are worked out only then.
 */
import type { Issue } from '../shared/errors.ts';
import { LineCursor } from './line-cursor.ts';

/** A file's bytes are not UTF-8 text: `at` is where (see {@link encodingIssue}). */
export class TestsetEncodingError extends Error {
  constructor(
    /** A foreign encoding, named (`UTF-16 (it starts with …)`), or `null` for invalid bytes. */
    readonly foreign: string | null,
    /** Invalid bytes: the first byte offset from which the first bad byte is looked for. */
    readonly from: number,
  ) {
    super(foreign ?? 'not valid UTF-8');
  }
}

/** Bytes of the start of a file looked at for NULs (a stream's first chunk is this size). */
export const SNIFF_BYTES = 64 * 1024;

/** What the first bytes of a file say it is when it is not UTF-8 text, else `null`. */
export function foreignEncoding(first: Uint8Array): string | null {
  const [a, b, c, d] = first;
  // UTF-32 first: its little-endian mark starts with UTF-16's.
  if (
    (a === 0xff && b === 0xfe && c === 0 && d === 0) ||
    (a === 0 && b === 0 && c === 0xfe && d === 0xff)
  ) {
    return 'UTF-32 (it starts with the UTF-32 byte order mark)';
  }
  if ((a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)) {
    return 'UTF-16 (it starts with the UTF-16 byte order mark)';
  }
  const nul = first.subarray(0, SNIFF_BYTES).indexOf(0);
  if (nul < 0) return null;
  return 'not UTF-8 text: it holds NUL bytes (a UTF-16 or UTF-32 file without a byte order mark, or not a text file)';
}

/**
 * Decodes a stream of bytes as UTF-8, refusing anything else: call {@link decode} for each chunk
 * in order, then {@link end}. Both throw a {@link TestsetEncodingError}. A character split
 * between chunks is kept for the next one; a leading UTF-8 byte order mark is dropped.
 */
export class Utf8Reader {
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  /** Bytes handed over before the current chunk. */
  #offset = 0;

  decode(chunk: Uint8Array): string {
    if (this.#offset === 0) {
      const foreign = foreignEncoding(chunk);
      if (foreign !== null) throw new TestsetEncodingError(foreign, 0);
    }
    const start = this.#offset;
    this.#offset += chunk.length;
    try {
      return this.#decoder.decode(chunk, { stream: true });
    } catch {
      // Up to 3 bytes of a character begun in the previous chunk may be the bad ones.
      throw new TestsetEncodingError(null, Math.max(0, start - 3));
    }
  }

  /** The end of the input: a character left unfinished there is refused. */
  end(): string {
    try {
      return this.#decoder.decode();
    } catch {
      throw new TestsetEncodingError(null, Math.max(0, this.#offset - 3));
    }
  }
}

/** Decodes all of `bytes` (one chunk) as {@link Utf8Reader} does. */
export function decodeUtf8(bytes: Uint8Array): string {
  const reader = new Utf8Reader();
  return reader.decode(bytes) + reader.end();
}

/**
 * The issue of `error` for `file`, whose bytes (at least up to the problem) are `bytes`: a
 * foreign encoding is a problem of the whole file; invalid bytes are at the line and column
 * (UTF-16 code units, as everywhere else) of the first bad byte.
 */
export function encodingIssue(error: TestsetEncodingError, bytes: Uint8Array, file: string): Issue {
  const code = 'testset.encoding';
  if (error.foreign !== null) {
    const message = `${file} is ${error.foreign}: save it as UTF-8`;
    return { code, file, line: 0, col: 0, path: '', message };
  }
  const bad = firstInvalidByte(bytes, boundaryAtOrBefore(bytes, error.from));
  const text = new TextDecoder('utf-8').decode(bytes.subarray(0, bad));
  const { line, col } = new LineCursor(text).positionAt(text.length);
  const message = `not valid UTF-8 at line ${line}, column ${col}: save it as UTF-8`;
  return { code, file, line, col, path: '', message };
}

/**
 * Why `bytes`, the whole of `file`, is not UTF-8 text (an issue at the first bad byte, or of the
 * whole file for a foreign encoding), or `undefined` when it is: for the files read whole that
 * must be UTF-8 as testsets are (the config, a model target's prompt files).
 */
export function utf8Issue(bytes: Uint8Array, file: string): Issue | undefined {
  try {
    decodeUtf8(bytes);
    return undefined;
  } catch (error) {
    if (!(error instanceof TestsetEncodingError)) throw error;
    return encodingIssue(error, bytes, file);
  }
}

/** The start of the character holding byte `at` (a continuation byte belongs to one before). */
function boundaryAtOrBefore(bytes: Uint8Array, at: number): number {
  let i = Math.min(at, bytes.length);
  for (let back = 0; back < 3 && i > 0 && ((bytes[i] ?? 0) & 0xc0) === 0x80; back++) i--;
  return i;
}

/**
 * Offset of the first byte from `from` (a character boundary) that does not start or continue
 * a valid UTF-8 character, as the WHATWG decoder judges (no overlong forms, no surrogates,
 * nothing above U+10FFFF); `bytes.length` when a character is cut off at the end, or none is bad.
 */
function firstInvalidByte(bytes: Uint8Array, from: number): number {
  let i = from;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      if (c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}
