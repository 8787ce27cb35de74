// The esbuild settings shared by the CLI bundle (lib/cli.bundle.js) and the Action (dist/index.js):
// one ESM file for Node 20+, dependencies inside, tsx and esbuild outside (tsx registers loader
// files relative to its own location; esbuild needs its native binary), and string-width in a
// file of its own next to the bundle, loaded only when a table measures text that is not plain
// ASCII (src/shared/text-table.ts).
import { fileURLToPath } from 'node:url';

/** Points src/shared/string-width-module.ts at the copy of string-width next to the bundle. */
const stringWidthNextToBundle = {
  name: 'string-width-next-to-bundle',
  /** @param {import('esbuild').PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /[\\/]string-width-module\.ts$/ }, () => ({
      path: fileURLToPath(new URL('../src/shared/string-width-module.bundled.ts', import.meta.url)),
    }));
  },
};

/**
 * The settings of that copy: string-width and its dependencies as one CommonJS file, which a
 * bundle loads with a plain `require` when first needed.
 * @param {string} outfile path under the repo
 */
export function stringWidthOptions(outfile) {
  return {
    entryPoints: [fileURLToPath(import.meta.resolve('string-width'))],
    outfile: new URL(`../${outfile}`, import.meta.url).pathname,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    charset: 'ascii',
    legalComments: 'eof',
    logLevel: 'warning',
  };
}

/** @param {string} entry path under the repo @param {string} outfile path under the repo */
export function bundleOptions(entry, outfile) {
  return {
    entryPoints: [new URL(`../${entry}`, import.meta.url).pathname],
    outfile: new URL(`../${outfile}`, import.meta.url).pathname,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Non-ASCII text stays escaped (also inside regular expressions, which esbuild would
    // otherwise keep as written): a file with one such character is held by V8 as two bytes a
    // character, which for the CLI bundle is ~1 MB more memory in every run.
    charset: 'ascii',
    external: ['tsx', 'tsx/*', 'esbuild'],
    plugins: [stringWidthNextToBundle],
    // CommonJS dependencies (ajv, parts of @actions/*) call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __evalgateRequire } from 'node:module'; const require = __evalgateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  };
}
