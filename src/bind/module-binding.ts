/**
 * A user module named by the config (a function target, a custom evaluator, a pass condition),
 * loaded for the place that names it: every problem is an issue at that place (or, for a syntax
 * error, in the module's own file), and with a loader that imports nothing only the module's
 * file is checked and a stand-in that cannot be called takes its place.
 */
import { parseModuleSpec, type ModuleRef } from '../config/module-spec.ts';
import type { LoadedConfig } from '../config/types.ts';
import type { Issue, Located } from '../shared/errors.ts';
import type { ModuleLoader, ModuleResult } from './modules/loader.ts';
import { errorText } from './modules/import-failure.ts';
import { refLabel } from './modules/module-error.ts';

/** A module's export, or the problem of loading it (where it is, or where the config names it). */
async function loadModule(
  loader: ModuleLoader,
  config: LoadedConfig,
  spec: string,
  issueAt: Issue,
): Promise<{ ok: true; ref: ModuleRef; value: unknown } | { ok: false; issue: Issue }> {
  const ref = parseModuleSpec(spec, config.dir);
  const loaded = await loader.loadExport(ref);
  if (loaded.ok) return { ok: true, ref, value: loaded.value };
  const e = loaded.error;
  // A syntax error is shown where it is (the TypeScript file), not where the config names it.
  if (e.file !== undefined && e.line !== undefined) {
    return {
      ok: false,
      issue: {
        code: e.code,
        file: e.file,
        line: e.line,
        col: e.col ?? 1,
        path: '',
        message: `${e.message} (loading ${spec} for ${issueAt.path})`,
      },
    };
  }
  return { ok: false, issue: { ...issueAt, code: e.code, message: e.message } };
}

/**
 * For a loader that imports nothing: `stand` (never called) when the module's file is there,
 * else the problem, as loading would say it.
 */
export async function moduleThere<T>(
  loader: ModuleLoader,
  config: LoadedConfig,
  spec: string,
  where: Issue,
  stand: T,
): Promise<Located<T>> {
  const found = await loadModule(loader, config, spec, where);
  return found.ok ? { ok: true, value: stand } : found;
}

/** What stands in for user code that was not imported: binding was only a check. */
export function notImported(): never {
  throw new Error(
    'bound without importing modules (a check, as evals run --dry-run): not callable',
  );
}

/** A module's export checked into the shape its use needs; problems located at `where`. */
export async function loadShaped<T>(
  loader: ModuleLoader,
  config: LoadedConfig,
  spec: string,
  where: Issue,
  shape: (value: unknown, ref: ModuleRef) => ModuleResult<T>,
): Promise<Located<T>> {
  const loaded = await loadModule(loader, config, spec, where);
  if (!loaded.ok) return loaded;
  let shaped: ModuleResult<T>;
  try {
    shaped = shape(loaded.value, loaded.ref);
  } catch (error) {
    // Reading the export runs its code (a getter, a Proxy's traps): a throw there is the
    // module's mistake, at the place that names it, as a constructor's is (shapes.ts).
    return { ok: false, issue: { ...where, ...unreadable(loaded.ref, error) } };
  }
  return shaped.ok
    ? { ok: true, value: shaped.value }
    : { ok: false, issue: { ...where, code: shaped.error.code, message: shaped.error.message } };
}

/**
 * The problem of a module whose export threw while it was read (a getter, a Proxy's traps),
 * for the place that names it.
 */
export function unreadable(ref: ModuleRef, error: unknown): { code: string; message: string } {
  return {
    code: 'module.load-failed',
    message: `${refLabel(ref)}: reading what it exports threw: ${errorText(error)}`,
  };
}
