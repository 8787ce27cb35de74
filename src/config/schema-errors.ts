/**
 * ajv's errors turned into the problems a user reads: one message per mistake, in the form
 * "expected X, found Y", attached to the config path of the offending value (or key).
 *
 * ajv with `allErrors` is noisy: a failed `anyOf` reports every branch, a wrong type also
 * fails the keywords that assume the right one. This module reduces that to the single most
 * useful message per location; schema-messages.ts words each one.
 */
import type { ErrorObject } from 'ajv';
import { pointerToPath } from './config-path.ts';
import type { ConfigPath } from './types.ts';
import { isRecord } from '../shared/is-record.ts';
import { hasTemplates } from '../shared/templates.ts';
import {
  describeFound,
  orList,
  quote,
  renderProblem,
  requiredOnlyKey,
  type Entry,
  type SchemaProblem,
} from './schema-messages.ts';

export type { SchemaProblem } from './schema-messages.ts';

export interface SchemaProblemOptions {
  /**
   * Built-in options may hold a `{{ template }}` string where the schema wants another type:
   * the value is only known per case. Violations by such strings are dropped, and an
   * `anyOf`/`oneOf` that a template string would satisfy counts as satisfied.
   */
  templatesAllowed?: boolean;
  /**
   * Removes the config's secrets from a value a message quotes, before it is cut to length:
   * a cut would otherwise keep a secret's first characters, too few to recognise afterwards.
   */
  scrub?: (text: string) => string;
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
  entries = reduceComposites(entries, options.scrub).filter((entry) => !entry.excused);
  entries = dropConsequencesOfTypeErrors(entries);

  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const entry of entries) {
    const problem = renderProblem(entry, options.scrub);
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
function reduceComposites(input: Entry[], scrub?: (text: string) => string): Entry[] {
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
      replacement = [alternatives(choice, branchSchemas, scrub)];
    } else {
      const plausible = [...branches.values()].filter(
        (errors) =>
          !errors.some((e) => !e.excused && wrongKind(e) && samePath(e.path, choice.path)),
      );
      const best = plausible
        .map((errors) => errors.filter((e) => !e.excused))
        .sort((a, b) => depth(b) - depth(a) || a.length - b.length)[0];
      replacement = best ?? [alternatives(choice, branchSchemas, scrub)];
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
function alternatives(
  choice: Entry,
  branchSchemas: unknown[],
  scrub?: (text: string) => string,
): Entry {
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
      message: `expected ${orList(kinds)}, found ${describeFound(choice.data, scrub)}`,
    },
  };
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
