/**
 * ajv's validator classes, loaded on first use: a run compiles no schema unless its config has a
 * `json-schema` evaluator, a model target's `responseFormat` or a built-in option schema that was
 * not compiled at build time, or it reads an artifact back (compare, merge, report, a baseline).
 * Here, from the sources and from tsc's output, they come from the package itself. The CLI and
 * Action bundles swap this file for `ajv-module.bundled.ts` (scripts/esbuild-options.js), which
 * loads the copy built next to each bundle, so a run that compiles nothing neither holds nor
 * evaluates ajv's code.
 */
import { createRequire } from 'node:module';
import type { AjvClasses } from './ajv-classes.ts';

export function ajvClasses(): AjvClasses {
  const require = createRequire(import.meta.url);
  return {
    Ajv: (require('ajv') as Pick<AjvClasses, 'Ajv'>).Ajv,
    Ajv2019: (require('ajv/dist/2019.js') as Pick<AjvClasses, 'Ajv2019'>).Ajv2019,
    Ajv2020: (require('ajv/dist/2020.js') as Pick<AjvClasses, 'Ajv2020'>).Ajv2020,
  };
}
