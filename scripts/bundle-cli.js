// Bundles the CLI into one file (lib/cli.bundle.js) so a cold `evals run` loads one module instead
// of a few hundred (our files plus ajv, yaml and csv-parse): ~150 ms less start-up on a 2-core
// machine. Modules the CLI imports dynamically (testset, compare, init, git reads, the baseline
// statistics) stay inside but are only evaluated when used. (Code-splitting them into chunks was
// measured: the extra module loads cost what the smaller file saved.) The library entry
// (lib/index.js) stays as tsc emits it, with its .d.ts files.
import { buildSync } from 'esbuild';
import { bundleOptions } from './esbuild-options.js';

buildSync({ ...bundleOptions('src/cli.ts', 'lib/cli.bundle.js'), legalComments: 'linked' });
