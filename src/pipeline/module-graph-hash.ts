/**
 * The local files a config's JavaScript and TypeScript modules are made of: each module named
 * in the config (a function target, a module evaluator, a `pass:` module) and every file of the
 * project it imports, directly or not, which the configHash covers (config-files-hash.ts).
 *
 * The import graph is esbuild's: a bundle of the modules, never written, whose metafile lists its
 * inputs. esbuild resolves as tsx and Node do (relative specifiers, `.js` naming a `.ts`, index
 * files, tsconfig `paths`, `require()` of a literal path, JSON imports); `packages: 'external'`
 * leaves every package import (anything under node_modules) out. Nothing is run: the modules'
 * code is parsed, not imported. esbuild comes with tsx, which loads TypeScript; it is looked
 * for as tsx is (the bundled Action has no node_modules of its own).
 */
import { createRequire } from 'node:module';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readRegularFileSync } from '../shared/regular-file.ts';

import type * as EsbuildApi from 'esbuild';
import type { Plugin } from 'esbuild';

type Esbuild = typeof EsbuildApi;

/** The module files and the local files they import, or how far that could be told. */
export interface ModuleGraph {
  /** Absolute paths: the modules, and the files they import that are not under node_modules. */
  files: string[];
  /**
   * Why the imports are not in `files` (esbuild not found, or it could not read a module: a
   * syntax error, an import it cannot resolve); absent when they are.
   */
  importsUnknown?: string;
}

/**
 * `modules` (absolute paths) and the local files they import, found by esbuild, which is looked
 * for from `searchFrom` (each a project folder whose node_modules may hold it, directly or as
 * tsx's dependency), then as evalgate's own dependency. `dir` is the config's folder.
 */
export async function moduleGraph(
  modules: readonly string[],
  dir: string,
  searchFrom: readonly string[],
): Promise<ModuleGraph> {
  // Starting esbuild's service costs a process, 35 to 55 ms and ~10 MB of this one's memory;
  // a module that holds no string a local import could be written with imports no local file.
  if (!modules.some(mayImportLocalFile)) return { files: [...modules] };
  return esbuildModuleGraph(modules, dir, searchFrom);
}

/**
 * Whether the module file at `path` may import a local file: it holds a string (quoted or a
 * template) that starts with `.` or `/`, the only specifiers followed (every bare one is left
 * out, see {@link BARE_SPECIFIERS_EXTERNAL}), or with a backslash, an escape that could spell
 * one. Any such string counts, in a comment or not, so a module this says no for imports no
 * local file whatever its syntax; a file that cannot be read is left to esbuild.
 */
export function mayImportLocalFile(path: string): boolean {
  let text: string;
  try {
    // Not a FIFO or a device, which would block or never end: such a "module" imports nothing
    // (the loader refuses it); any other unreadable file is left to esbuild.
    text = readRegularFileSync(path, Number.MAX_SAFE_INTEGER).toString('utf8');
  } catch (error) {
    return (error as { code?: unknown }).code !== 'ENOTREG';
  }
  return /['"`][./\\]/.test(text);
}

/** {@link moduleGraph} as esbuild finds it, whatever the modules hold. */
export async function esbuildModuleGraph(
  modules: readonly string[],
  dir: string,
  searchFrom: readonly string[],
): Promise<ModuleGraph> {
  const esbuild = await importEsbuild(searchFrom);
  if (esbuild === undefined) {
    return { files: [...modules], importsUnknown: 'esbuild, which comes with tsx, was not found' };
  }
  try {
    const result = await esbuild.build({
      entryPoints: [...modules],
      absWorkingDir: dir,
      bundle: true,
      write: false,
      metafile: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      // Never written (`write: false`); esbuild needs a folder to name its outputs for.
      outdir: join(dir, '.evalgate-module-graph'),
      logLevel: 'silent',
      plugins: [BARE_SPECIFIERS_EXTERNAL],
    });
    const files = new Set(modules);
    for (const input of Object.keys(result.metafile.inputs)) {
      const path = resolve(dir, input);
      if (!path.split(sep).includes('node_modules')) files.add(path);
    }
    return { files: [...files] };
  } catch (error) {
    return { files: [...modules], importsUnknown: buildFailure(error) };
  } finally {
    // esbuild's service process (~12 MB) would otherwise live as long as the run; a later
    // esbuild call in this process starts a new one.
    await esbuild.stop();
  }
}

/**
 * Every bare specifier (`openai`, `node:fs`, a tsconfig `paths` alias such as `@/lib/x` or
 * `evalgate`) is left out, as `packages: 'external'` leaves packages: only files imported by a
 * relative or absolute path are followed, so what is covered does not depend on tsconfig, and an
 * alias to a large library's sources (this repository maps `evalgate` to its own `src/`) is not
 * parsed on every load.
 */
const BARE_SPECIFIERS_EXTERNAL: Plugin = {
  name: 'bare-specifiers-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
  },
};

/** The first error esbuild reported, for the record; its text never enters the hash. */
function buildFailure(error: unknown): string {
  const errors = (error as { errors?: { text?: unknown }[] }).errors;
  const text = errors?.[0]?.text;
  return typeof text === 'string' ? text : String(error);
}

/** esbuild's API, as a project in one of `searchFrom` would load it, else our own; or none. */
async function importEsbuild(searchFrom: readonly string[]): Promise<Esbuild | undefined> {
  const found = searchFrom
    .map((dir) => resolveFrom(dir, 'esbuild') ?? resolveThroughTsx(dir))
    .find((path) => path !== undefined);
  try {
    const namespace: unknown = await (found !== undefined
      ? import(pathToFileURL(found).href)
      : import('esbuild'));
    // esbuild is CommonJS: its API is the namespace, or the namespace's default export.
    const api = namespace as Partial<Esbuild> & { default?: Esbuild };
    return typeof api.build === 'function' ? (api as Esbuild) : api.default;
  } catch {
    return undefined;
  }
}

function resolveFrom(dir: string, specifier: string): string | undefined {
  try {
    return createRequire(join(dir, 'package.json')).resolve(specifier);
  } catch {
    return undefined;
  }
}

/** esbuild as tsx, installed in `dir`'s project, depends on it. */
function resolveThroughTsx(dir: string): string | undefined {
  const tsx = resolveFrom(dir, 'tsx/package.json');
  return tsx === undefined ? undefined : resolveFrom(join(tsx, '..'), 'esbuild');
}
