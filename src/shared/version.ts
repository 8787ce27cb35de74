import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package version, from evalgate's own package.json. Found by walking up from this module,
 * because the same code runs from src/, lib/, lib/bundle/ and the Action's dist/.
 */
export const toolVersion: string = findVersion(dirname(fileURLToPath(import.meta.url)));

function findVersion(start: string): string {
  for (let dir = start, depth = 0; depth < 6; dir = dirname(dir), depth++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'evalgate' && pkg.version) return pkg.version;
    } catch {
      // no package.json here: keep walking up
    }
    if (dirname(dir) === dir) break;
  }
  return '0.0.0-unknown';
}
