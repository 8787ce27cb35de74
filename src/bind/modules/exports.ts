import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { isPlainObject } from '../../shared/is-record.ts';

/**
 * Finding a named or default export on a loaded module, for both module systems.
 *
 * An ES module's namespace holds its exports as they are. A CommonJS module's namespace (Node's
 * import of it) holds `default` = `module.exports` plus whatever names Node's static analysis
 * could detect; names it could not detect exist only on `module.exports`. And TypeScript written
 * with `export default` in a CommonJS-scope package is compiled to `module.exports.default` with
 * `__esModule: true`, so its "default export" is that property, not `module.exports` itself.
 * We look on `module.exports` only for CommonJS modules, so an ES module exporting a default
 * object does not grow named exports it does not have.
 */

/** A loaded module: its namespace and whether Node ran it as CommonJS. */
export interface LoadedModule {
  namespace: Record<string, unknown>;
  commonJs: boolean;
}

/** What a module exports, for "its exports are: …" messages. */
export interface ExportListing {
  /** Named exports, sorted; never `default`. */
  names: string[];
  /** Whether `#default` (or no `#`) would find something. */
  hasDefault: boolean;
}

/** Where `module.exports` lives on the namespace (Node 23+ also exposes it by that name). */
const MODULE_EXPORTS = 'module.exports';

/** Looks up an export; `found: false` when the module does not have it. */
export function findExport(
  mod: LoadedModule,
  name: string,
): { found: true; value: unknown } | { found: false } {
  const ns = mod.namespace;
  if (name === 'default') return findDefault(mod);
  if (name !== MODULE_EXPORTS && name in ns) return { found: true, value: ns[name] };
  if (mod.commonJs) {
    const exports = moduleExports(ns);
    if (isObjectLike(exports) && hasExportProperty(exports, name)) {
      return { found: true, value: exports[name] };
    }
  }
  return { found: false };
}

/** Lists a module's exports, merging CommonJS `module.exports` keys with the detected names. */
export function listExports(mod: LoadedModule): ExportListing {
  const ns = mod.namespace;
  const names = new Set(Object.keys(ns).filter((k) => k !== 'default' && k !== MODULE_EXPORTS));
  if (mod.commonJs) {
    const exports = moduleExports(ns);
    if (isObjectLike(exports)) {
      for (const key of Object.keys(exports)) {
        if (key !== 'default' && key !== '__esModule') names.add(key);
      }
    }
  }
  return { names: [...names].sort(), hasDefault: defaultWorthMentioning(mod) };
}

/**
 * Whether Node runs this file as CommonJS, by the same rule as Node and tsx: `.cjs`/`.cts`
 * always, `.mjs`/`.mts` never, anything else by the `type` of the nearest package.json.
 */
export async function isCommonJsFile(file: string): Promise<boolean> {
  const ext = extname(file);
  if (ext === '.cjs' || ext === '.cts') return true;
  if (ext === '.mjs' || ext === '.mts') return false;
  let dir = dirname(file);
  for (;;) {
    // Node's package scope lookup stops at a node_modules folder.
    if (basename(dir) === 'node_modules') return true;
    const type = await packageType(join(dir, 'package.json'));
    if (type !== undefined) return type !== 'module';
    const parent = dirname(dir);
    if (parent === dir) return true;
    dir = parent;
  }
}

/** The `type` field of a package.json ('' when it has none); undefined when there is no file. */
async function packageType(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    const type = isObjectLike(parsed) ? parsed.type : undefined;
    return typeof type === 'string' ? type : '';
  } catch {
    // Node itself rejects the import with a clear error; here it only means "not a module scope".
    return '';
  }
}

function findDefault(mod: LoadedModule): { found: true; value: unknown } | { found: false } {
  const ns = mod.namespace;
  if (!mod.commonJs) return 'default' in ns ? { found: true, value: ns.default } : { found: false };
  const exports = moduleExports(ns);
  if (isTranspiledEsm(exports)) {
    return 'default' in exports ? { found: true, value: exports.default } : { found: false };
  }
  return exports === undefined ? { found: false } : { found: true, value: exports };
}

/**
 * In listings, a CommonJS `module.exports` object whose keys are already listed is not also
 * announced as "a default export"; a function or other single value assigned to it is.
 */
function defaultWorthMentioning(mod: LoadedModule): boolean {
  if (!findDefault(mod).found) return false;
  if (!mod.commonJs) return true;
  const exports = moduleExports(mod.namespace);
  return isTranspiledEsm(exports) || !isPlainObject(exports);
}

function moduleExports(ns: Record<string, unknown>): unknown {
  return MODULE_EXPORTS in ns ? ns[MODULE_EXPORTS] : ns.default;
}

function isTranspiledEsm(exports: unknown): exports is Record<string, unknown> {
  return isObjectLike(exports) && Boolean(exports.__esModule);
}

function isObjectLike(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** Own or inherited properties, but not what every object or function inherits (`toString`). */
function hasExportProperty(target: Record<string, unknown>, name: string): boolean {
  if (typeof target === 'function' && ['length', 'name', 'prototype'].includes(name)) return false;
  if (Object.hasOwn(target, name)) return true;
  return name in target && !(name in Object.prototype) && !(name in Function.prototype);
}
