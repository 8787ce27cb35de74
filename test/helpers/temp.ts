/**
 * Temp folders of a test process, removed as it exits (one process per test file), so runs
 * leave nothing behind; `EVALGATE_KEEP_SCRATCH=1` keeps them, to look into a failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folders (and files beside them) this test process made, removed as it exits. */
const scratchFolders: string[] = [];

function removeScratchFolders(): void {
  for (const dir of scratchFolders) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A folder a test left unremovable stays; the others still go.
    }
  }
}

/** A fresh, empty temp folder named `<prefix>XXXXXX`, removed as the test process exits. */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  removeAtExit(dir);
  return dir;
}

function removeAtExit(path: string): void {
  if (scratchFolders.length === 0 && process.env['EVALGATE_KEEP_SCRATCH'] !== '1') {
    process.on('exit', removeScratchFolders);
  }
  scratchFolders.push(path);
}

/**
 * A path beside the scratch folder `dir` (`<dir>-<suffix>`), for a file that must not be inside
 * the project (the Action's event payload, its step summary): removed with the folder.
 */
export function besideScratch(dir: string, suffix: string): string {
  const path = `${dir}-${suffix}`;
  removeAtExit(path);
  return path;
}
