/**
 * Validation of a results artifact against `schemas/results.schema.json`, the contract that
 * `evals compare`, `evals merge`, `evals report` and the Action read back.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
// A static JSON import (not a read at run time) so the schema travels with a bundled dist/ and,
// from lib/report/, still resolves to <pkg>/schemas/ where the published package keeps it.
import schema from '../../schemas/results.schema.json' with { type: 'json' };

/** The `schemaVersion` this build writes and reads. */
export const ARTIFACT_SCHEMA_VERSION = 1;

/** RFC 3339 date-time as written by `Date.prototype.toISOString` (and any offset form). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

let ajv: Ajv | undefined;
let compiled: ValidateFunction | undefined;
let compiledCase: ValidateFunction | undefined;

// Compiled on first use: most commands never validate, and compiling costs a few milliseconds.
function schemas(): Ajv {
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
    // ajv-formats is not a dependency; this is the only format the schema uses.
    ajv.addFormat('date-time', (text) => DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)));
    ajv.addSchema(schema, 'results');
  }
  return ajv;
}

function validator(): ValidateFunction {
  compiled ??= schemas().getSchema('results');
  if (!compiled) throw new Error('the results schema did not compile');
  return compiled;
}

function caseValidator(): ValidateFunction {
  compiledCase ??= schemas().getSchema('results#/definitions/case');
  if (!compiledCase) throw new Error('the results schema has no case definition');
  return compiledCase;
}

/**
 * Why `version`, an artifact's `schemaVersion`, is not the one this evalgate reads; null when it
 * is, or when it is missing (which the schema reports with the rest). The one wording of every
 * reader: a higher version is the common case (results from a branch or a machine on a newer
 * evalgate), so it says what to do.
 */
export function schemaVersionProblem(version: unknown): string | null {
  if (version === undefined || version === ARTIFACT_SCHEMA_VERSION) return null;
  const found = `this evalgate reads schemaVersion ${ARTIFACT_SCHEMA_VERSION}, found ${JSON.stringify(version)}`;
  return typeof version === 'number' &&
    Number.isInteger(version) &&
    version > ARTIFACT_SCHEMA_VERSION
    ? `${found}: a newer evalgate wrote it; update evalgate here to read it`
    : found;
}

/**
 * Checks a parsed results file. Returns one readable problem per violation, each starting with
 * the JSON pointer of the offending value (`/runs/0/verdict: …`); `[]` when the value is valid.
 * An artifact of another `schemaVersion` yields a single problem instead of a cascade.
 */
export function validateArtifact(value: unknown): string[] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const problem = schemaVersionProblem((value as { schemaVersion?: unknown }).schemaVersion);
    if (problem !== null) return [`/schemaVersion: ${problem}`];
  }
  const validate = validator();
  if (validate(value)) return [];
  return (validate.errors ?? []).map(describeError);
}

/**
 * Checks one parsed case against the schema's case definition (for artifacts read a case at a
 * time); problems as {@link validateArtifact} gives them, pointers relative to the case.
 */
export function validateCase(value: unknown): string[] {
  const validate = caseValidator();
  if (validate(value)) return [];
  return (validate.errors ?? []).map(describeError);
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? '/' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where}: unexpected property ${JSON.stringify(params.additionalProperty)}`;
    case 'required':
      return `${where}: missing property ${JSON.stringify(params.missingProperty)}`;
    case 'enum':
      return `${where}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${where}: must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${where}: ${error.message ?? error.keyword}`;
  }
}
