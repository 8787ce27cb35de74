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

/** Imports an absolute `file:` URL through tsx's hooks and returns the module namespace. */
export type TypeScriptImport = (url: string) => Promise<Record<string, unknown>>;

/** A started TypeScript loader and what starting it cost. */
export interface TypeScriptLoader {
  import: TypeScriptImport;
  /** Wall time of importing tsx and registering its hooks, in milliseconds. */
  startupMs: number;
}

let loaders = 0;

/**
 * Imports tsx and registers its hooks under a namespace of its own. Each call registers a new
 * pair of hooks (so modules loaded through different loaders are separate instances); callers
 * start one per module loader, on the first TypeScript file.
 */
export async function startTypeScriptLoader(): Promise<TypeScriptLoader> {
  const started = performance.now();
  const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  loaders += 1;
  const namespace = `evalgate-${process.pid}-${loaders}`;
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
