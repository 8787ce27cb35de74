import { randomBytes } from 'node:crypto';
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
  // Unique per call, so two writes of one path in flight never share a temporary file.
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const file = await open(tmp, 'w');
  try {
    await write(file);
  } catch (error) {
    await file.close();
    await rm(tmp, { force: true });
    throw error;
  }
  await file.close();
  await rename(tmp, path);
}
