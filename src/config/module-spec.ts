import { isAbsolute, resolve } from 'node:path';

/** A user module reference: `./app/answer.ts#answer` → that file's `answer` export. */
export interface ModuleRef {
  /** As written in the config. */
  spec: string;
  /** Absolute path of the module file. */
  file: string;
  /** The export to use; `default` when the spec has no `#`. */
  exportName: string;
}

const MODULE_EXTENSIONS = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;

/**
 * True when an evaluator's `use:` names a module rather than a built-in: it is a path
 * (`./`, `../`, `/`), has an `#export`, or ends in a JavaScript/TypeScript extension.
 */
export function isModuleSpec(use: string): boolean {
  return (
    use.startsWith('./') ||
    use.startsWith('../') ||
    isAbsolute(use) ||
    use.includes('#') ||
    MODULE_EXTENSIONS.test(use)
  );
}

/** Splits `path#export` and resolves the path against `baseDir` (the config's folder). */
export function parseModuleSpec(spec: string, baseDir: string): ModuleRef {
  const hash = spec.lastIndexOf('#');
  const path = hash === -1 ? spec : spec.slice(0, hash);
  const exportName = hash === -1 ? 'default' : spec.slice(hash + 1) || 'default';
  return { spec, file: resolve(baseDir, path), exportName };
}
