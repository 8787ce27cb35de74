// Bundles the CLI into one file (lib/cli.bundle.js) so a cold `evals run` loads one module instead
// of a few hundred (our files plus ajv, yaml and csv-parse): ~150 ms less start-up on a 2-core
// machine. Modules the CLI imports dynamically (testset, compare, init, git reads, the baseline
// statistics) stay inside but are only evaluated when used. (Code-splitting them into chunks was
// measured: the extra module loads cost what the smaller file saved.) The library entry
// (lib/index.js) stays as tsc emits it, with its .d.ts files.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { ajvOptions, bundleOptions, stringWidthOptions } from './esbuild-options.js';

const options = bundleOptions('src/cli/main.ts', 'lib/cli.bundle.js');
// Whitespace and syntax minified, names kept (a bug's stack trace still names its functions):
// the file is 0.97 MB instead of 1.4 MB, and a 10,000-case run peaks ~3 MB lower (72 vs 75 MB;
// Node holds the source, and parses it, in every run). Minified names too would save ~0.7 MB
// more, not worth unreadable traces. The Action's dist/index.js is left readable.
await build({
  ...options,
  legalComments: 'linked',
  minifyWhitespace: true,
  minifySyntax: true,
  // Node reads the map only with --enable-source-maps (NODE_OPTIONS), so it costs a run nothing;
  // with it, a bug's stack trace points into src/ instead of column 300,000 of line 1.
  sourcemap: 'linked',
  sourcesContent: false,
});

// The program of `isolation: worker` threads, next to the bundle that starts them (see
// src/bind/function-worker-entry.ts); one file, so a thread starts without a few dozen imports.
await build({
  ...bundleOptions('src/bind/function-worker.ts', 'lib/function-worker.js'),
  legalComments: 'linked',
  minifyWhitespace: true,
  minifySyntax: true,
});

// string-width, which the bundle loads from next to it when a table first measures text that is
// not plain ASCII (src/shared/string-width-module.ts).
await build({ ...stringWidthOptions('lib/string-width.cjs'), minifyWhitespace: true });

// ajv, which the bundle loads from next to it when it first compiles a schema
// (src/shared/ajv-module.ts).
await build({ ...ajvOptions('lib/ajv.cjs'), minifyWhitespace: true });

// One character above U+007F anywhere (esbuild leaves regular expression literals as written)
// makes V8 hold the whole ~1 MB source as two bytes a character, in every run: write such
// characters as \u escapes in src/.
const text = readFileSync(options.outfile, 'utf8');
const at = text.search(/[^\x00-\x7f]/);
if (at !== -1) {
  const line = text.slice(0, at).split('\n').length;
  console.error(
    `lib/cli.bundle.js:${line}: non-ASCII character ${JSON.stringify(text[at])}; write it as a \\u escape in src/`,
  );
  process.exit(1);
}
