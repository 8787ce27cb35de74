/**
 * What every built-in shares besides the registry: the option schemas, load-time `validate()`,
 * errors per case, the helpers behind them (durations, metadata caps, text of a value) and speed.
 * The edit distance behind `levenshtein` has its own tests in edit-distance.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { durationMs } from '../src/evaluators/duration.ts';
import { compactValue, truncateText } from '../src/evaluators/metadata.ts';
import { OptionError, textOf } from '../src/evaluators/options.ts';
import { builtinEvaluators, type BuiltinEvaluatorName } from '../src/evaluators/registry.ts';

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
    assert.equal(truncateText('a😀b', 2), 'a😀… (1 more character)');
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
