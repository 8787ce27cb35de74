// Rewrites the relative `.ts` specifiers tsc keeps in lib/**/*.d.ts (rewriteRelativeImportExtensions
// only rewrites the JavaScript) to `.js`, so the shipped declarations load under TypeScript 4.9
// to 5.x, which refuse a `.ts` import path in a declaration file.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const lib = fileURLToPath(new URL('../lib', import.meta.url));
// `from './x.ts'`, `import './x.ts'`, `import('./x.ts')`: relative specifiers only.
const SPECIFIER = /((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*?)\.ts\2/g;

let changed = 0;
for (const entry of readdirSync(lib, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const path = join(entry.parentPath, entry.name);
  const text = readFileSync(path, 'utf8');
  const rewritten = text.replace(SPECIFIER, '$1$2$3.js$2');
  if (rewritten !== text) {
    writeFileSync(path, rewritten);
    changed++;
  }
}
console.log(`declaration-specifiers: ${changed} declaration files rewritten`);
