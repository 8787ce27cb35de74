import type { Options } from 'ajv';

/**
 * ajv settings for built-ins' option schemas, shared by the build-time compilation
 * (scripts/gen-validators.ts) and the run-time fallback in schema-check.ts. `verbose` puts the
 * failing value and its schema on each error: messages quote the value and read hints
 * (`patternErrorMessage`, the allowed keys) from the schema. Lenient about the schemas
 * themselves: they are ours, and a test compiles each of them strictly.
 */
export const OPTION_SCHEMA_AJV: Options = {
  allErrors: true,
  verbose: true,
  strict: false,
  validateFormats: false,
  logger: false,
};
