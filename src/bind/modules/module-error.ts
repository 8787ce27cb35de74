import { isAbsolute, relative, sep } from 'node:path';
import type { ModuleRef } from '../../config/module-spec.ts';

/** Stable kinds of module problems; callers branch on these, never on message text. */
export type ModuleErrorCode =
  | 'module.not-found'
  | 'module.export-missing'
  | 'module.syntax'
  | 'module.load-failed'
  | 'module.wrong-shape'
  | 'module.tsx-missing';

/**
 * A problem with a user module, as data. `file` is absolute; `line` and `col` are 1-based and
 * present only when the problem has a known position (a syntax error, a throw at import time).
 */
export interface ModuleError {
  code: ModuleErrorCode;
  /** One line saying what went wrong, naming the module as the user wrote it. */
  message: string;
  file?: string;
  line?: number;
  col?: number;
}

/** The outcome of loading or adapting a user module export. */
export type ModuleResult<T> = { ok: true; value: T } | { ok: false; error: ModuleError };

/** The path part of a spec as the user wrote it: `./app/answer.ts#answer` → `./app/answer.ts`. */
export function specPath(ref: ModuleRef): string {
  const hash = ref.spec.lastIndexOf('#');
  return hash === -1 ? ref.spec : ref.spec.slice(0, hash);
}

/**
 * How a reference is named in messages: the spec as written, and for a spec without `#` a note
 * that it means the default export (the user may not know the rule).
 */
export function refLabel(ref: ModuleRef): string {
  return ref.spec.includes('#') ? ref.spec : `${ref.spec} (default export)`;
}

/**
 * A file other than the referenced one (a dependency with a syntax error), shown relative to the
 * working directory when it is inside it, so messages stay short and clickable.
 */
export function displayFile(file: string, ref: ModuleRef): string {
  if (file === ref.file) return specPath(ref);
  const rel = relative(process.cwd(), file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return file;
  return `.${sep}${rel}`;
}
