// The esbuild settings shared by the CLI bundle (lib/cli.bundle.js) and the Action (dist/index.js):
// one ESM file for Node 20+, dependencies inside, tsx and esbuild outside (tsx registers loader
// files relative to its own location; esbuild needs its native binary), and two dependencies in
// files of their own next to the bundle: string-width, loaded only when a table measures text
// that is not plain ASCII (src/shared/text-table.ts), and ajv, loaded only when a schema is
// compiled (src/shared/ajv-module.ts).
import { fileURLToPath } from 'node:url';

/**
 * Points src/shared/string-width-module.ts and src/shared/ajv-module.ts at their `.bundled.ts`
 * twins, which load the copies next to the bundle.
 */
const sideFilesNextToBundle = {
  name: 'side-files-next-to-bundle',
  /** @param {import('esbuild').PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /[\\/](string-width|ajv)-module\.ts$/ }, (args) => ({
      path: fileURLToPath(
        new URL(
          `../src/shared/${args.path.match(/(string-width|ajv)-module/)[0]}.bundled.ts`,
          import.meta.url,
        ),
      ),
    }));
  },
};

/**
 * The settings of the string-width copy (src/shared/string-width-module.bundled.ts):
 * string-width and its dependencies as one CommonJS file, which a bundle loads with a plain
 * `require` when first needed.
 * @param {string} outfile path under the repo
 */
export function stringWidthOptions(outfile) {
  return sideFileOptions(fileURLToPath(import.meta.resolve('string-width')), outfile);
}

/**
 * The settings of the ajv copy (src/shared/ajv-module.bundled.ts): ajv's three validator classes
 * as one CommonJS file, which a bundle loads with a plain `require` when it first compiles a
 * schema. A run that compiles none (most) neither holds ajv's ~0.2 MB of code nor evaluates it.
 * @param {string} outfile path under the repo
 */
export function ajvOptions(outfile) {
  return sideFileOptions(fileURLToPath(new URL('./ajv-classes.cjs', import.meta.url)), outfile);
}

/** @param {string} entry absolute path @param {string} outfile path under the repo */
function sideFileOptions(entry, outfile) {
  return {
    entryPoints: [entry],
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
    plugins: [sideFilesNextToBundle],
    // CommonJS dependencies (ajv, parts of @actions/*) call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __evalgateRequire } from 'node:module'; const require = __evalgateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  };
}
