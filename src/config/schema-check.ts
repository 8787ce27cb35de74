/**
 * The ajv validators: one for `evals.yaml` itself (`schemas/evals.schema.json`, compiled at build
 * time) and one per built-in's option schema (compiled on first use, kept for the process).
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { ajvClasses } from '../shared/ajv-module.ts';
import { OPTION_SCHEMA_AJV } from './option-schema-ajv.ts';
// A static JSON import (not a read at run time) so the schema travels with a bundled dist/ and,
// from lib/config/, still resolves to <pkg>/schemas/ where the published package keeps it.
import schema from '../../schemas/evals.schema.json' with { type: 'json' };
import { optionValidators as generatedOptionValidators } from './builtin-options-validators.generated.ts';
import validateConfigUntyped from './evals-schema-validator.generated.ts';

/** The config schema, for tests and tools that inspect it. */
export const evalsSchema: Readonly<Record<string, unknown>> = schema;

const validateConfig = validateConfigUntyped as unknown as ValidateFunction;

let optionsAjv: Ajv | undefined;
const optionValidators = new WeakMap<object, ValidateFunction>();

/**
 * Every way `data` breaks the config schema (`[]` when it fits). The validator is compiled ahead
 * of time (scripts/gen-validators.mjs) with the same verbose errors.
 */
export function checkConfigSchema(data: unknown): ErrorObject[] {
  return validateConfig(data) ? [] : [...(validateConfig.errors ?? [])];
}

/**
 * Every way `options` breaks a built-in's option schema. A schema identical to one compiled at
 * build time uses that validator; any other (a test's fake built-in) is compiled here, leniently
 * about the schema itself: a built-in's schema is ours to fix, not the user's.
 */
export function checkOptionsSchema(
  optionsSchema: Record<string, unknown>,
  options: unknown,
): ErrorObject[] {
  let validate = optionValidators.get(optionsSchema);
  if (!validate) {
    const text = JSON.stringify(optionsSchema);
    const precompiled = Object.values(generatedOptionValidators).find((v) => v.schema === text);
    if (precompiled) {
      validate = precompiled.validate as unknown as ValidateFunction;
    } else {
      const { Ajv: AjvClass } = ajvClasses();
      optionsAjv ??= new AjvClass({ ...OPTION_SCHEMA_AJV, validateSchema: false });
      validate = optionsAjv.compile(optionsSchema);
    }
    optionValidators.set(optionsSchema, validate);
  }
  return validate(options) ? [] : [...(validate.errors ?? [])];
}
