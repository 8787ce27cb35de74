/**
 * The ajv validators: one for `evals.yaml` itself (`schemas/evals.schema.json`) and one per
 * built-in's option schema. Compiled on first use and kept for the life of the process.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
// A static JSON import (not a read at run time) so the schema travels with a bundled dist/ and,
// from lib/config/, still resolves to <pkg>/schemas/ where the published package keeps it.
import schema from '../../schemas/evals.schema.json' with { type: 'json' };

/** The config schema, for tests and tools that inspect it. */
export const evalsSchema: Readonly<Record<string, unknown>> = schema;

let configValidator: ValidateFunction | undefined;
let optionsAjv: Ajv | undefined;
const optionValidators = new WeakMap<object, ValidateFunction>();

// `verbose` puts the failing value and its schema on each error: messages quote the value and
// read hints (`patternErrorMessage`, the allowed keys) from the schema.
// `validateSchema: false` skips checking our own schemas against the JSON Schema meta-schema on
// every start (compiling the meta-schema alone costs ~70 ms); a test compiles them strictly.
const COMMON = { allErrors: true, verbose: true, validateSchema: false } as const;

/** Every way `data` breaks the config schema (`[]` when it fits). */
export function checkConfigSchema(data: unknown): ErrorObject[] {
  if (!configValidator) {
    const ajv = new Ajv({ ...COMMON, strict: true, strictTypes: false, strictRequired: false });
    // Editors (VS Code, yaml-language-server) show this message for a failed `pattern`; ajv
    // only needs to know it is an annotation.
    ajv.addVocabulary(['patternErrorMessage']);
    configValidator = ajv.compile(schema);
  }
  return configValidator(data) ? [] : [...(configValidator.errors ?? [])];
}

/**
 * Every way `options` breaks a built-in's option schema. Lenient about the schema itself
 * (unknown keywords and formats are ignored): a built-in's schema is ours to fix, not the user's.
 */
export function checkOptionsSchema(
  optionsSchema: Record<string, unknown>,
  options: unknown,
): ErrorObject[] {
  let validate = optionValidators.get(optionsSchema);
  if (!validate) {
    optionsAjv ??= new Ajv({ ...COMMON, strict: false, validateFormats: false, logger: false });
    validate = optionsAjv.compile(optionsSchema);
    optionValidators.set(optionsSchema, validate);
  }
  return validate(options) ? [] : [...(validate.errors ?? [])];
}
