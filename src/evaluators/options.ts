/**
 * Reading a built-in's `with:` options at evaluation time: resolving `{{ templates }}` against
 * the case, and checking each option's type after resolution.
 *
 * Problems found here are thrown as `OptionError`: the engine turns a throw into that case's
 * evaluation error, which is the right place for a value that only turned out wrong for one row.
 */
import { describeValue } from '../shared/errors.ts';
import { setOwn } from '../shared/own-key.ts';
import { compileTemplates, hasTemplates, literalValue } from '../shared/templates.ts';
import type { EvaluatorArgs } from '../types/index.ts';

/** A built-in's `with:` object, raw or with its templates resolved. */
export type OptionValues = Record<string, unknown>;

/** An option of a built-in is unusable for this case: wrong type, bad value, or a template error. */
export class OptionError extends Error {
  /** `evaluator.template` for a template that does not resolve, else `evaluator.option`. */
  readonly code: 'evaluator.option' | 'evaluator.template';
  constructor(code: OptionError['code'], message: string) {
    super(message);
    this.name = 'OptionError';
    this.code = code;
  }
}

/**
 * Returns the per-call resolver of `raw`. Which options hold templates is worked out once here,
 * so options without templates cost nothing per case: the same object is handed back (with any
 * escaped `\{{` read as `{{`, once). Each templated option is resolved on its own so an error can
 * name it.
 */
export function optionResolver(
  raw: OptionValues,
): (args: Pick<EvaluatorArgs, 'testCase' | 'output' | 'params'>) => OptionValues {
  const templated = Object.keys(raw)
    .filter((key) => hasTemplates(raw[key]))
    .map((key) => ({ key, resolve: compileTemplates(raw[key]) }));
  const constant = literalValue(raw) as OptionValues;
  if (templated.length === 0) return () => constant;
  return ({ testCase, output, params }) => {
    const scope = { case: testCase, output, params };
    const values: OptionValues = { ...constant };
    for (const { key, resolve } of templated) {
      const resolved = resolve(scope);
      if (!resolved.ok)
        throw new OptionError('evaluator.template', `option "${key}": ${resolved.error}`);
      setOwn(values, key, resolved.value);
    }
    return values;
  };
}

/** The value under test: the `actual` option when given (even `null`), else the function's output. */
export function actualOf(values: OptionValues, args: Pick<EvaluatorArgs, 'output'>): unknown {
  return Object.hasOwn(values, 'actual') ? values.actual : args.output;
}

/**
 * The text of a value under test, for evaluators that compare text: a string as it is, anything
 * else as JSON (`42` → `"42"`, `{a:1}` → `{"a":1}`). `undefined` (a function that returned
 * nothing) is the empty string; a value JSON cannot encode (a cycle, a BigInt) is described.
 */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    const json = JSON.stringify(value) as string | undefined;
    if (json !== undefined) return json;
  } catch {
    // Falls through to the description below.
  }
  return unencodableText(value);
}

/** Text for what `JSON.stringify` refuses or drops: BigInts, symbols, functions, cycles. */
export function unencodableText(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      return `${value}`;
    case 'symbol':
      return value.toString();
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
    default:
      return `[${Array.isArray(value) ? 'array' : typeof value} that JSON cannot encode]`;
  }
}

function invalid(name: string, expected: string, found: unknown): OptionError {
  return new OptionError(
    'evaluator.option',
    `option "${name}" must be ${expected}, found ${describeValue(found)}`,
  );
}

/** A required string option. */
export function requiredString(values: OptionValues, name: string): string {
  const value = values[name];
  if (typeof value !== 'string') throw invalid(name, 'a string', value);
  return value;
}

/** An optional string option; `undefined` when absent. */
export function optionalString(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(name, 'a string', value);
  return value;
}

/**
 * An optional boolean option. The strings `"true"` and `"false"` are accepted too, because a
 * template over a CSV cell always yields a string.
 */
export function optionalBoolean(values: OptionValues, name: string, fallback: boolean): boolean {
  const value = values[name];
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalid(name, 'a boolean', value);
}

/** A required array of strings (an empty array is allowed: what it means is up to the evaluator). */
export function requiredStringArray(values: OptionValues, name: string): string[] {
  const value = values[name];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw invalid(name, 'an array of strings', value);
  }
  return value;
}

/**
 * An optional whole number ≥ 0; `undefined` when absent. A string of digits is accepted too,
 * because a template over a CSV cell always yields a string.
 */
export function optionalCount(values: OptionValues, name: string): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  throw invalid(name, 'a whole number ≥ 0', value);
}

/** An optional option restricted to `choices`; `fallback` when absent. */
export function optionalChoice<T extends string>(
  values: OptionValues,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const value = values[name];
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (choices as readonly string[]).includes(value))
    return value as T;
  throw invalid(name, `one of ${choices.map((c) => `"${c}"`).join(', ')}`, value);
}
