import { readdir } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { editDistance } from '../../shared/edit-distance.ts';

/** Extensions a module file may have, in the order a suggestion prefers them. */
const MODULE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx'];

/**
 * For a module path that does not exist, the file the user most likely meant: the same name
 * with another module extension (`answer.js` written, `answer.ts` on disk; or no extension at
 * all), else the closest spelling among module files in the same folder (`answr.ts` →
 * `answer.ts`). Returns an absolute path, or undefined when nothing is close.
 */
export async function suggestSibling(file: string): Promise<string | undefined> {
  const dir = dirname(file);
  const candidates = await moduleFilesIn(dir);
  if (candidates.length === 0) return undefined;
  const wanted = basename(file);
  const stem = stripModuleExtension(wanted);
  const sameStem = candidates
    .filter((name) => stripModuleExtension(name) === stem)
    .sort((a, b) => extensionRank(a) - extensionRank(b));
  if (sameStem[0] !== undefined) return join(dir, sameStem[0]);

  // A typo is a few edits; allow more for longer names, but never so many that any file matches.
  const limit = Math.max(1, Math.min(3, Math.floor(wanted.length / 4)));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates.sort()) {
    const { distance } = editDistance(wanted.toLowerCase(), name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) {
      best = { name, distance };
    }
  }
  return best && join(dir, best.name);
}

/** For a path that is a folder, its `index` module file, if it has one. */
export async function suggestIndexFile(dir: string): Promise<string | undefined> {
  const files = await moduleFilesIn(dir);
  const index = files
    .filter((name) => stripModuleExtension(name) === 'index')
    .sort((a, b) => extensionRank(a) - extensionRank(b));
  return index[0] && join(dir, index[0]);
}

async function moduleFilesIn(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && extensionRank(e.name) !== -1)
      .map((e) => e.name);
  } catch {
    // The folder itself is missing or unreadable: nothing to suggest.
    return [];
  }
}

function extensionRank(name: string): number {
  return MODULE_EXTENSIONS.indexOf(extname(name));
}

function stripModuleExtension(name: string): string {
  return extensionRank(name) === -1 ? name : name.slice(0, -extname(name).length);
}
