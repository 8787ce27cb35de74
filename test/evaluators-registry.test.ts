/**
 * What every built-in shares: the registry, the option schemas, load-time `validate()`, default
 * thresholds, the helpers behind them (durations, metadata caps) and speed. The edit distance
 * behind `levenshtein` has its own tests in edit-distance.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { durationMs } from '../src/evaluators/duration.ts';
import { compactValue, truncateText } from '../src/evaluators/metadata.ts';
import { OptionError, textOf } from '../src/evaluators/options.ts';
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

void describe('option schemas accept what a user writes', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const rows: { use: BuiltinEvaluatorName; with: Record<string, unknown>; valid: boolean }[] = [
    {
      use: 'is-equals',
      with: { expected: '{{case.capital}}', actual: '{{output.answer}}' },
      valid: true,
    },
    {
      use: 'is-equals',
      with: { expected: { a: [1] }, ignoreCase: true, trim: false },
      valid: true,
    },
    { use: 'is-equals', with: { actual: 'x' }, valid: false },
    { use: 'is-equals', with: { expected: 1, ignorecase: true }, valid: false },
    { use: 'is-valid-json', with: {}, valid: true },
    { use: 'has-all-substrings', with: { substrings: '{{case.keywords}}' }, valid: true },
    { use: 'has-all-substrings', with: { substrings: ['a', '{{case.b}}'] }, valid: true },
    { use: 'has-all-substrings', with: { substrings: 'abc' }, valid: false },
    {
      use: 'has-all-substrings',
      with: { substrings: ['a'], ignoreCase: '{{params.ic}}' },
      valid: true,
    },
    { use: 'contains', with: { values: [] }, valid: false },
    { use: 'contains', with: { values: ['a'] }, valid: true },
    { use: 'regex', with: { pattern: '\\d+', flags: 'i', match: 'none' }, valid: true },
    { use: 'regex', with: { pattern: 'a', match: 'never' }, valid: false },
    { use: 'regex', with: { flags: 'i' }, valid: false },
    { use: 'json-schema', with: { schema: { type: 'object' } }, valid: true },
    { use: 'json-schema', with: { schema: '{{case.schema}}' }, valid: true },
    { use: 'json-schema', with: { schema: 'object' }, valid: false },
    { use: 'assertions', with: {}, valid: true },
    { use: 'assertions', with: { assertions: '{{output.assertions}}' }, valid: true },
    { use: 'assertions', with: { assertions: [{ criterion: 'x', passed: true }] }, valid: true },
    { use: 'levenshtein', with: { expected: 'abc' }, valid: true },
    { use: 'levenshtein', with: {}, valid: false },
    { use: 'length', with: { min: 1, max: 200, unit: 'words' }, valid: true },
    { use: 'length', with: { max: '{{case.maxChars}}' }, valid: true },
    { use: 'length', with: { max: 1.5 }, valid: false },
    { use: 'length', with: { max: -1 }, valid: false },
    { use: 'length', with: { max: 'ten' }, valid: false },
    { use: 'latency', with: { max: '500ms' }, valid: true },
    { use: 'latency', with: { max: 250 }, valid: true },
    { use: 'latency', with: { max: '{{params.budget}}' }, valid: true },
    { use: 'latency', with: { max: 'fast' }, valid: false },
    { use: 'latency', with: {}, valid: false },
    { use: 'factual-correctness', with: { mode: 'recall' }, valid: true },
    { use: 'factual-correctness', with: { mode: '{{params.mode}}' }, valid: true },
    { use: 'factual-correctness', with: { mode: 'accuracy' }, valid: false },
    { use: 'noise-sensitivity', with: { mode: 'irrelevant', question: 'Q?' }, valid: true },
    { use: 'noise-sensitivity', with: { mode: 'noisy' }, valid: false },
    { use: 'context-entities-recall', with: { question: 'Q?' }, valid: false },
  ];
  for (const row of rows) {
    void it(`${row.use} ${JSON.stringify(row.with)} is ${row.valid ? 'valid' : 'invalid'}`, () => {
      const validate = ajv.compile(builtinEvaluators[row.use].optionsSchema);
      assert.equal(validate(row.with), row.valid, JSON.stringify(validate.errors));
    });
  }
});

void describe('validate() at load time', () => {
  const rows: {
    use: BuiltinEvaluatorName;
    with: Record<string, unknown>;
    problems: { path: string; message: RegExp }[];
  }[] = [
    { use: 'regex', with: { pattern: '\\d+', flags: 'gi' }, problems: [] },
    {
      use: 'regex',
      with: { pattern: '(unclosed' },
      problems: [{ path: 'pattern', message: /^Invalid regular expression: \/\(unclosed\/: / }],
    },
    {
      use: 'regex',
      with: { pattern: 'a', flags: 'q' },
      problems: [{ path: 'flags', message: /Invalid flags supplied to RegExp constructor 'q'/ }],
    },
    { use: 'regex', with: { pattern: '{{case.re}}' }, problems: [] },
    { use: 'regex', with: { pattern: '(', flags: '{{params.flags}}' }, problems: [] },
    { use: 'json-schema', with: { schema: { type: 'object', example: { a: 1 } } }, problems: [] },
    {
      use: 'json-schema',
      with: { schema: { type: 'numbr' } },
      problems: [{ path: 'schema', message: /^invalid JSON Schema: schema is invalid/ }],
    },
    {
      use: 'json-schema',
      with: { schema: { type: 'object', requried: ['a'] } },
      problems: [{ path: 'schema', message: /unknown keyword: "requried"/ }],
    },
    {
      use: 'json-schema',
      with: { schema: { $ref: '#/definitions/missing' } },
      problems: [{ path: 'schema', message: /can't resolve reference/ }],
    },
    { use: 'json-schema', with: { schema: '{{case.schema}}' }, problems: [] },
    {
      use: 'json-schema',
      with: { schema: { type: 'object', properties: { a: { type: '{{case.t}}' } } } },
      problems: [],
    },
    { use: 'length', with: { max: 10 }, problems: [] },
    { use: 'length', with: {}, problems: [{ path: 'min', message: /give "min", "max" or both/ }] },
    {
      use: 'length',
      with: { min: 5, max: 2 },
      problems: [{ path: 'min', message: /"min" \(5\) is greater than "max" \(2\)/ }],
    },
    { use: 'length', with: { min: '{{case.min}}', max: 2 }, problems: [] },
    { use: 'latency', with: { max: '2s' }, problems: [] },
    {
      use: 'latency',
      with: { max: '2 days' },
      problems: [{ path: 'max', message: /expected a duration such as "500ms".*found "2 days"/ }],
    },
    { use: 'latency', with: { max: -5 }, problems: [{ path: 'max', message: /found -5/ }] },
    { use: 'latency', with: { max: '{{params.budget}}' }, problems: [] },
  ];
  for (const row of rows) {
    void it(`${row.use} ${JSON.stringify(row.with)}`, () => {
      const problems = builtinEvaluators[row.use].validate?.(row.with) ?? [];
      assert.equal(problems.length, row.problems.length, JSON.stringify(problems));
      row.problems.forEach((expected, i) => {
        assert.equal(problems[i]?.path, expected.path);
        assert.match(problems[i]?.message ?? '', expected.message);
      });
    });
  }
});

void describe('errors thrown per case', () => {
  void it('are OptionErrors with a stable code', async () => {
    const evaluator = builtinEvaluators['has-all-substrings'].create(
      { substrings: '{{case.keywords}}' },
      { id: 'k' },
    );
    const args = { output: 'x', params: {}, durationMs: 0, signal: new AbortController().signal };
    await assert.rejects(
      async () => evaluator.evaluateTestCase({ ...args, testCase: {} }),
      (error: unknown) => error instanceof OptionError && error.code === 'evaluator.template',
    );
    await assert.rejects(
      async () => evaluator.evaluateTestCase({ ...args, testCase: { keywords: 3 } }),
      (error: unknown) => error instanceof OptionError && error.code === 'evaluator.option',
    );
  });

  void it('do not poison later cases', async () => {
    const evaluator = builtinEvaluators['is-equals'].create(
      { expected: '{{case.a}}' },
      { id: 'e' },
    );
    const args = { output: 'x', params: {}, durationMs: 0, signal: new AbortController().signal };
    await assert.rejects(async () => evaluator.evaluateTestCase({ ...args, testCase: {} }));
    assert.equal((await evaluator.evaluateTestCase({ ...args, testCase: { a: 'x' } })).score, 1);
  });
});

void describe('durationMs', () => {
  const rows: [unknown, number | null][] = [
    ['500ms', 500],
    ['2s', 2000],
    ['1.5s', 1500],
    ['1m', 60_000],
    ['1h', 3_600_000],
    [' 2s ', 2000],
    ['2 s', null], // one grammar with the config's timeout:
    ['250', 250],
    [250, 250],
    [0, 0],
    ['.5s', null],
    ['fast', null],
    ['2 days', null],
    ['-1s', null],
    [-1, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    [null, null],
    ['', null],
  ];
  for (const [input, expected] of rows) {
    void it(`${JSON.stringify(input) ?? String(input)} → ${expected}`, () => {
      assert.equal(durationMs(input), expected);
    });
  }
});

void describe('levenshtein', () => {
  void it('says approximate in its metadata for huge unrelated texts', async () => {
    const evaluator = builtinEvaluators.levenshtein.create(
      { expected: 'ab'.repeat(20_000) },
      { id: 'l' },
    );
    const evaluation = await evaluator.evaluateTestCase({
      testCase: {},
      output: 'cd'.repeat(20_000),
      params: {},
      durationMs: 0,
      signal: new AbortController().signal,
    });
    assert.equal(evaluation.metadata?.approximate, true);
    assert.ok(evaluation.score >= 0 && evaluation.score <= 1);
  });
});

void describe('metadata caps', () => {
  void it('cuts long strings and says how much was cut', () => {
    assert.equal(truncateText('abcdef', 4), 'abcd… (2 more characters)');
    assert.equal(truncateText('short'), 'short');
  });
  void it('does not split a surrogate pair', () => {
    assert.equal(truncateText('a😀b', 2), 'a… (3 more characters)');
  });
  void it('replaces a large object with its cut JSON text', () => {
    const big = { items: Array.from({ length: 200 }, (_, i) => i) };
    const compact = compactValue(big);
    assert.equal(typeof compact, 'string');
    assert.ok((compact as string).length < 600);
    assert.deepEqual(compactValue({ a: 1 }), { a: 1 });
  });
  void it('shows what JSON would lose', () => {
    assert.equal(compactValue(undefined), 'undefined');
    assert.equal(compactValue(Number.NaN), 'NaN');
    assert.equal(compactValue(10n), '10');
  });
});

void describe('textOf (the text of a non-string value under test)', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const rows: [string, unknown, string][] = [
    ['a string as it is', 'héllo', 'héllo'],
    ['a number as JSON', 42, '42'],
    ['an object as JSON', { a: [1, 'b'] }, '{"a":[1,"b"]}'],
    ['null', null, 'null'],
    ['undefined as empty', undefined, ''],
    ['a BigInt', 12n, '12'],
    ['a cycle is described', cyclic, '[object that JSON cannot encode]'],
  ];
  for (const [name, value, expected] of rows) {
    void it(name, () => assert.equal(textOf(value), expected));
  }
});

void describe('many cases', () => {
  void it('10,000 cases × 3 templated evaluators score every case', async () => {
    const evaluators = [
      builtinEvaluators['is-equals'].create(
        { expected: '{{case.capital}}', actual: '{{output.answer}}', ignoreCase: true },
        { id: 'exact' },
      ),
      builtinEvaluators['has-all-substrings'].create(
        { substrings: '{{case.keywords}}', actual: '{{output.answer}}' },
        { id: 'mentions' },
      ),
      builtinEvaluators.length.create({ max: 200 }, { id: 'short' }),
    ];
    const signal = new AbortController().signal;
    const cases = Array.from({ length: 10_000 }, (_, i) => ({
      capital: `City ${i}`,
      keywords: ['City', String(i)],
    }));
    const run = async (): Promise<number> => {
      let total = 0;
      for (const testCase of cases) {
        const output = { answer: `city ${testCase.keywords[1]}` };
        for (const evaluator of evaluators) {
          const evaluation = await evaluator.evaluateTestCase({
            testCase,
            output,
            params: {},
            durationMs: 1,
            signal,
          });
          total += evaluation.score;
        }
      }
      return total;
    };
    assert.equal(await run(), 20_000); // has-all-substrings is case-sensitive: "City" is missing
    // Templates are cached per evaluator: a second pass must give the same scores.
    assert.equal(await run(), 20_000);
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
