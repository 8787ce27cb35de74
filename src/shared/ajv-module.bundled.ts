/**
 * {@link ajvClasses} inside the CLI and Action bundles: the CommonJS copy of ajv
 * (scripts/ajv-classes.cjs) that scripts/bundle-cli.js and scripts/bundle-action.js write next to
 * them as `ajv.cjs`; the Action runs with no node_modules to resolve a package from.
 */
import { createRequire } from 'node:module';
import type { AjvClasses } from './ajv-classes.ts';

export function ajvClasses(): AjvClasses {
  return createRequire(import.meta.url)('./ajv.cjs') as AjvClasses;
}
