// The esbuild settings shared by the CLI bundle (lib/cli.bundle.js) and the Action (dist/index.js):
// one ESM file for Node 20+, dependencies inside, tsx and esbuild outside (tsx registers loader
// files relative to its own location; esbuild needs its native binary).

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
    // CommonJS dependencies (ajv, parts of @actions/*) call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __evalgateRequire } from 'node:module'; const require = __evalgateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  };
}
