/**
 * Validation of a results artifact against `schemas/results.schema.json`, the contract that
 * `evals compare`, `evals merge`, `evals report` and the Action read back.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { ajvClasses } from '../shared/ajv-module.ts';
// A static JSON import (not a read at run time) so the schema travels with a bundled dist/ and,
// from lib/report/, still resolves to <pkg>/schemas/ where the published package keeps it.
import schema from '../../schemas/results.schema.json' with { type: 'json' };
import { isRecord } from '../shared/is-record.ts';
import type { SchemaPart } from './unknown-fields.ts';

/** The `schemaVersion` this build writes and reads. */
export const ARTIFACT_SCHEMA_VERSION = 1;

/** RFC 3339 date-time as written by `Date.prototype.toISOString` (and any offset form). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

let ajv: Ajv | undefined;
let firstOnly: Ajv | undefined;

// Compiled on first use: most commands never validate, and compiling costs a few milliseconds.
// Two instances: one that stops at the first problem, which says whether a value is valid at
// the cost of one pass; one that collects a piece's every problem, used on the error path only
// and a piece at a time (see `collect`).
function schemas(allErrors: boolean): Ajv {
  let instance = allErrors ? ajv : firstOnly;
  if (!instance) {
    // verbose: each error carries the value it is about, to say what was found.
    const { Ajv: AjvClass } = ajvClasses();
    instance = new AjvClass({ allErrors, strict: true, strictTypes: false, verbose: true });
    // ajv-formats is not a dependency; this is the only format the schema uses.
    instance.addFormat(
      'date-time',
      (text) => DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)),
    );
    instance.addSchema(schema, 'results');
    instance.addSchema(openSchema(schema) as typeof schema, 'results-open');
    if (allErrors) ajv = instance;
    else firstOnly = instance;
  }
  return instance;
}

/**
 * The schema as readers apply it: every `additionalProperties: false` left out, so a property
 * this evalgate does not know (a newer one's, of the same schemaVersion) is ignored, while every
 * property it knows is checked as strictly as the writer's schema checks it.
 */
function openSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openSchema);
  if (!isRecord(node)) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, openSchema(value)]),
  );
}

/** The parts of the results schema validated on their own: the whole, a run, a case. */
type Part = SchemaPart;

/**
 * What becomes of properties the schema does not list: `refuse`d as problems (what this evalgate
 * writes, and what a command that writes an artifact from one it read takes), or `ignore`d (a
 * command that only reads one, which notes them: `collectUnknownFields` in unknown-fields.ts).
 */
export type UnknownProperties = 'refuse' | 'ignore';

const compiled = new Map<string, ValidateFunction>();

function validator(part: Part, allErrors: boolean, unknown: UnknownProperties): ValidateFunction {
  const key = `${part} ${allErrors} ${unknown}`;
  let validate = compiled.get(key);
  if (!validate) {
    const id = unknown === 'ignore' ? 'results-open' : 'results';
    validate = schemas(allErrors).getSchema(part === 'results' ? id : `${id}#/definitions/${part}`);
    if (!validate) throw new Error(`the results schema has no ${part}`);
    compiled.set(key, validate);
  }
  return validate;
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
 * How many problems of one value are collected at most: enough to count a few hand edits
 * exactly, few enough that a file with a mistake in every case costs no more to refuse than
 * its first cases do. Beyond it, a message says there are more without counting them.
 */
export const COLLECTED_PROBLEMS = 100;

/** How many problems of one file a message lists: the first few say what is wrong. */
export const LISTED_PROBLEMS = 3;

/** The schema problems of a value: the first ones found, and whether they are all it has. */
export interface FoundProblems<T = ArtifactProblem> {
  /** In the order found; at most {@link COLLECTED_PROBLEMS}. */
  problems: T[];
  /** False when collecting stopped after {@link COLLECTED_PROBLEMS}: there are more, uncounted. */
  all: boolean;
}

/**
 * Checks a parsed results file. Returns one readable problem per violation (the first
 * {@link COLLECTED_PROBLEMS} of them), each starting with the JSON pointer of the offending
 * value (`/runs/0/verdict: ...`); `[]` when the value is valid. An artifact of another
 * `schemaVersion` yields a single problem instead of a cascade.
 */
export function validateArtifact(value: unknown): string[] {
  return artifactProblems(value).problems.map(problemText);
}

/** {@link validateArtifact}'s problems, each with where to point at it in the file. */
export function artifactProblems(
  value: unknown,
  unknown: UnknownProperties = 'refuse',
): FoundProblems {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const problem = schemaVersionProblem((value as { schemaVersion?: unknown }).schemaVersion);
    if (problem !== null) {
      const at = { pointer: '/schemaVersion', key: false };
      return { problems: [{ pointer: '/schemaVersion', message: problem, at }], all: true };
    }
  }
  return problemsOf('results', value, unknown);
}

/**
 * Checks one parsed case against the schema's case definition (for artifacts read a case at a
 * time); problems as {@link artifactProblems} gives them, pointers relative to the case.
 */
export function caseProblems(value: unknown, unknown: UnknownProperties = 'refuse'): FoundProblems {
  return problemsOf('case', value, unknown);
}

/**
 * Whether `value` is a valid `part` with no property the schema does not list, as in every file
 * this evalgate wrote: one pass that stops at the first problem. A reader that ignores unknown
 * properties asks this first, and looks for problems and unknown properties only when it is not.
 */
export function isExactlyValid(part: 'results' | 'case', value: unknown): boolean {
  return validator(part, false, 'refuse')(value);
}

/**
 * `a; b; c (and 5 more)`: the first {@link LISTED_PROBLEMS} of `found`, and how many more there
 * are when that is known (else `(and more)`).
 */
export function listProblems(found: FoundProblems<string> & { separator?: string }): string {
  const listed = found.problems.slice(0, LISTED_PROBLEMS).join(found.separator ?? '; ');
  const left = found.problems.length - LISTED_PROBLEMS;
  if (!found.all) return `${listed} (and more)`;
  return left > 0 ? `${listed} (and ${left} more)` : listed;
}

/** The arrays that grow with a file, whose elements `collect` validates one at a time. */
const ELEMENTS: Record<Part, { key: string; part: Part } | null> = {
  results: { key: 'runs', part: 'run' },
  run: { key: 'cases', part: 'case' },
  case: null,
};

/** `value`'s problems as `part`: none after one pass that stops at the first, when valid. */
function problemsOf(part: Part, value: unknown, unknown: UnknownProperties): FoundProblems {
  const first = validator(part, false, unknown);
  if (first(value)) return { problems: [], all: true };
  const found: ArtifactProblem[] = [];
  const all = collect(part, value, '', found, unknown);
  // A rule across the pieces, which none breaks alone (the schema has none today).
  if (found.length === 0) found.push(...(first.errors ?? []).map((e) => describeError(e, '')));
  return { problems: found.slice(0, COLLECTED_PROBLEMS), all };
}

/**
 * Adds the problems of `value` as `part` to `found`, each pointer under `prefix`; false once
 * there are more than {@link COLLECTED_PROBLEMS}, when it stops. Each run and each case is
 * validated on its own, with the array of its elements emptied from the value around it, for
 * two reasons: ajv cannot be told to stop after a few problems, and with `allErrors` it gathers
 * the problems of each `$ref`'d value by concatenating them onto all found before, so one call
 * on a file with a mistake in every case takes time as the square of their number (48 s for
 * 100,000 cases).
 */
function collect(
  part: Part,
  value: unknown,
  prefix: string,
  found: ArtifactProblem[],
  unknown: UnknownProperties,
): boolean {
  const inner = ELEMENTS[part];
  const elements: unknown = inner !== null && isRecord(value) ? value[inner.key] : undefined;
  const split = inner !== null && isRecord(value) && Array.isArray(elements);
  const shell = split ? { ...value, [inner.key]: [] } : value;
  const validate = validator(part, true, unknown);
  if (!validate(shell)) found.push(...(validate.errors ?? []).map((e) => describeError(e, prefix)));
  if (found.length > COLLECTED_PROBLEMS) return false;
  if (!split) return true;
  for (let i = 0; i < elements.length; i++) {
    if (!collect(inner.part, elements[i], `${prefix}/${inner.key}/${i}`, found, unknown))
      return false;
  }
  return true;
}

/** A problem as one line: `/runs/0/verdict: must be one of "pass", "fail", found "maybe"`. */
export function problemText(problem: ArtifactProblem): string {
  return `${problem.pointer}: ${problem.message}`;
}

/** An ajv error as a problem, its pointer under `prefix` (where the value validated is). */
function describeError(error: ErrorObject, prefix: string): ArtifactProblem {
  const path = prefix + error.instancePath;
  const pointer = path === '' ? '/' : path;
  const at = { pointer: path, key: false };
  const params = error.params as Record<string, unknown>;
  const found = `, found ${foundValue(error.data)}`;
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const escaped = name.replaceAll('~', '~0').replaceAll('/', '~1');
      return {
        pointer,
        message: `unexpected property ${JSON.stringify(name)}`,
        at: { pointer: `${path}/${escaped}`, key: true },
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
  return caseProblems(value).problems.map(problemText);
}
