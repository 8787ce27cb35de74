/**
 * Loads user TypeScript through tsx, started lazily: a suite of plain JavaScript modules never
 * pays for importing tsx and esbuild.
 *
 * Why not `tsImport()` per file: every `tsImport` call registers a fresh pair of hooks under a new
 * random namespace, and the namespace is part of each module's URL. Two user files that import
 * the same helper (say `app/answer.ts` and `evaluators/tone.ts` both importing `lib/client.ts`)
 * would then get two separate copies of it, module state included. So we do what `tsImport` does
 * internally, once per loader: register tsx's ESM hooks and its CommonJS `require` hooks under a
 * single namespace (both are needed: a `.ts` file in a CommonJS-scope package is compiled to
 * CommonJS, and its own `require('./helper')` calls go through the CommonJS hooks), then import
 * every TypeScript file through that namespace. `tsImport` additionally falls back to `require`
 * for `.cts` on Node < 20.11; the package needs Node >= 20.19, so that path never applies.
 *
 * tsconfig: tsx looks for `tsconfig.json` from the working directory (or `TSX_TSCONFIG_PATH`)
 * and applies it only to files that tsconfig includes.
 */

import { readFileSync } from 'node:fs';
import type * as EsmApi from 'tsx/esm/api';
import type * as CjsApi from 'tsx/cjs/api';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Imports an absolute `file:` URL through tsx's hooks and returns the module namespace. */
export type TypeScriptImport = (url: string) => Promise<Record<string, unknown>>;

/** A started TypeScript loader and what starting it cost. */
export interface TypeScriptLoader {
  import: TypeScriptImport;
  /** Wall time of importing tsx and registering its hooks, in milliseconds. */
  startupMs: number;
}

let loaders = 0;

/** tsx could not be found: loading TypeScript needs it, and it comes with evalgate. */
export class TsxMissingError extends Error {
  readonly code = 'module.tsx-missing';
  constructor(searched: readonly string[]) {
    super(
      `loading TypeScript modules needs tsx, which comes with the evalgate package, and none was found` +
        `${searched.length > 0 ? ` from ${searched.join(' or ')}` : ''}: add evalgate to the project (npm i -D evalgate) and install dependencies (npm ci) before running evals`,
    );
    this.name = 'TsxMissingError';
  }
}

type TsxApis = [typeof EsmApi, typeof CjsApi];

/**
 * tsx's two APIs. `searchFrom` folders are tried first, each as a project whose node_modules may
 * hold tsx: the bundled Action (dist/) has no node_modules of its own, so it finds tsx in the
 * user's workspace, where `npm ci` put it as a dependency of evalgate. Then our own dependency.
 * tsx cannot be bundled: it registers loader files relative to its own location.
 */
async function importTsx(searchFrom: readonly string[]): Promise<TsxApis> {
  for (const dir of searchFrom) {
    const root = tsxRoot(dir);
    if (root === null) continue;
    const entry = (subpath: string): string =>
      pathToFileURL(join(root, importEntry(root, subpath))).href;
    return Promise.all([
      import(entry('./esm/api')) as Promise<TsxApis[0]>,
      import(entry('./cjs/api')) as Promise<TsxApis[1]>,
    ]);
  }
  try {
    return await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND')
      throw new TsxMissingError(searchFrom);
    throw error;
  }
}

/** The folder of the tsx package a project in `dir` would load, or null. */
function tsxRoot(dir: string): string | null {
  try {
    return dirname(createRequire(join(dir, 'package.json')).resolve('tsx/package.json'));
  } catch {
    return null;
  }
}

/** The file tsx's package.json exports for `import` of `subpath` (e.g. `./esm/api`). */
function importEntry(root: string, subpath: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports?: Record<string, { import?: string | { default?: string } }>;
  };
  const target = pkg.exports?.[subpath]?.import;
  const file = typeof target === 'string' ? target : target?.default;
  if (file === undefined) throw new TsxMissingError([root]);
  return file;
}

/**
 * Imports tsx and registers its hooks under a namespace of its own. Each call registers a new
 * pair of hooks (so modules loaded through different loaders are separate instances); callers
 * start one per module loader, on the first TypeScript file.
 */
export async function startTypeScriptLoader(
  searchFrom: readonly string[] = [],
): Promise<TypeScriptLoader> {
  const started = performance.now();
  const [esm, cjs] = await importTsx(searchFrom);
  loaders += 1;
  // Unique within the process, and the same from one run to the next: tsx keys its on-disk
  // transform cache on the module's URL, namespace query included, so a per-process name (the
  // pid, say) misses that cache on every run and starts esbuild's service to compile afresh:
  // ~150 ms of a 100k-case TypeScript run on Node 20, and ~15 MB of peak RSS.
  const namespace = `evalgate-${loaders}`;
  // CommonJS first, as tsImport does, so a CommonJS-scope file's requires are covered before
  // the ESM hooks can hand one to Node's CommonJS loader.
  cjs.register({ namespace });
  const api = esm.register({ namespace });
  const startupMs = performance.now() - started;
  return {
    // The specifier is an absolute URL, so the parent only has to be a valid file URL.
    import: (url) => api.import(url, import.meta.url) as Promise<Record<string, unknown>>,
    startupMs,
  };
}
