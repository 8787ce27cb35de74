/**
 * Atomic writes are durable: the temporary file is synced before it takes the target's name,
 * and the folder after, so a power cut never leaves an empty file where a complete one was.
 * No strace-free observable shows a sync that succeeded, so this pins what can be seen: the
 * writes still produce the whole file with no temporary left, and a folder that cannot be
 * synced is a clear error naming it (a write failure to the caller, exit 3 for `evals run`).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  syncFolder,
  writeAtomicallySync,
  writeFileAtomic,
} from '../src/shared/write-file-atomic.ts';
import { scratch } from './helpers/cli.ts';

describe('durable atomic writes', () => {
  it('writes the whole file, async and sync, and leaves no temporary file', async () => {
    const dir = scratch();
    await writeFileAtomic(join(dir, 'a.json'), ['{"a":', '1}\n']);
    writeAtomicallySync(join(dir, 'b.json'), (fd) => writeSync(fd, '{"b":2}\n'));
    assert.equal(readFileSync(join(dir, 'a.json'), 'utf8'), '{"a":1}\n');
    assert.equal(readFileSync(join(dir, 'b.json'), 'utf8'), '{"b":2}\n');
    assert.deepEqual(readdirSync(dir).sort(), ['a.json', 'b.json']);
  });

  it('syncs a folder that is there', () => {
    assert.doesNotThrow(() => syncFolder(scratch()));
  });

  it('a folder that cannot be synced is an error naming it, with its code', () => {
    const gone = join(scratch(), 'gone');
    assert.throws(
      () => syncFolder(gone),
      (error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' &&
        error.message.startsWith(
          `the file was renamed into ${gone}, but that folder could not be synced to disk: ENOENT`,
        ),
    );
  });
});
