// Bundles the Action into dist/index.js (committed: the Action runs it without installing
// anything). @actions/* and every other dependency go inside; tsx is found at run time in the
// user's workspace (src/bind/modules/typescript-loader.ts).
// `--check` rebuilds in memory and fails when the committed dist/ differs (run by `npm test`).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { build } from 'esbuild';
import { ajvOptions, bundleOptions, stringWidthOptions } from './esbuild-options.js';

// The Action, and what must sit next to it: the program of its `isolation: worker` threads
// (src/bind/function-worker-entry.ts), string-width (src/shared/string-width-module.ts) and ajv
// (src/shared/ajv-module.ts).
const bundles = await Promise.all(
  [
    [bundleOptions('src/action/index.ts', 'dist/index.js'), 'dist/index.js'],
    [
      bundleOptions('src/bind/function-worker.ts', 'dist/function-worker.js'),
      'dist/function-worker.js',
    ],
    [stringWidthOptions('dist/string-width.cjs'), 'dist/string-width.cjs'],
    [ajvOptions('dist/ajv.cjs'), 'dist/ajv.cjs'],
  ].map(async ([options, name]) => {
    const result = await build({ ...options, legalComments: 'eof', write: false });
    return { name, outfile: options.outfile, text: result.outputFiles[0].text };
  }),
);

if (process.argv.includes('--check')) {
  const stale = bundles.filter(({ outfile, text }) => {
    let committed = '';
    try {
      committed = readFileSync(outfile, 'utf8');
    } catch {
      // missing: stale
    }
    return committed !== text;
  });
  if (stale.length > 0) {
    console.error(
      `${stale.map((b) => b.name).join(' and ')} ${stale.length > 1 ? 'are' : 'is'} stale: run \`npm run bundle\` and commit dist/ (the Action runs dist/, not src/)`,
    );
    process.exit(1);
  }
  console.log('dist/ is up to date');
} else {
  mkdirSync(new URL('../dist/', import.meta.url), { recursive: true });
  for (const { name, outfile, text } of bundles) {
    writeFileSync(outfile, text);
    console.log(`wrote ${name} (${(text.length / 1024).toFixed(0)} KiB)`);
  }
}
