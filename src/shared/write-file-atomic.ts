import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  type Stats,
} from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { openFifo, requireReader, STREAM_FLAGS } from './open-stream.ts';

/** Chunks are gathered up to this size before each write: few syscalls, bounded memory. */
const BATCH_CHARS = 1 << 20;

/** Paths that name an open file descriptor of this process rather than a file. */
const OPEN_DESCRIPTOR = /^\/(?:dev\/(?:stdout|stderr|fd\/\d+)|proc\/self\/fd\/\d+)$/;

/** Links followed before a chain of symbolic links counts as a loop (Linux's own limit). */
const MAX_LINKS = 40;

/**
 * What writing a file at a path the user named does, decided by what is there now:
 * - `file`: nothing, or a regular file: a temporary file is renamed onto `path`, which is the
 *   path as given, or where its symbolic links lead (`linked`), so a link stays a link and its
 *   target gets the content;
 * - `stream`: a character device (`/dev/null`, a terminal) or a FIFO: written into as it is,
 *   since renaming a regular file onto it would replace the device node or the pipe;
 * - `folder`, and `other` (a block device, a socket, a loop of links): nothing can be written.
 */
export type OutputTarget =
  | { kind: 'file'; path: string; exists: boolean; linked: boolean }
  | { kind: 'stream'; path: string; what: string }
  | { kind: 'folder'; path: string }
  | { kind: 'other'; path: string; what: string };

/**
 * Where and how a file named by `path` (absolute) is written; see {@link OutputTarget}. `stats`
 * is what `path` leads to, when something is there (for telling two names of one file apart).
 */
export function outputTarget(path: string): OutputTarget & { stats?: Stats } {
  // `stat` follows links the kernel's way: also `/dev/stdout` → `/proc/self/fd/1` → `pipe:[N]`,
  // which no link-by-link resolution can follow.
  const stats = statOrUndefined(path, statSync);
  // A name of an open descriptor (`/dev/stdout`, `/dev/fd/3`) is written into whatever it
  // leads to, appending: renaming over a file behind `>> log` would lose what the log held.
  if (stats !== undefined && !stats.isDirectory() && OPEN_DESCRIPTOR.test(path)) {
    return { kind: 'stream', path, what: 'an open descriptor', stats };
  }
  if (stats !== undefined) {
    if (stats.isCharacterDevice())
      return { kind: 'stream', path, what: 'a character device', stats };
    if (stats.isFIFO()) return { kind: 'stream', path, what: 'a FIFO', stats };
    if (stats.isDirectory()) return { kind: 'folder', path, stats };
    if (!stats.isFile()) return { kind: 'other', path, what: kindOf(stats), stats };
    const real = realPathOr(path);
    return { kind: 'file', path: real, exists: true, linked: real !== path, stats };
  }
  // Nothing is there, or a link leads nowhere: follow the links to the path they name.
  let at = path;
  for (let links = 0; links <= MAX_LINKS; links++) {
    const own = statOrUndefined(at, lstatSync);
    if (own === undefined || !own.isSymbolicLink()) {
      // Its folder's real path, so two names of one file to be are one path.
      const real = join(realPathOr(dirname(at)), basename(at));
      return { kind: 'file', path: real, exists: false, linked: at !== path };
    }
    at = resolve(realPathOr(dirname(at)), readlinkSync(at));
  }
  return { kind: 'other', path, what: 'a loop of symbolic links' };
}

/**
 * Writes through a temporary file and a rename, so an interrupted write never leaves a truncated
 * artifact where a complete one is expected. Creates the parent folder. Accepts the text whole
 * or as chunks (a large artifact is serialized case by case).
 */
export async function writeFileAtomic(
  path: string,
  text: string | Iterable<string>,
): Promise<void> {
  await writeAtomically(path, async (file) => {
    let batch = '';
    for (const chunk of typeof text === 'string' ? [text] : text) {
      batch += chunk;
      if (batch.length >= BATCH_CHARS) {
        await writeWhole(file, batch);
        batch = '';
      }
    }
    if (batch) await writeWhole(file, batch);
  });
}

/**
 * Writes all of `text` at the file's position. A write may take fewer bytes than it was given,
 * with no error: a disk that fills up takes what fits, and only the next write fails (ENOSPC).
 * So each write goes on with the rest until none is left, and that next write's error is what
 * the caller sees, instead of a file cut short that looks written.
 */
async function writeWhole(file: FileHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await file.write(bytes, done, bytes.length - done);
    if (bytesWritten <= 0) throw noProgress(file.fd, bytes.length - done);
    done += bytesWritten;
  }
}

/**
 * A write that took none of its bytes and gave no error: trying again would spin for good, so it
 * fails like a write that gave one.
 */
export function noProgress(fd: number, left: number): Error {
  return Object.assign(new Error(`a write to descriptor ${fd} took none of its ${left} bytes`), {
    code: 'EIO',
  });
}

/**
 * The mechanism under {@link writeFileAtomic}, for writers of their own (the case spool copies
 * bytes): `write` fills a temporary file next to `path`, which then replaces `path`; if `write`
 * fails, the temporary file is removed and `path` is left as it was. A symbolic link is followed
 * and its target replaced; a character device or FIFO is written into directly (a stream has
 * nothing to keep whole); a block device or socket is refused (`ENOTREG`) before anything.
 */
export async function writeAtomically(
  path: string,
  write: (file: FileHandle) => Promise<void> | void,
): Promise<void> {
  const target = writePlan(resolve(path));
  if (target.stream) {
    const file = target.fifo ? await openFifo(target.path) : await open(target.path, STREAM_FLAGS);
    try {
      assertStream(await file.stat(), target.path);
      await write(file);
    } finally {
      await file.close();
    }
    return;
  }
  if (target.createFolder) {
    await mkdir(dirname(target.path), { recursive: true });
  }
  const tmp = temporaryPath(target.path);
  const file = await open(tmp, 'w');
  try {
    try {
      await write(file);
      // On disk before it takes the target's name: else a power cut after the rename can
      // leave an empty file where the complete one was (the rename reaches the disk first).
      await file.sync();
    } finally {
      // Closed in any case; a close that fails (a network file system reports a full disk
      // only then) fails the write as well.
      await file.close();
    }
  } catch (error) {
    // Whatever the temporary file holds is not the whole file: `path` keeps what it had.
    await rm(tmp, { force: true });
    throw error;
  }
  try {
    await rename(tmp, target.path);
  } catch (error) {
    throw new WriteKeptError(tmp, error);
  }
  syncFolder(dirname(target.path));
}

/**
 * {@link writeAtomically}, synchronously, for a write that must finish before the process
 * exits (the partial artifact of a run cut short from inside, in an `exit` listener).
 */
export function writeAtomicallySync(path: string, write: (fd: number) => void): void {
  const target = writePlan(resolve(path));
  if (target.stream) {
    requireReader(target.path);
    const fd = openSync(target.path, STREAM_FLAGS);
    try {
      assertStream(fstatSync(fd), target.path);
      write(fd);
    } finally {
      closeSync(fd);
    }
    return;
  }
  if (target.createFolder) {
    mkdirSync(dirname(target.path), { recursive: true });
  }
  const tmp = temporaryPath(target.path);
  const fd = openSync(tmp, 'w');
  try {
    try {
      write(fd);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  try {
    renameSync(tmp, target.path);
  } catch (error) {
    throw new WriteKeptError(tmp, error);
  }
  syncFolder(dirname(target.path));
}

/**
 * Makes the rename durable: the folder's entry for the new file reaches the disk. Some
 * platforms and file systems refuse to sync a folder (EINVAL, EISDIR), which leaves nothing to
 * do. Any other failure is thrown: the file is in place, but whether it survives a power cut is
 * unknown, and the caller reports that as a write that failed. Synchronous: it runs once per
 * file written (the artifact and reports at the end of a run), never per case.
 */
export function syncFolder(folder: string): void {
  let fd: number;
  try {
    fd = openSync(folder, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
  } catch (error) {
    // Windows opens no folder as a file: there, a rename is as durable as it gets.
    if (refusesFolderSync(error)) return;
    throw unsynced(folder, error);
  }
  try {
    fsyncSync(fd);
  } catch (error) {
    if (!refusesFolderSync(error)) throw unsynced(folder, error);
  } finally {
    closeSync(fd);
  }
}

/** The errors of a platform or file system that cannot sync a folder at all. */
function refusesFolderSync(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EINVAL' || code === 'EISDIR';
}

/** A folder sync that failed after the rename: the file is there, its durability unknown. */
function unsynced(folder: string, error: unknown): Error {
  const cause = error as NodeJS.ErrnoException;
  return Object.assign(
    new Error(
      `the file was renamed into ${folder}, but that folder could not be synced to disk: ${cause.message}`,
    ),
    { code: cause.code ?? 'EIO', cause },
  );
}

/** Where a writer puts the file, whether it is a stream, and whether to create its folder. */
interface WritePlan {
  path: string;
  stream: boolean;
  /** A FIFO (also a pipe behind `/dev/stdout`): opening it waits for a reader. */
  fifo: boolean;
  createFolder: boolean;
}

/**
 * {@link outputTarget} for a writer. A folder is left to the rename to refuse (the complete
 * file is then kept, see {@link WriteKeptError}); a block device or a socket is refused here,
 * before any temporary file exists. Only a path as given gets its folder created: the folder of
 * a link's target is the link's business.
 */
function writePlan(path: string): WritePlan {
  const target = outputTarget(path);
  switch (target.kind) {
    case 'other':
      throw Object.assign(
        new Error(`${path} is ${target.what}, not a regular file, a FIFO or a character device`),
        { code: 'ENOTREG' },
      );
    case 'stream':
      return {
        path: target.path,
        stream: true,
        fifo: target.stats?.isFIFO() === true,
        createFolder: false,
      };
    case 'folder':
      return { path: target.path, stream: false, fifo: false, createFolder: false };
    case 'file':
      return { path: target.path, stream: false, fifo: false, createFolder: !target.linked };
  }
}

/**
 * Throws unless the opened node is still a stream: a regular file put in its place since it was
 * looked at would be written over in place, neither atomically nor truncated.
 */
function assertStream(stats: Stats, path: string): void {
  if (stats.isCharacterDevice() || stats.isFIFO()) return;
  // A descriptor's name may lead to a regular file (`>> log`): appended to, as the shell set up.
  if (stats.isFile() && OPEN_DESCRIPTOR.test(path)) return;
  throw Object.assign(new Error(`${path} was replaced while it was opened; nothing was written`), {
    code: 'ECHANGED',
  });
}

/** Unique per call, so two writes of one path in flight never share a temporary file. */
function temporaryPath(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

function statOrUndefined(path: string, stat: (path: string) => Stats): Stats | undefined {
  try {
    return stat(path);
  } catch {
    return undefined;
  }
}

function realPathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function kindOf(stats: Stats): string {
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'a special file';
}

/**
 * The complete file was written but could not be moved into place (the target is a folder,
 * say): the temporary file is kept, and `kept` says where, so the results are not lost.
 */
export class WriteKeptError extends Error {
  readonly code = 'write.kept';
  constructor(
    readonly kept: string,
    override readonly cause: unknown,
  ) {
    super(`${(cause as Error).message ?? String(cause)} (the complete file is kept at ${kept})`);
  }
}
