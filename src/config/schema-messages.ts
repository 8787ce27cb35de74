/**
 * The words of each schema violation the reduction in schema-errors.ts keeps: "expected X,
 * found Y" by ajv keyword, with the value found described as a message may show it.
 */
import { percentageHint } from '../shared/percentage-hint.ts';
import { describeValue } from '../shared/errors.ts';
import { closestMatch } from './did-you-mean.ts';
import type { ConfigPath } from './types.ts';
import { isRecord } from '../shared/is-record.ts';

/** A schema violation, located by config path. */
export interface SchemaProblem {
  code: string;
  /** The value the message is about; also the path shown to the user. */
  path: ConfigPath;
  /** Set for an unknown key: point at this key of the mapping at `path` rather than at the value. */
  key?: string;
  message: string;
}

/** One of ajv's errors, read into what the reduction and the messages need. */
export interface Entry {
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

/**
 * The problem a user reads for one violation; `scrub` removes the config's secrets from a value
 * quoted, before it is cut (see `describeValue`).
 */
export function renderProblem(entry: Entry, scrub?: (text: string) => string): SchemaProblem {
  if (entry.made) return { code: entry.made.code, path: entry.path, message: entry.made.message };
  const { params, parentSchema: parent } = entry;
  // Described only where a message shows it: an object with 20,000 unknown keys is one
  // problem per key, and describing the object for each would be quadratic.
  const found = entry.keyword === 'additionalProperties' ? '' : describeFound(entry.data, scrub);
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
        // An infinity or NaN (`.inf`) is no duration without a unit either: no hint.
        const unit =
          typeof entry.data !== 'number' || !Number.isFinite(entry.data)
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
      return {
        code,
        path: entry.path,
        message: `expected ${wanted}, found ${found}${quote}${percentHint(parent, entry.data)}`,
      };
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
      return {
        code,
        path: entry.path,
        message: `expected ${numberRange(parent)}, found ${found}${percentHint(parent, entry.data)}`,
      };
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
        message: `expected unique items, found ${describeFound(items[first], scrub)} twice (items ${first} and ${second})`,
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

/** What to add when a share (a range from 0 to 1) was written as a percentage. */
function percentHint(schema: Record<string, unknown>, value: unknown): string {
  return schema.minimum === 0 && schema.maximum === 1 ? percentageHint(value) : '';
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

/** A key or name, quoted as a message shows it. */
export function quote(text: string | undefined): string {
  return JSON.stringify(text ?? '');
}

function kebab(keyword: string): string {
  return keyword.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * The value found, for "found …": as `describeValue` says it, except a YAML `!!binary` value,
 * which yaml reads as bytes and which would read as an object of numbered keys.
 */
export function describeFound(value: unknown, scrub?: (text: string) => string): string {
  return value instanceof Uint8Array ? 'binary data (!!binary)' : describeValue(value, scrub);
}

/** `{ required: ['path'] }` → `path`: a branch that only asks for one key. */
export function requiredOnlyKey(schema: unknown): string | undefined {
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

/**
 * What to add to a type problem (`expected integer, found "4"`) whose value is a number or a
 * boolean written in quotes, which YAML reads as text: ` (in quotes it is text: write 4 without
 * them)`, else `''`. Not for a value `${VAR}` made: its own note says how to give a number from
 * the environment (see `EnvOrigins`), where dropping the quotes alone may not do.
 */
export function quotedValueHint(
  problem: { code: string; message: string },
  value: unknown,
): string {
  if (problem.code !== 'schema.type' || typeof value !== 'string') return '';
  const wanted = /^expected (integer|number|boolean)\b/.exec(problem.message)?.[1];
  const text = value.trim();
  const reads =
    wanted === 'boolean'
      ? text === 'true' || text === 'false'
      : wanted !== undefined && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text);
  return reads ? ` (in quotes it is text: write ${text} without them)` : '';
}
