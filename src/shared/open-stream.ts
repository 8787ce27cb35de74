/**
 * How a stream output (a FIFO, a character device, a descriptor's name) is opened to write into:
 * as it is, and for a FIFO only once a process reads it, without ever holding a thread of libuv's
 * pool while none does.
 */
import { closeSync, constants, openSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a FIFO with no reader is tried again. */
const READER_POLL_MS = 100;

/**
 * A stream is opened as it is: no `O_CREAT` (a device node that has gone is not recreated as a
 * regular file), no `O_TRUNC` (meaningless there), no `O_NONBLOCK` (a full pipe makes a write
 * wait instead of failing with `EAGAIN`; a FIFO's wait for its reader is {@link openFifo}'s),
 * and `O_NOCTTY` so opening a terminal never makes it the process's controlling terminal.
 */
export const STREAM_FLAGS = constants.O_WRONLY | constants.O_APPEND | (constants.O_NOCTTY ?? 0);

/**
 * Opens a FIFO to write once a process reads it, as `cat > fifo` does, but with the wait on the
 * event loop: a blocking `open` with no reader would hold a thread of libuv's pool, and Node's
 * `process.exit` waits for that pool, so a second Ctrl-C that quits would hang for good. So the
 * FIFO is opened non-blocking, tried again on a timer while no process reads it (`ENXIO`); once
 * one does, it is opened again blocking, which its reader lets succeed at once (unless it left
 * in that instant), so that a full pipe makes a write wait rather than fail with `EAGAIN`.
 */
export async function openFifo(path: string): Promise<FileHandle> {
  for (;;) {
    let probe: FileHandle;
    try {
      probe = await open(path, STREAM_FLAGS | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      await sleep(READER_POLL_MS);
      continue;
    }
    try {
      return await open(path, STREAM_FLAGS);
    } finally {
      await probe.close();
    }
  }
}

/**
 * Throws when `path` is a FIFO no process reads: opening it to write would block the process for
 * good, and this synchronous write runs as the process exits, where no signal could stop it.
 */
export function requireReader(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
    throw Object.assign(new Error(`${path} is a FIFO that nothing reads; nothing was written`), {
      code: 'ENXIO',
    });
  }
  closeSync(fd);
}
