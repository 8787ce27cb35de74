import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Chunks are gathered up to this size before each write: few syscalls, bounded memory. */
const BATCH_CHARS = 1 << 20;

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
        await file.write(batch);
        batch = '';
      }
    }
    if (batch) await file.write(batch);
  });
}

/**
 * The mechanism under {@link writeFileAtomic}, for writers of their own (the case spool copies
 * bytes): `write` fills a temporary file next to `path`, which then replaces `path`; if `write`
 * fails, the temporary file is removed and `path` is left as it was.
 */
export async function writeAtomically(
  path: string,
  write: (file: FileHandle) => Promise<void> | void,
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = temporaryPath(path);
  const file = await open(tmp, 'w');
  try {
    await write(file);
  } catch (error) {
    await file.close();
    await rm(tmp, { force: true });
    throw error;
  }
  await file.close();
  await renameOrKeep(() => rename(tmp, path), tmp);
}

/**
 * {@link writeAtomically}, synchronously, for a write that must finish before the process
 * exits (the partial artifact of a run cut short from inside, in an `exit` listener).
 */
export function writeAtomicallySync(path: string, write: (fd: number) => void): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = temporaryPath(path);
  const fd = openSync(tmp, 'w');
  try {
    write(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (error) {
    throw new WriteKeptError(tmp, error);
  }
}

/** Unique per call, so two writes of one path in flight never share a temporary file. */
function temporaryPath(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
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

async function renameOrKeep(rename: () => Promise<void>, tmp: string): Promise<void> {
  try {
    await rename();
  } catch (error) {
    throw new WriteKeptError(tmp, error);
  }
}
