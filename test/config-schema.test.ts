/**
 * `schemas/evals.schema.json` is the reference for evals.yaml and what editors show: every
 * property is described, and its shape is pinned so a change to it is a deliberate one.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  OUTPUTS,
  generateConfigValidator,
  generateOptionValidators,
} from '../scripts/gen-validators.ts';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { evalsSchema } from '../src/config/schema-check.ts';

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Every property schema (and every `additionalProperties` schema) with its location. */
function propertySchemas(schema: unknown, at: string): [string, Schema][] {
  if (!isSchema(schema)) return [];
  const found: [string, Schema][] = [];
  if (isSchema(schema.properties)) {
    for (const [key, child] of Object.entries(schema.properties)) {
      if (isSchema(child)) found.push([`${at}.properties.${key}`, child]);
      found.push(...propertySchemas(child, `${at}.properties.${key}`));
    }
  }
  if (isSchema(schema.additionalProperties)) {
    found.push([`${at}.additionalProperties`, schema.additionalProperties]);
    found.push(...propertySchemas(schema.additionalProperties, `${at}.additionalProperties`));
  }
  if (isSchema(schema.items)) found.push(...propertySchemas(schema.items, `${at}.items`));
  if (isSchema(schema.definitions)) {
    for (const [name, child] of Object.entries(schema.definitions)) {
      found.push(...propertySchemas(child, `definitions.${name}`));
    }
  }
  return found;
}

function propertyNames(schema: unknown): string[] {
  return isSchema(schema) && isSchema(schema.properties) ? Object.keys(schema.properties) : [];
}

describe('evals.schema.json', () => {
  it('describes every property, for editors', () => {
    const all = propertySchemas(evalsSchema, '#');
    assert.ok(all.length >= 35, `only ${all.length} properties found: the walk is broken`);
    const undocumented = all
      .filter(
        ([, schema]) => typeof schema.description !== 'string' || schema.description.length < 10,
      )
      .map(([where]) => where);
    assert.deepEqual(undocumented, []);
  });

  it('is draft-07 and compiles in strict mode', () => {
    assert.equal(evalsSchema.$schema, 'http://json-schema.org/draft-07/schema#');
    const ajv = new Ajv({ strict: true, strictTypes: false, strictRequired: false });
    ajv.addVocabulary(['patternErrorMessage']);
    assert.doesNotThrow(() => ajv.compile(evalsSchema));
  });

  it('has its precompiled validators up to date (npm run gen)', () => {
    assert.equal(
      readFileSync(OUTPUTS.config, 'utf8'),
      generateConfigValidator(),
      'src/config/evals-schema-validator.generated.ts is stale: run npm run gen',
    );
    assert.equal(
      readFileSync(OUTPUTS.options, 'utf8'),
      generateOptionValidators(),
      'src/config/builtin-options-validators.generated.ts is stale: run npm run gen',
    );
  });

  it('closes every object to unknown keys', () => {
    const open: string[] = [];
    const visit = (schema: unknown, at: string): void => {
      if (!isSchema(schema)) return;
      if (schema.type === 'object' && schema.additionalProperties === undefined) open.push(at);
      for (const [key, child] of Object.entries(schema)) {
        if (Array.isArray(child)) child.forEach((item, i) => visit(item, `${at}.${key}[${i}]`));
        else visit(child, `${at}.${key}`);
      }
    };
    visit(evalsSchema, '#');
    // Free-form by design: an evaluator's options (checked against the built-in's own schema),
    // an inline case (a row of user data), a target (closed by the definition its type picks)
    // and a model target's response schema (a JSON Schema of the user's).
    assert.deepEqual(open, [
      '#.definitions.testset.properties.cases.items',
      '#.definitions.evaluator.properties.with',
      '#.definitions.target',
      '#.definitions.modelTarget.properties.responseFormat.anyOf[1]',
    ]);
  });

  it('pins the keys of each section', () => {
    const definitions = evalsSchema.definitions as Record<string, Schema>;
    assert.deepEqual(propertyNames(evalsSchema), [
      'version',
      'defaults',
      'suites',
      'removedSuites',
    ]);
    assert.deepEqual(propertyNames((evalsSchema.properties as Schema).defaults), [
      'concurrency',
      'timeout',
      'stopAfterErrors',
      'trials',
      'isolation',
      'judge',
    ]);
    assert.deepEqual(propertyNames(definitions.judgeSettings), [
      'model',
      'embeddingModel',
      'baseUrl',
      'apiKey',
      'headers',
      'temperature',
      'timeout',
      'maxRetries',
    ]);
    assert.deepEqual(
      propertyNames(
        (
          (evalsSchema.properties as Record<string, Schema>).defaults?.properties as Record<
            string,
            Schema
          >
        ).judge,
      ),
      [...propertyNames(definitions.judgeSettings), 'prices', 'hostConcurrency'],
    );
    assert.deepEqual(propertyNames(definitions.suite), [
      'id',
      'testset',
      'hash',
      'function',
      'output',
      'target',
      'grid',
      'concurrency',
      'timeout',
      'trials',
      'isolation',
      'allowEmpty',
      'evaluators',
      'pass',
      'gate',
    ]);
    assert.deepEqual(propertyNames(definitions.testset), [
      'path',
      'ref',
      'cases',
      'revision',
      'split',
      'tags',
      'id',
    ]);
    assert.deepEqual(propertyNames(definitions.evaluator), [
      'id',
      'use',
      'with',
      'threshold',
      'concurrency',
      'timeout',
      'judge',
      'when',
      'not',
      'agreement',
    ]);
    assert.deepEqual(propertyNames(definitions.threshold), ['lt', 'lte', 'gt', 'gte']);
    assert.deepEqual(propertyNames(definitions.gate), [
      'minPassRate',
      'evaluators',
      'regressions',
      'removedEvaluators',
      'removedGridValues',
      'minDetectableEffect',
    ]);
  });
});
