/**
 * ajv's errors turned into the problems a user reads: one message per mistake, in the form
 * "expected X, found Y", attached to the config path of the offending value (or key).
 *
 * ajv with `allErrors` is noisy: a failed `anyOf` reports every branch, a wrong type also
 * fails the keywords that assume the right one. This module reduces that to the single most
 * useful message per location.
 */
import type { ErrorObject } from 'ajv';
import { describeValue } from '../shared/errors.ts';
import { pointerToPath } from './config-path.ts';
import { closestMatch } from './did-you-mean.ts';
import type { ConfigPath } from './types.ts';
import { isRecord } from '../shared/is-record.ts';
import { hasTemplates } from '../shared/templates.ts';

/** A schema violation, located by config path. */
export interface SchemaProblem {
  code: string;
  /** The value the message is about; also the path shown to the user. */
  path: ConfigPath;
  /** Set for an unknown key: point at this key of the mapping at `path` rather than at the value. */
  key?: string;
  message: string;
}

export interface SchemaProblemOptions {
  /**
   * Built-in options may hold a `{{ template }}` string where the schema wants another type:
   * the value is only known per case. Violations by such strings are dropped, and an
   * `anyOf`/`oneOf` that a template string would satisfy counts as satisfied.
   */
  templatesAllowed?: boolean;
}

interface Entry {
  keyword: string;
  schemaPath: string;
  path: ConfigPath;
  data: unknown;
  params: Record<string, unknown>;
  schema: unknown;
  parentSchema: Record<string, unknown>;
  /** ajv's own text, for keywords without a message of ours. */
  ajvMessage: string;
  /** A template string broke this rule: not a real problem (see `templatesAllowed`). */
  excused: boolean;
  /** Set on messages made here rather than by ajv (a reduced `anyOf`). */
  made?: { code: string; message: string };
}

/** Turns ajv's errors for `data` into one problem per mistake. */
export function schemaProblems(
  errors: readonly ErrorObject[],
  data: unknown,
  options: SchemaProblemOptions = {},
): SchemaProblem[] {
  let entries = errors
    // `if` only says "then/else failed"; the branch's own errors say why.
    .filter((error) => error.keyword !== 'if')
    .map((error): Entry => {
      const entry: Entry = {
        keyword: error.keyword,
        schemaPath: error.schemaPath,
        path: pointerToPath(error.instancePath, data),
        data: error.data,
        params: error.params,
        schema: error.schema,
        parentSchema: error.parentSchema ?? {},
        ajvMessage: error.message ?? 'is invalid',
        excused: false,
      };
      entry.excused =
        options.templatesAllowed === true && isTemplateString(entry.data) && !isComposite(entry);
      return entry;
    });
  entries = reduceComposites(entries).filter((entry) => !entry.excused);
  entries = dropConsequencesOfTypeErrors(entries);

  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const entry of entries) {
    const problem = render(entry);
    const key = JSON.stringify([problem.path, problem.key ?? null, problem.message]);
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

/**
 * True for a string holding a `{{ … }}` template. One whose `{{` are all escaped (`\{{`) is known
 * at load time, so the schema applies to it.
 */
function isTemplateString(value: unknown): boolean {
  return typeof value === 'string' && hasTemplates(value);
}

function isComposite(entry: Entry): boolean {
  return entry.keyword === 'anyOf' || entry.keyword === 'oneOf';
}

/** A `oneOf` that failed because several branches matched has no branch errors to reduce. */
function isOverlap(entry: Entry): boolean {
  return entry.keyword === 'oneOf' && Array.isArray(entry.params.passingSchemas);
}

/**
 * Replaces each failed `anyOf`/`oneOf` and its branches' errors by the errors of the one branch
 * the user most plausibly meant, innermost first so nested choices are already reduced.
 *
 * - a branch whose only errors are excused template strings: the choice is satisfied;
 * - every branch wants another type, or every branch only requires a key: one
 *   "expected A or B" / "missing required key "a" or "b"" message;
 * - else the branch whose errors reach deepest into the value (it matched the most structure),
 *   then the one with fewer errors.
 *
 * Branch errors are recognized by schema path. Errors inside a `$ref` carry the referenced
 * schema's path instead; when a branch's errors cannot be found that way, the choice is
 * reported as one "expected A or B" message and the stray errors are left as they are.
 */
function reduceComposites(input: Entry[]): Entry[] {
  let entries = input;
  const composites = entries
    .filter((entry) => isComposite(entry) && !isOverlap(entry))
    .sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const choice of composites) {
    if (!entries.includes(choice)) continue;
    const prefix = `${choice.schemaPath}/`;
    const branchSchemas = Array.isArray(choice.schema) ? (choice.schema as unknown[]) : [];
    const branches = new Map<number, Entry[]>();
    for (const entry of entries) {
      if (entry === choice || !entry.schemaPath.startsWith(prefix)) continue;
      const index = Number.parseInt(entry.schemaPath.slice(prefix.length), 10);
      branches.set(index, [...(branches.get(index) ?? []), entry]);
    }
    const grouped = new Set([...branches.values()].flat());
    let replacement: Entry[];
    if ([...branches.values()].some((errors) => errors.every((e) => e.excused))) {
      replacement = [];
    } else if (
      branches.size < branchSchemas.length ||
      branchSchemas.every((schema) => requiredOnlyKey(schema) !== undefined)
    ) {
      replacement = [alternatives(choice, branchSchemas)];
    } else {
      const plausible = [...branches.values()].filter(
        (errors) =>
          !errors.some((e) => !e.excused && wrongKind(e) && samePath(e.path, choice.path)),
      );
      const best = plausible
        .map((errors) => errors.filter((e) => !e.excused))
        .sort((a, b) => depth(b) - depth(a) || a.length - b.length)[0];
      replacement = best ?? [alternatives(choice, branchSchemas)];
    }
    entries = [
      ...entries.filter((entry) => entry !== choice && !grouped.has(entry)),
      ...replacement,
    ];
  }
  return entries;
}

function wrongKind(entry: Entry): boolean {
  return entry.keyword === 'type' || entry.keyword === 'const' || entry.keyword === 'enum';
}

function depth(errors: Entry[]): number {
  return Math.max(
    0,
    ...errors.map((e) => e.path.length + (e.keyword === 'additionalProperties' ? 1 : 0)),
  );
}

function samePath(a: ConfigPath, b: ConfigPath): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

/** One message for a choice: `expected "path" or "cases"`, `expected string or object`. */
function alternatives(choice: Entry, branchSchemas: unknown[]): Entry {
  const requiredOnly = branchSchemas.map(requiredOnlyKey);
  if (requiredOnly.every((key) => key !== undefined)) {
    return {
      ...choice,
      made: {
        code: 'schema.required',
        message: `missing required key ${orList(requiredOnly.map(quote))}`,
      },
    };
  }
  const kinds = [...new Set(branchSchemas.flatMap(describeSchemaKind))];
  return {
    ...choice,
    made: {
      code: 'schema.type',
      message: `expected ${orList(kinds)}, found ${describeFound(choice.data)}`,
    },
  };
}

/** `{ required: ['path'] }` → `path`: a branch that only asks for one key. */
function requiredOnlyKey(schema: unknown): string | undefined {
  if (!isRecord(schema)) return undefined;
  const keys = Object.keys(schema).filter((k) => k !== 'description');
  const required = schema.required;
  return keys.length === 1 &&
    Array.isArray(required) &&
    required.length === 1 &&
    typeof required[0] === 'string'
    ? required[0]
    : undefined;
}

/** What a branch accepts, as the alternatives of an "expected A or B" message. */
function describeSchemaKind(schema: unknown): string[] {
  if (!isRecord(schema)) return ['a valid value'];
  if ('const' in schema) return [JSON.stringify(schema.const)];
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v));
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.map(String);
  return ['a valid value'];
}

/** Other failures at a path whose value has the wrong type are consequences of it. */
function dropConsequencesOfTypeErrors(entries: Entry[]): Entry[] {
  const typeErrors = entries.filter((e) => e.keyword === 'type' || e.made?.code === 'schema.type');
  return entries.filter(
    (entry) =>
      entry.keyword === 'type' ||
      entry.made?.code === 'schema.type' ||
      !typeErrors.some((t) => samePath(t.path, entry.path)),
  );
}

function render(entry: Entry): SchemaProblem {
  if (entry.made) return { code: entry.made.code, path: entry.path, message: entry.made.message };
  const { params, parentSchema: parent } = entry;
  // Described only where a message shows it: an object with 20,000 unknown keys is one
  // problem per key, and describing the object for each would be quadratic.
  const found = entry.keyword === 'additionalProperties' ? '' : describeFound(entry.data);
  const code = `schema.${kebab(entry.keyword)}`;
  const hint =
    typeof parent.patternErrorMessage === 'string' ? parent.patternErrorMessage : undefined;
  switch (entry.keyword) {
    case 'type': {
      const wanted = Array.isArray(params.type)
        ? orList(params.type.map(String))
        : String(params.type);
      if (hint) {
        // A format with a message (a duration) says what it wants better than "string". A bare
        // number is a duration without its unit; anywhere else (a revision, an id) it is a value
        // YAML read as a number, which quotes keep as text.
        const unit =
          typeof entry.data !== 'number'
            ? ''
            : hint.includes('duration')
              ? ` (a number needs a unit, e.g. "${entry.data}s")`
              : ' (YAML reads it as a number: write it in quotes)';
        return { code, path: entry.path, message: `${hint}, found ${found}${unit}` };
      }
      // A sha or revision such as 1234567 or 8e71234567 reads as a YAML number (true and
      // false as booleans): say why, and what to write instead.
      const kind = typeof entry.data;
      const quote =
        wanted === 'string' && (kind === 'number' || kind === 'boolean')
          ? ` (YAML reads it as a ${kind}: write it in quotes)`
          : '';
      return { code, path: entry.path, message: `expected ${wanted}, found ${found}${quote}` };
    }
    case 'required':
      return {
        code,
        path: entry.path,
        message: `missing required key ${quote(String(params.missingProperty))}`,
      };
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = isRecord(parent.properties) ? Object.keys(parent.properties) : [];
      const near = closestMatch(key, known);
      const suggestion = near
        ? ` (did you mean ${quote(near)}?)`
        : known.length > 0
          ? ` (expected one of: ${known.join(', ')})`
          : ' (no keys are allowed here)';
      return {
        code: 'schema.unknown-key',
        path: entry.path,
        key,
        message: `unknown key ${quote(key)}${suggestion}`,
      };
    }
    case 'const':
      return {
        code,
        path: entry.path,
        message: `expected ${JSON.stringify(params.allowedValue)}, found ${found}`,
      };
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
      return {
        code,
        path: entry.path,
        message: `expected ${orList(allowed.map((v) => JSON.stringify(v)))}, found ${found}`,
      };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { code, path: entry.path, message: `expected ${numberRange(parent)}, found ${found}` };
    case 'minItems':
    case 'maxItems': {
      const limit = Number(params.limit);
      const bound = entry.keyword === 'minItems' ? 'at least' : 'at most';
      return {
        code,
        path: entry.path,
        message: `expected ${bound} ${limit} item${limit === 1 ? '' : 's'}, found ${found}`,
      };
    }
    case 'minLength':
    case 'maxLength': {
      const limit = Number(params.limit);
      const wanted =
        entry.keyword === 'minLength' && limit === 1
          ? 'a non-empty string'
          : `a string of ${entry.keyword === 'minLength' ? 'at least' : 'at most'} ${limit} characters`;
      return { code, path: entry.path, message: `expected ${wanted}, found ${found}` };
    }
    case 'minProperties': {
      const keys = isRecord(parent.properties) ? Object.keys(parent.properties) : [];
      const wanted =
        Number(params.limit) === 1 && keys.length > 0
          ? `at least one of: ${keys.join(', ')}`
          : `at least ${String(params.limit)} keys`;
      return { code, path: entry.path, message: `expected ${wanted}, found ${found}` };
    }
    case 'pattern':
      return {
        code,
        path: entry.path,
        message: `${hint ?? `expected a string matching /${String(params.pattern)}/`}, found ${found}`,
      };
    case 'uniqueItems': {
      const items = Array.isArray(entry.data) ? (entry.data as unknown[]) : [];
      const [first = 0, second = 0] = [Number(params.i), Number(params.j)].sort((a, b) => a - b);
      return {
        code,
        path: entry.path,
        message: `expected unique items, found ${describeFound(items[first])} twice (items ${first} and ${second})`,
      };
    }
    case 'oneOf': {
      const keys = (Array.isArray(entry.schema) ? entry.schema : []).map(requiredOnlyKey);
      const message = keys.every((k) => k !== undefined)
        ? `expected only one of ${orList(keys.map(quote))}, found more than one`
        : `expected a value matching exactly one alternative, found one matching several`;
      return { code, path: entry.path, message };
    }
    default:
      return {
        code,
        path: entry.path,
        message: `invalid value (${entry.ajvMessage}), found ${found}`,
      };
  }
}

function numberRange(schema: Record<string, unknown>): string {
  const noun = schema.type === 'integer' ? 'an integer' : 'a number';
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (typeof minimum === 'number' && typeof maximum === 'number')
    return `${noun} from ${minimum} to ${maximum}`;
  const parts: string[] = [];
  if (typeof minimum === 'number') parts.push(`>= ${minimum}`);
  if (typeof exclusiveMinimum === 'number') parts.push(`> ${exclusiveMinimum}`);
  if (typeof maximum === 'number') parts.push(`<= ${maximum}`);
  if (typeof exclusiveMaximum === 'number') parts.push(`< ${exclusiveMaximum}`);
  return `${noun} ${parts.join(' and ')}`;
}

/** `["a", "b", "c"]` → `a, b or c`. */
export function orList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function quote(text: string | undefined): string {
  return JSON.stringify(text ?? '');
}

function kebab(keyword: string): string {
  return keyword.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * The value found, for "found …": as `describeValue` says it, except a YAML `!!binary` value,
 * which yaml reads as bytes and which would read as an object of numbered keys.
 */
function describeFound(value: unknown): string {
  return value instanceof Uint8Array ? 'binary data (!!binary)' : describeValue(value);
}
