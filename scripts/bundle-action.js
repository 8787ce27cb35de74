// Bundles the Action into dist/index.js (committed: the Action runs it without installing
// anything). @actions/* and every other dependency go inside; tsx and esbuild stay external
// because tsx registers loader files relative to its own location and esbuild needs its native
// binary: at run time they are found in the user's workspace (src/modules/typescript-loader.ts).
// `--check` rebuilds in memory and fails when the committed dist/ differs (run by `npm test`).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { buildSync } from 'esbuild';

const outfile = new URL('../dist/index.js', import.meta.url).pathname;
const result = buildSync({
  entryPoints: [new URL('../src/action/index.ts', import.meta.url).pathname],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['tsx', 'tsx/*', 'esbuild'],
  banner: {
    js: "import { createRequire as __evalgateRequire } from 'node:module'; const require = __evalgateRequire(import.meta.url);",
  },
  legalComments: 'eof',
  write: false,
  logLevel: 'warning',
});
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
