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
    // verbose: each error carries the value it is about, to say what was found.
    ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, verbose: true });
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

/** One schema violation of a results file. */
export interface ArtifactProblem {
  /** JSON pointer of the offending value (`/runs/0/verdict`; `/` for the whole file). */
  pointer: string;
  /** What is wrong, with the value found where there is one. */
  message: string;
  /**
   * The value to point at in the file (`pointer`, or the unexpected property under it), and
   * whether to point at its key rather than its value.
   */
  at: { pointer: string; key: boolean };
}

/**
 * Checks a parsed results file. Returns one readable problem per violation, each starting with
 * the JSON pointer of the offending value (`/runs/0/verdict: …`); `[]` when the value is valid.
 * An artifact of another `schemaVersion` yields a single problem instead of a cascade.
 */
export function validateArtifact(value: unknown): string[] {
  return artifactProblems(value).map(problemText);
}

/** {@link validateArtifact}'s problems, each with where to point at it in the file. */
export function artifactProblems(value: unknown): ArtifactProblem[] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const problem = schemaVersionProblem((value as { schemaVersion?: unknown }).schemaVersion);
    if (problem !== null) {
      return [
        {
          pointer: '/schemaVersion',
          message: problem,
          at: { pointer: '/schemaVersion', key: false },
        },
      ];
    }
  }
  const validate = validator();
  if (validate(value)) return [];
  return (validate.errors ?? []).map(describeError);
}

/**
 * Checks one parsed case against the schema's case definition (for artifacts read a case at a
 * time); problems as {@link artifactProblems} gives them, pointers relative to the case.
 */
export function caseProblems(value: unknown): ArtifactProblem[] {
  const validate = caseValidator();
  if (validate(value)) return [];
  return (validate.errors ?? []).map(describeError);
}

/** A problem as one line: `/runs/0/verdict: must be one of "pass", "fail", found "maybe"`. */
export function problemText(problem: ArtifactProblem): string {
  return `${problem.pointer}: ${problem.message}`;
}

function describeError(error: ErrorObject): ArtifactProblem {
  const pointer = error.instancePath === '' ? '/' : error.instancePath;
  const at = { pointer: error.instancePath, key: false };
  const params = error.params as Record<string, unknown>;
  const found = `, found ${foundValue(error.data)}`;
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const escaped = name.replaceAll('~', '~0').replaceAll('/', '~1');
      return {
        pointer,
        message: `unexpected property ${JSON.stringify(name)}`,
        at: { pointer: `${error.instancePath}/${escaped}`, key: true },
      };
    }
    case 'required':
      return { pointer, message: `missing property ${JSON.stringify(params.missingProperty)}`, at };
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
      return { pointer, message: `must be one of ${allowed.join(', ')}${found}`, at };
    }
    case 'const':
      return { pointer, message: `must be ${JSON.stringify(params.allowedValue)}${found}`, at };
    case 'type':
      return {
        pointer,
        message: `must be ${String(params.type).split(',').join(' or ')}${found}`,
        at,
      };
    default:
      return { pointer, message: `${error.message ?? error.keyword}${found}`, at };
  }
}

/**
 * The value a problem found, for "found ...": short strings quoted whole, longer ones by length
 * only (an artifact's texts can be long, and cutting one could leave part of a secret that
 * scrubbing no longer recognises), other values by kind.
 */
function foundValue(value: unknown): string {
  if (typeof value === 'string') {
    return value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} characters`;
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    const n = value.length;
    return n === 0 ? 'an empty array' : `an array of ${n} item${n === 1 ? '' : 's'}`;
  }
  return value === undefined ? 'nothing' : 'an object';
}

/** {@link caseProblems} as lines, as {@link validateArtifact} gives them. */
export function validateCase(value: unknown): string[] {
  return caseProblems(value).map(problemText);
}
