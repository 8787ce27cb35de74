/**
 * Whole reads and writes on a file descriptor: `readSync` and `writeSync` may move fewer bytes
 * than asked, so each loops until done (or, reading, until the file ends); and a file's lines
 * read through a window, for files too large to hold as one string.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { noProgress } from '../shared/write-file-atomic.ts';

/** Fills `buffer` from `position` of file `fd` as far as the file goes; returns the bytes read. */
export function readAt(fd: number, buffer: Buffer, position: number): number {
  let filled = 0;
  while (filled < buffer.length) {
    const read = readSync(fd, buffer, filled, buffer.length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}

/**
 * Writes all of `bytes` to file `fd` at its current position; returns the bytes written. A disk
 * that fills up takes what fits with no error; the write of the rest is the one that fails.
 */
export function writeAll(fd: number, bytes: Uint8Array): number {
  let done = 0;
  while (done < bytes.length) {
    const wrote = writeSync(fd, bytes, done, bytes.length - done);
    // No bytes and no error: trying again would spin for good.
    if (wrote <= 0) throw noProgress(fd, bytes.length - done);
    done += wrote;
  }
  return done;
}

/** Read window of {@link lines}; a longer line gets a window of its own size. */
const WINDOW = 1 << 20;
const NEWLINE = 0x0a;

/** One line as {@link lines} hands it out: `bytes[from, to)` (its newline and any `\r` left out). */
export interface Line {
  bytes: Buffer;
  from: number;
  to: number;
  /** The line's byte offset in the file. */
  offset: number;
}

/**
 * The lines of bytes `[start, end)` of `fd`, read through a window that is refilled behind a
 * partial line and doubled for a line longer than itself. The yielded object is reused: read it
 * before asking for the next line.
 */
export function* lines(fd: number, start: number, end: number): Generator<Line> {
  let window = Buffer.allocUnsafe(Math.max(1, Math.min(WINDOW, end - start)));
  const line: Line = { bytes: window, from: 0, to: 0, offset: 0 };
  let position = start; // file offset of the next byte to read
  let kept = 0; // bytes of a partial line at the start of the window
  while (position < end) {
    if (kept === window.length) {
      const bigger = Buffer.allocUnsafe(window.length * 2);
      window.copy(bigger, 0, 0, kept);
      window = bigger;
    }
    const read = readSync(
      fd,
      window,
      kept,
      Math.min(window.length - kept, end - position),
      position,
    );
    if (read === 0) throw new Error('the file is shorter than it was');
    const windowOffset = position - kept;
    position += read;
    const filled = kept + read;
    let at = 0;
    line.bytes = window;
    for (;;) {
      let newline = window.indexOf(NEWLINE, at);
      if (newline === -1 || newline >= filled) {
        if (position < end) break;
        newline = filled; // the last line of the range needs no newline
        if (at === filled) break;
      }
      line.from = at;
      line.to = newline > at && window[newline - 1] === 0x0d ? newline - 1 : newline;
      line.offset = windowOffset + at;
      yield line;
      at = newline + 1;
      if (at > filled) break;
    }
    kept = Math.max(0, filled - at);
    if (kept > 0) window.copy(window, 0, at, filled);
  }
}

/**
 * What `read` makes of the file at `path`, opened for reading and closed after; undefined when the
 * file cannot be opened or `read` throws (a file that is not what the caller looks for).
 */
export function readOpened<T>(path: string, read: (fd: number) => T | undefined): T | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    return read(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
