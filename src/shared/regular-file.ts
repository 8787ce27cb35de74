/**
 * Reading a file the user named (a config, a testset) only when it is a regular file. A FIFO
 * blocks `open` until a writer comes (a thread of libuv's pool then waits forever, and the
 * process cannot exit on SIGTERM), and `/dev/zero` never ends; both are refused before any read.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** An error with an errno-style `code`, as `fs` throws: `ENOENT`, `EISDIR`, `ENOTREG`, `EFBIG`. */
export type FileError = Error & { code: string };

/** A regular file opened for reading, and its size when it was opened. */
export interface RegularFile {
  handle: FileHandle;
  size: number;
}

/**
 * Opens `path` for reading. `O_NONBLOCK` makes opening a FIFO return at once instead of waiting
 * for a writer; the kind is then checked on the opened descriptor, so the file cannot be swapped
 * between the check and the read. Rejects with a {@link FileError}: `ENOTREG` for anything but a
 * regular file (`EISDIR` for a directory), `EFBIG` when it holds more than `maxBytes`.
 */
export async function openRegularFile(path: string, maxBytes: number): Promise<RegularFile> {
  // O_NONBLOCK does not exist on Windows, where a FIFO cannot be opened this way anyway.
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw fileError('EISDIR', 'it is a directory');
    if (!stats.isFile()) {
      throw fileError('ENOTREG', `it is ${kindOf(stats)}, not a regular file`);
    }
    if (stats.size > maxBytes) {
      throw fileError('EFBIG', `it holds ${mib(stats.size)}, more than the ${mib(maxBytes)} read`);
    }
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * The text of a regular file (see {@link openRegularFile}), at most the size it had when opened:
 * a file that grows while it is read is not followed.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<string> {
  return (await readRegularFileBytes(path, maxBytes)).toString('utf8');
}

/** The bytes of a regular file, as {@link readRegularFile} reads them, not decoded. */
export async function readRegularFileBytes(path: string, maxBytes: number): Promise<Buffer> {
  const { handle, size } = await openRegularFile(path, maxBytes);
  try {
    const buffer = Buffer.alloc(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/**
 * {@link readRegularFileBytes} for callers that cannot wait (a store read while a judge is
 * made): the same checks on the opened descriptor, the same errors.
 */
export function readRegularFileSync(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw fileError('EISDIR', 'it is a directory');
    if (!stats.isFile()) throw fileError('ENOTREG', `it is ${kindOf(stats)}, not a regular file`);
    if (stats.size > maxBytes) {
      throw fileError('EFBIG', `it holds ${mib(stats.size)}, more than the ${mib(maxBytes)} read`);
    }
    const buffer = Buffer.alloc(stats.size);
    let filled = 0;
    while (filled < stats.size) {
      const read = readSync(fd, buffer, filled, stats.size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

/** True for an error from this module or `fs` carrying an errno-style code. */
export function isFileError(error: unknown): error is FileError {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
}

function fileError(code: string, message: string): FileError {
  return Object.assign(new Error(message), { code });
}

/** What a file that is not a regular one is, for messages: `a FIFO (named pipe)`, `a socket`. */
export function kindOf(stats: {
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'a special file';
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 0)} MiB`;
}
