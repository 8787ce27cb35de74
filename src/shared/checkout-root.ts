import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The root of the git checkout holding `dir`: the nearest folder at or above it with a `.git`
 * (a folder, or a file in a worktree or submodule); `null` outside any checkout.
 */
export function checkoutRoot(dir: string): string | null {
  for (let current = resolve(dir), depth = 0; depth < 64; depth++) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return null;
}
