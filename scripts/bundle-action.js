// Bundles the Action into dist/index.js (committed: the Action runs it without installing
// anything). @actions/* and every other dependency go inside; tsx is found at run time in the
// user's workspace (src/bind/modules/typescript-loader.ts).
// `--check` rebuilds in memory and fails when the committed dist/ differs (run by `npm test`).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { buildSync } from 'esbuild';
import { bundleOptions } from './esbuild-options.js';

const options = bundleOptions('src/action/index.ts', 'dist/index.js');
const outfile = options.outfile;
const result = buildSync({ ...options, legalComments: 'eof', write: false });
const text = result.outputFiles[0].text;

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(outfile, 'utf8');
  } catch {
    // missing: stale
  }
  if (committed !== text) {
    console.error(
      'dist/index.js is stale: run `npm run bundle` and commit dist/ (the Action runs dist/, not src/)',
    );
    process.exit(1);
  }
  console.log('dist/index.js is up to date');
} else {
  mkdirSync(new URL('../dist/', import.meta.url), { recursive: true });
  writeFileSync(outfile, text);
  console.log(`wrote dist/index.js (${(text.length / 1024).toFixed(0)} KiB)`);
}
