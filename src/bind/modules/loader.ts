import { stat } from 'node:fs/promises';
import { extname, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { kindOf } from '../../shared/regular-file.ts';
import { findExport, isCommonJsFile, listExports, type LoadedModule } from './exports.ts';
import { importingAs } from './import-scope.ts';
import { describeImportFailure } from './import-failure.ts';
import { specPath, type ModuleError, type ModuleResult } from './module-error.ts';
import { suggestIndexFile, suggestSibling } from './nearby-file.ts';
import type { ModuleRef } from '../../config/module-spec.ts';
import {
  startTypeScriptLoader,
  TsxMissingError,
  type TypeScriptLoader,
} from './typescript-loader.ts';

/** The error and result types of loading, re-exported so callers need only this module. */
export type { ModuleError, ModuleErrorCode, ModuleResult } from './module-error.ts';

/** Loads exports of user modules (`./app/answer.ts#answer`), each file once. */
export interface ModuleLoader {
  /**
   * The export `ref` names, or why it cannot be had. Never throws for user mistakes: a missing
   * file, a missing export, a syntax error or a throw at import time come back as data.
   */
  loadExport(ref: ModuleRef): Promise<ModuleResult<unknown>>;
  /**
   * What starting the TypeScript loader (importing tsx, registering its hooks) cost this loader,
   * in milliseconds; `null` while no TypeScript module has been loaded.
   */
  typescriptStartupMs(): number | null;
  /** The folders searched for tsx first (the options'), for loaders started elsewhere to match. */
  readonly tsxSearchFrom: readonly string[];
  /**
   * False for a loader made with `importModules: false`: its `loadExport` only checks that the
   * file is there, and gives `undefined` for the export of one that is.
   */
  readonly importsModules: boolean;
}

export interface ModuleLoaderOptions {
  /**
   * Folders whose node_modules are searched for tsx before evalgate's own dependency (the
   * bundled Action passes the config's folder and the workspace).
   */
  tsxSearchFrom?: readonly string[];
  /**
   * `false`: import nothing, only check that each module's file exists (`evals run --dry-run`,
   * which must not run user code: importing a module runs its top level). Default `true`.
   */
  importModules?: boolean;
}

/** Extensions that go through tsx; everything else is imported natively. */
const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx', '.jsx']);

/** What importing a file came to, before it is phrased for a particular reference. */
type FileOutcome =
  | { kind: 'loaded'; module: LoadedModule }
  | {
      kind: 'missing';
      isDirectory: boolean;
      suggestion: string | undefined;
      /** What is there instead when it is neither a file nor a folder: `a FIFO (named pipe)`. */
      special?: string;
    }
  | { kind: 'not-imported' }
  | { kind: 'threw'; error: unknown };

/**
 * A loader with its own cache: each file is imported at most once per loader, however many
 * suites and evaluators name it (concurrent requests share the one import). TypeScript files
 * (`.ts .mts .cts .tsx`, and `.jsx`) load through tsx, started on the first one; JavaScript
 * loads with Node's own `import()`.
 */
/**
 * The files whose import is under way in this process: a module that ends the process while it
 * is loaded (`process.exit` at its top level) is named by the CLI's exit watch (cli/main.ts).
 * One that ends it later, from a timer its top level set, is named through its import's scope
 * (import-scope.ts).
 */
const importing = new Set<string>();

/** The files being imported now, in the order their imports began. */
export function filesBeingImported(): string[] {
  return [...importing];
}

export function createModuleLoader(options: ModuleLoaderOptions = {}): ModuleLoader {
  const files = new Map<string, Promise<FileOutcome>>();
  let typescript: Promise<TypeScriptLoader> | undefined;
  let startupMs: number | null = null;

  const importTypeScript = async (file: string, url: string): Promise<Record<string, unknown>> => {
    typescript ??= startTypeScriptLoader(options.tsxSearchFrom).then((started) => {
      startupMs = started.startupMs;
      return started;
    });
    const loader = await typescript;
    return importingAs(file, () => loader.import(url));
  };

  const loadFile = async (file: string): Promise<FileOutcome> => {
    // Checked before importing so "not found" means the file the user named, not some import
    // inside it, and so we can say what is there instead.
    const found = await stat(file).catch(() => undefined);
    if (!found?.isFile()) {
      const isDirectory = found?.isDirectory() ?? false;
      const suggestion = isDirectory ? await suggestIndexFile(file) : await suggestSibling(file);
      const special = found !== undefined && !isDirectory ? kindOf(found) : undefined;
      return { kind: 'missing', isDirectory, suggestion, ...(special ? { special } : {}) };
    }
    if (options.importModules === false) return { kind: 'not-imported' };
    const url = pathToFileURL(file).href;
    importing.add(file);
    try {
      const [namespace, commonJs] = await Promise.all([
        TYPESCRIPT_EXTENSIONS.has(extname(file))
          ? importTypeScript(file, url)
          : importingAs(file, () => import(url) as Promise<Record<string, unknown>>),
        isCommonJsFile(file),
      ]);
      return { kind: 'loaded', module: { namespace, commonJs } };
    } catch (error) {
      return { kind: 'threw', error };
    } finally {
      importing.delete(file);
    }
  };

  return {
    async loadExport(ref) {
      let outcome = files.get(ref.file);
      if (outcome === undefined) {
        outcome = loadFile(ref.file);
        files.set(ref.file, outcome);
      }
      return phrase(await outcome, ref);
    },
    typescriptStartupMs: () => startupMs,
    tsxSearchFrom: options.tsxSearchFrom ?? [],
    importsModules: options.importModules !== false,
  };
}

function phrase(outcome: FileOutcome, ref: ModuleRef): ModuleResult<unknown> {
  switch (outcome.kind) {
    case 'missing':
      return {
        ok: false,
        error: notFound(ref, outcome.isDirectory, outcome.suggestion, outcome.special),
      };
    case 'not-imported':
      return { ok: true, value: undefined };
    case 'threw':
      if (outcome.error instanceof TsxMissingError) {
        return {
          ok: false,
          error: {
            code: 'module.tsx-missing',
            message: `${specPath(ref)}: ${outcome.error.message}`,
          },
        };
      }
      return { ok: false, error: describeImportFailure(outcome.error, ref) };
    case 'loaded': {
      const found = findExport(outcome.module, ref.exportName);
      if (found.found) return { ok: true, value: found.value };
      return { ok: false, error: exportMissing(ref, outcome.module) };
    }
  }
}

function notFound(
  ref: ModuleRef,
  isDirectory: boolean,
  suggestion: string | undefined,
  special?: string,
): ModuleError {
  const what = isDirectory
    ? `, which is a folder`
    : special !== undefined
      ? `, which is ${special}, not a regular file`
      : '';
  const hint = suggestion === undefined ? '' : `; did you mean ${respell(ref, suggestion)}?`;
  return {
    code: 'module.not-found',
    message: `module not found: ${specPath(ref)} (resolved to ${ref.file}${what})${hint}`,
    file: ref.file,
  };
}

/**
 * A suggested file written the way the user wrote the original path (same folder prefix, `/`
 * separators), so it can be pasted back into the config.
 */
function respell(ref: ModuleRef, suggestion: string): string {
  const written = specPath(ref);
  const tail = relative(ref.file, suggestion).split(sep).join('/');
  if (!tail.startsWith('../')) return `${written.replace(/\/+$/, '')}/${tail}`;
  // A sibling: replace the last path segment of what was written.
  const slash = written.lastIndexOf('/');
  return `${written.slice(0, slash + 1)}${tail.slice('../'.length)}`;
}

function exportMissing(ref: ModuleRef, module: LoadedModule): ModuleError {
  const { names, hasDefault } = listExports(module);
  const path = specPath(ref);
  let message: string;
  if (ref.exportName === 'default') {
    message =
      names.length === 0
        ? `${path} has no default export; it has no exports`
        : `${path} has no default export; its exports are: ${names.join(', ')} (name one with ${path}#${names[0]})`;
  } else if (names.length === 0) {
    message = hasDefault
      ? `${path} has no export "${ref.exportName}"; it has only a default export (use ${path} without #${ref.exportName})`
      : `${path} has no export "${ref.exportName}"; it has no exports`;
  } else {
    const also = hasDefault ? ' and a default export' : '';
    message = `${path} has no export "${ref.exportName}"; its exports are: ${names.join(', ')}${also}`;
  }
  return { code: 'module.export-missing', message, file: ref.file };
}
