import type { ErrorObject, Options as AjvOptions, ValidateFunction } from 'ajv';
import { ajvClasses } from '../shared/ajv-module.ts';
import type { AjvClasses } from '../shared/ajv-classes.ts';
import { describeValue } from '../shared/errors.ts';
import { describeJsonError } from '../shared/json-syntax.ts';
import { hasTemplates, literalValue } from '../shared/templates.ts';
import type { Evaluation } from '../types/index.ts';
import { truncateText, type MetadataCut } from './metadata.ts';
import { ACTUAL_OPTION, orTemplate } from './option-schemas.ts';
import { actualOf, OptionError } from './options.ts';
import { defineBuiltin } from './define.ts';
import { isRecord } from '../shared/is-record.ts';

/** Validation errors listed in metadata; the total is reported alongside. */
const ERRORS_SHOWN = 5;

/** Distinct templated schemas kept compiled per evaluator; past this the cache starts over. */
const SCHEMA_CACHE_LIMIT = 64;

/**
 * Strict about the schema itself (an unknown keyword such as `requried` is reported at load time
 * rather than silently ignored), lenient about what ajv cannot check without plugins: `format`
 * is not validated, since ajv-formats is not a dependency.
 */
const AJV_OPTIONS: AjvOptions = {
  allErrors: true,
  strict: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  validateFormats: false,
  // A schema with an `$id` must be compilable again (templated schemas, repeated evaluators).
  addUsedSchema: false,
  logger: false,
};

/** Annotation keywords common in hand-written schemas (OpenAPI style) that strict mode would reject. */
const ANNOTATION_KEYWORDS = ['example'];

type AnyAjv = InstanceType<AjvClasses[keyof AjvClasses]>;

/**
 * `json-schema`: the value under test conforms to `schema`. A string is parsed as JSON first
 * (a parse failure scores 0). The dialect follows the schema's `$schema` (2020-12, 2019-09,
 * else draft-07). The schema is compiled once when it holds no template.
 */
export const jsonSchema = defineBuiltin({
  summary: 'The value under test (a string is parsed as JSON) conforms to a JSON Schema.',
  optionsSchema: {
    type: 'object',
    properties: {
      schema: orTemplate(
        'The JSON Schema (draft-07 by default; 2019-09 and 2020-12 by $schema). `format` is not checked.',
        { type: 'object' },
      ),
      actual: ACTUAL_OPTION,
    },
    required: ['schema'],
    additionalProperties: false,
  },
  defaultThreshold: { gte: 1 },
  validate(options) {
    const { schema } = options;
    if (!isRecord(schema) || hasTemplates(schema)) return [];
    // Checked as the run will compile it: with its escaped `\{{` read as `{{`.
    const constant = literalValue(schema) as Record<string, unknown>;
    try {
      compileSchema(newAjv(dialectOf(constant)), constant);
      return [];
    } catch (error) {
      return [{ path: 'schema', message: `invalid JSON Schema: ${messageOf(error)}` }];
    }
  },
  prepare: (options, context) => ({
    compile: schemaCompiler(hasTemplates(options.schema)),
    scrub: context.scrub,
  }),
  score(values, args, { compile, scrub }, cut): Evaluation {
    const validateValue = compile(values.schema);
    let actual = actualOf(values, args);
    if (typeof actual === 'string') {
      const text = actual;
      try {
        actual = JSON.parse(text) as unknown;
      } catch (error) {
        // Where and what, as is-valid-json says it: the engine's message quotes a piece of the
        // text cut short (`"{"a": sk-live-01"...`), which scrubbing no longer recognises; what
        // this quotes is scrubbed whole before it is cut.
        const where = describeJsonError(text, error, scrub);
        return { score: 0, metadata: { error: truncateText(`not valid JSON: ${where}`) } };
      }
    }
    if (validateValue(actual)) return { score: 1 };
    const errors = validateValue.errors ?? [];
    return {
      score: 0,
      metadata: {
        errors: errors.slice(0, ERRORS_SHOWN).map((error) => formatError(error, cut)),
        errorCount: errors.length,
      },
    };
  },
});

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The ajv class for the schema's dialect: 2020-12 and 2019-09 by `$schema`, else draft-07. */
function dialectOf(schema: Record<string, unknown>): 'draft-07' | '2019-09' | '2020-12' {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  return 'draft-07';
}

function newAjv(dialect: ReturnType<typeof dialectOf>): AnyAjv {
  const { Ajv, Ajv2019, Ajv2020 } = ajvClasses();
  const ajv =
    dialect === '2020-12'
      ? new Ajv2020(AJV_OPTIONS)
      : dialect === '2019-09'
        ? new Ajv2019(AJV_OPTIONS)
        : new Ajv(AJV_OPTIONS);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword(keyword);
  return ajv;
}

/**
 * Compiles on `ajv` and then drops the schema from ajv's own cache: the validate function
 * keeps working, and per-case schemas do not pile up in the instance.
 */
function compileSchema(ajv: AnyAjv, schema: Record<string, unknown>): ValidateFunction {
  try {
    return ajv.compile(schema);
  } finally {
    ajv.removeSchema(schema);
  }
}

/**
 * Returns `schema → validate function`. A static schema compiles on first use; templated schemas
 * are cached by their JSON text, sharing one ajv instance per dialect.
 */
function schemaCompiler(templated: boolean): (schema: unknown) => ValidateFunction {
  const cache = new Map<string, ValidateFunction>();
  const instances = new Map<ReturnType<typeof dialectOf>, AnyAjv>();
  return (schema) => {
    if (!isRecord(schema)) {
      throw new OptionError(
        'evaluator.option',
        `option "schema" must be an object (a JSON Schema), found ${describeValue(schema)}`,
      );
    }
    const key = templated ? JSON.stringify(schema) : '';
    const cached = cache.get(key);
    if (cached) return cached;
    const dialect = dialectOf(schema);
    let ajv = instances.get(dialect);
    if (!ajv) {
      ajv = newAjv(dialect);
      instances.set(dialect, ajv);
    }
    let validate: ValidateFunction;
    try {
      validate = compileSchema(ajv, schema);
    } catch (error) {
      throw new OptionError(
        'evaluator.option',
        `option "schema" is not a valid JSON Schema: ${messageOf(error)}`,
      );
    }
    if (cache.size >= SCHEMA_CACHE_LIMIT) cache.clear();
    cache.set(key, validate);
    return validate;
  };
}

/**
 * `/items/0/name: must be string`, with the offending key for additionalProperties; cut by `cut`
 * (the built-in's, which scrubs first: the path and the key are the output's own keys).
 */
function formatError(error: ErrorObject, cut: MetadataCut): string {
  const where = error.instancePath === '' ? '/' : error.instancePath;
  const extra =
    error.keyword === 'additionalProperties'
      ? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})`
      : '';
  return cut(`${where}: ${error.message ?? error.keyword}${extra}`, 200);
}
