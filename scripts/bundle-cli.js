// Bundles the CLI into one file (lib/cli.bundle.js) so a cold `evals run` resolves and compiles
// one module instead of a few hundred (our files plus ajv, yaml and csv-parse): ~150 ms less
// start-up on a 2-core machine. tsx stays external: it registers loader files relative to its
// own location, so it must be imported from node_modules. The library entry (lib/index.js) stays
// as tsc emits it, with its .d.ts files.
import { buildSync } from 'esbuild';

buildSync({
  entryPoints: [new URL('../src/cli.ts', import.meta.url).pathname],
  outfile: new URL('../lib/cli.bundle.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['tsx', 'tsx/*', 'esbuild'],
  // CommonJS dependencies (ajv) call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __evalgateRequire } from 'node:module'; const require = __evalgateRequire(import.meta.url);",
  },
  legalComments: 'linked',
  logLevel: 'warning',
});
