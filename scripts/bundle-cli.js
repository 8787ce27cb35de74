// Bundles the CLI into one file (lib/cli.bundle.js) so a cold `evals run` resolves and compiles
// one module instead of a few hundred (our files plus ajv, yaml and csv-parse): ~150 ms less
// start-up on a 2-core machine. The library entry (lib/index.js) stays as tsc emits it, with its
// .d.ts files.
import { buildSync } from 'esbuild';
import { bundleOptions } from './esbuild-options.js';

buildSync({ ...bundleOptions('src/cli.ts', 'lib/cli.bundle.js'), legalComments: 'linked' });
