/**
 * Where `text-table.ts` loads `string-width` from, relative to the code that runs: the package
 * itself, from the sources and from tsc's output. The CLI and Action bundles swap this file for
 * `string-width-module.bundled.ts` (scripts/esbuild-options.js), which names the copy built next
 * to each bundle: the Action runs with no node_modules to resolve a package from.
 */
export const STRING_WIDTH_MODULE: string = 'string-width';
