/**
 * Whole reads and writes on a file descriptor: `readSync` and `writeSync` may move fewer bytes
 * than asked, so each loops until done (or, reading, until the file ends).
 */
import { readSync, writeSync } from 'node:fs';
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
export function writeAll(fd: number, bytes: Buffer): number {
  let done = 0;
  while (done < bytes.length) {
    const wrote = writeSync(fd, bytes, done, bytes.length - done);
    // No bytes and no error: trying again would spin for good.
    if (wrote <= 0) throw noProgress(fd, bytes.length - done);
    done += wrote;
  }
  return done;
}
