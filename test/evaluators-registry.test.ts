/**
 * The built-in registry: its names, default thresholds and model calls, and docs/evaluators.md
 * kept in step with it. The options, validation and helpers every built-in shares are in
 * evaluators-registry-options.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import {
  BUILTIN_EVALUATOR_NAMES,
  builtinEvaluators,
  isBuiltinEvaluatorName,
  type BuiltinEvaluatorName,
} from '../src/evaluators/registry.ts';
import type { Threshold } from '../src/types/index.ts';

/** Written out by hand on purpose: adding a built-in must be a deliberate change here too. */
const EXPECTED_NAMES: BuiltinEvaluatorName[] = [
  'is-equals',
  'is-valid-json',
  'has-all-substrings',
  'contains',
  'regex',
  'json-schema',
  'assertions',
  'levenshtein',
  'length',
  'latency',
  'llm-judge',
  'accuracy',
  'nsfw',
  'toxicity',
  'manual-battle',
  'automatic-battle',
  'faithfulness',
  'answer-relevancy',
  'semantic-similarity',
  'context-precision',
  'context-recall',
  'llm-context-precision',
  'llm-context-recall',
  'context-entities-recall',
  'factual-correctness',
  'noise-sensitivity',
];

/** Each built-in's default threshold, also written out by hand; absent: scores are only reported. */
const DEFAULT_THRESHOLDS: Partial<Record<BuiltinEvaluatorName, Threshold>> = {
  'is-equals': { gte: 1 },
  'is-valid-json': { gte: 1 },
  'has-all-substrings': { gte: 1 },
  contains: { gte: 1 },
  regex: { gte: 1 },
  'json-schema': { gte: 1 },
  assertions: { gte: 1 },
  length: { gte: 1 },
  latency: { gte: 1 },
  accuracy: { gte: 1 },
  nsfw: { gte: 1 },
  toxicity: { gte: 1 },
  // A battle passes unless the output reliably loses (0.5 is a tie).
  'manual-battle': { gte: 0.5 },
  'automatic-battle': { gte: 0.5 },
  // Lower is better: the share of claims wrong because of what was retrieved.
  'noise-sensitivity': { lte: 0.5 },
};

/** The built-ins that call a model, and which endpoint. */
const MODEL_CALLS: Partial<Record<BuiltinEvaluatorName, 'chat' | 'embeddings'>> = {
  'llm-judge': 'chat',
  accuracy: 'chat',
  nsfw: 'chat',
  toxicity: 'chat',
  'manual-battle': 'chat',
  'automatic-battle': 'chat',
  faithfulness: 'chat',
  'answer-relevancy': 'chat',
  'semantic-similarity': 'embeddings',
  'llm-context-precision': 'chat',
  'llm-context-recall': 'chat',
  'context-entities-recall': 'chat',
  'factual-correctness': 'chat',
  'noise-sensitivity': 'chat',
};

void describe('the registry', () => {
  void it('holds exactly the BuiltinEvaluatorName list', () => {
    assert.deepEqual([...BUILTIN_EVALUATOR_NAMES].sort(), [...EXPECTED_NAMES].sort());
    assert.deepEqual(Object.keys(builtinEvaluators).sort(), [...EXPECTED_NAMES].sort());
  });

  void it('tells built-in names from anything else', () => {
    assert.equal(isBuiltinEvaluatorName('regex'), true);
    assert.equal(isBuiltinEvaluatorName('toString'), false);
    assert.equal(isBuiltinEvaluatorName('./tone.ts'), false);
  });

  for (const name of EXPECTED_NAMES) {
    const definition = builtinEvaluators[name];
    void describe(name, () => {
      void it('has a one-line summary', () => {
        assert.ok(definition.summary.length > 10 && !definition.summary.includes('\n'));
      });

      void it('has an options schema that compiles in strict ajv, closed, with a description per option', () => {
        const ajv = new Ajv({ strict: true, strictTypes: false, allErrors: true });
        // The one annotation the schemas use: the message shown when a `pattern` fails.
        ajv.addVocabulary(['patternErrorMessage']);
        ajv.compile(definition.optionsSchema);
        const schema = definition.optionsSchema as {
          type: string;
          additionalProperties: unknown;
          properties: Record<string, { description?: unknown }>;
        };
        assert.equal(schema.type, 'object');
        assert.equal(schema.additionalProperties, false);
        const options = Object.entries(schema.properties);
        assert.ok(options.length > 0);
        for (const [option, property] of options) {
          assert.equal(
            typeof property.description,
            'string',
            `${name}.${option} has no description`,
          );
        }
      });

      const threshold = DEFAULT_THRESHOLDS[name];
      void it(
        threshold
          ? `defaults to threshold ${JSON.stringify(threshold)}`
          : 'has no default threshold',
        () => {
          assert.deepEqual(definition.defaultThreshold, threshold);
        },
      );

      void it(
        MODEL_CALLS[name] ? `calls the ${MODEL_CALLS[name]} endpoint` : 'calls no model',
        () => {
          assert.equal(definition.calls, MODEL_CALLS[name]);
        },
      );
    });
  }

  void it('created evaluators carry the id and the default threshold', () => {
    const evaluator = builtinEvaluators.contains.create({ values: ['a'] }, { id: 'mentions' });
    assert.equal(evaluator.id, 'mentions');
    assert.deepEqual(evaluator.threshold, { gte: 1 });
    const gradient = builtinEvaluators.levenshtein.create({ expected: 'a' }, { id: 'similar' });
    assert.equal(gradient.threshold, undefined);
  });
});

void describe('docs/evaluators.md', () => {
  const docs = readFileSync(new URL('../docs/evaluators.md', import.meta.url), 'utf8');

  void it('has a section per built-in naming each of its options', () => {
    for (const name of EXPECTED_NAMES) {
      const start = docs.indexOf(`\n## ${name}\n`);
      assert.ok(start >= 0, `no "## ${name}" section`);
      const end = docs.indexOf('\n## ', start + 1);
      const section = docs.slice(start, end === -1 ? undefined : end);
      const properties = (builtinEvaluators[name].optionsSchema as { properties: object })
        .properties;
      for (const option of Object.keys(properties)) {
        assert.ok(
          section.includes(`| \`${option}\``),
          `${name}: option ${option} is not in its table`,
        );
      }
    }
  });

  void it('has YAML examples that pass the option schemas and validate()', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const blocks = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    let checked = 0;
    for (const block of blocks) {
      const parsed: unknown = parseYaml(block);
      const entries = Array.isArray(parsed) ? (parsed as unknown[]) : [];
      for (const entry of entries) {
        const { use, with: options = {} } = entry as {
          use: string;
          with?: Record<string, unknown>;
        };
        if (!isBuiltinEvaluatorName(use)) continue;
        const definition = builtinEvaluators[use];
        const validate = ajv.compile(definition.optionsSchema);
        assert.ok(validate(options), `${use}: ${JSON.stringify(validate.errors)}`);
        assert.deepEqual(definition.validate?.(options) ?? [], [], use);
        checked++;
      }
    }
    assert.ok(checked >= EXPECTED_NAMES.length, `only ${checked} examples checked`);
  });
});
