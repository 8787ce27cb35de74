/**
 * The built-in evaluators, table by table: the options as a user writes them in `with:`, the
 * case and output, and the score, metadata or error expected.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinEvaluators, type BuiltinEvaluatorName } from '../src/evaluators/registry.ts';
import type { Evaluation, Params } from '../src/types/index.ts';

interface Row {
  name: string;
  with: Record<string, unknown>;
  output?: unknown;
  testCase?: Record<string, unknown>;
  params?: Params;
  durationMs?: number;
  /** Expected score (omit with `error`). */
  score?: number;
  /** Compared with deepEqual when given; `null` means "no metadata". */
  metadata?: Record<string, unknown> | null;
  /** The evaluation throws an Error whose message matches. */
  error?: RegExp;
}

/** Runs `use` on one row the way the engine would: create once, then evaluate with the case. */
async function evaluate(use: BuiltinEvaluatorName, row: Row): Promise<Evaluation> {
  const evaluator = builtinEvaluators[use].create(row.with, { id: `${use}-under-test` });
  return evaluator.evaluateTestCase({
    testCase: row.testCase ?? {},
    output: row.output,
    params: row.params ?? {},
    durationMs: row.durationMs ?? 0,
    signal: new AbortController().signal,
  });
}

function table(use: BuiltinEvaluatorName, rows: Row[]): void {
  void describe(use, () => {
    for (const row of rows) {
      void it(row.name, async () => {
        if (row.error) {
          await assert.rejects(async () => evaluate(use, row), row.error);
          return;
        }
        const evaluation = await evaluate(use, row);
        assert.equal(evaluation.score, row.score);
        if (row.metadata === null) assert.equal(evaluation.metadata, undefined);
        else if (row.metadata) assert.deepEqual(evaluation.metadata, row.metadata);
      });
    }
  });
}

const long = 'x'.repeat(2000);

table('is-equals', [
  { name: 'equal strings', with: { expected: 'Paris' }, output: 'Paris', score: 1, metadata: null },
  {
    name: 'different strings',
    with: { expected: 'Paris' },
    output: 'paris',
    score: 0,
    metadata: { expected: 'Paris', actual: 'paris' },
  },
  { name: 'ignoreCase', with: { expected: 'Paris', ignoreCase: true }, output: 'PARIS', score: 1 },
  { name: 'trim', with: { expected: 'Paris', trim: true }, output: '  Paris\n', score: 1 },
  {
    name: 'without trim, whitespace counts',
    with: { expected: 'Paris' },
    output: 'Paris ',
    score: 0,
  },
  {
    name: 'unicode compared exactly',
    with: { expected: 'Zürich 🇨🇭' },
    output: 'Zürich 🇨🇭',
    score: 1,
  },
  {
    name: 'ignoreCase on non-ASCII',
    with: { expected: 'ÉCOLE', ignoreCase: true },
    output: 'école',
    score: 1,
  },
  { name: 'two empty strings', with: { expected: '' }, output: '', score: 1 },
  {
    name: 'objects regardless of key order',
    with: { expected: { a: 1, b: [1, 2, { c: 'x' }] } },
    output: { b: [1, 2, { c: 'x' }], a: 1 },
    score: 1,
  },
  {
    name: 'a nested difference is located',
    with: { expected: { a: 1, b: [1, 2, { c: 'x' }] } },
    output: { a: 1, b: [1, 2, { c: 'y' }] },
    score: 0,
    metadata: {
      expected: { a: 1, b: [1, 2, { c: 'x' }] },
      actual: { a: 1, b: [1, 2, { c: 'y' }] },
      differsAt: '$.b[2].c',
    },
  },
  { name: 'array order matters', with: { expected: [1, 2] }, output: [2, 1], score: 0 },
  { name: 'an extra key differs', with: { expected: { a: 1 } }, output: { a: 1, b: 2 }, score: 0 },
  {
    name: 'undefined-valued keys count as absent',
    with: { expected: { a: 1 } },
    output: { a: 1, b: undefined },
    score: 1,
  },
  {
    name: 'flags apply to nested strings',
    with: { expected: { city: 'paris ' }, ignoreCase: true, trim: true },
    output: { city: 'PARIS' },
    score: 1,
  },
  {
    name: 'a CSV string equals the number it spells',
    with: { expected: '42' },
    output: 42,
    score: 1,
  },
  {
    name: 'a string equals an object with that JSON',
    with: { expected: '{"a":1}' },
    output: { a: 1 },
    score: 1,
  },
  { name: 'number vs boolean', with: { expected: 1 }, output: true, score: 0 },
  { name: 'null equals null', with: { expected: null }, output: null, score: 1 },
  {
    name: 'an undefined output is not the empty string',
    with: { expected: '' },
    output: undefined,
    score: 0,
  },
  {
    name: 'templates on both sides',
    with: { expected: '{{case.capital}}', actual: '{{output.answer}}' },
    testCase: { capital: 'Paris' },
    output: { answer: 'Paris', confidence: 0.9 },
    score: 1,
  },
  {
    name: 'a whole template keeps its array',
    with: { expected: '{{case.tags}}' },
    testCase: { tags: ['a', 'b'] },
    output: ['a', 'b'],
    score: 1,
  },
  {
    name: 'an interpolated template builds text',
    with: { expected: 'Capital: {{case.capital}}' },
    testCase: { capital: 'Paris' },
    output: 'Capital: Paris',
    score: 1,
  },
  {
    name: 'params are in scope',
    with: { expected: '{{params.model}}' },
    params: { model: 'large' },
    output: 'large',
    score: 1,
  },
  {
    name: 'an unknown template path is an error naming the option and path',
    with: { expected: '{{case.capitol}}' },
    testCase: { capital: 'Paris' },
    output: 'Paris',
    error: /option "expected": template \{\{ case\.capitol \}\}: case\.capitol is not defined/,
  },
  {
    name: 'a flag of the wrong type is an error',
    with: { expected: 'a', ignoreCase: 'yes' },
    output: 'a',
    error: /option "ignoreCase" must be a boolean, found "yes"/,
  },
  {
    name: 'a flag from a CSV cell ("true")',
    with: { expected: 'a', ignoreCase: '{{case.ic}}' },
    testCase: { ic: 'true' },
    output: 'A',
    score: 1,
  },
  {
    name: 'long values are cut in metadata',
    with: { expected: long },
    output: 'short',
    score: 0,
    metadata: { expected: `${'x'.repeat(500)}… (1,500 more characters)`, actual: 'short' },
  },
]);

table('is-valid-json', [
  { name: 'a JSON object string', with: {}, output: '{"a": [1, 2]}', score: 1, metadata: null },
  { name: 'a JSON scalar string', with: {}, output: '42', score: 1 },
  { name: 'a plain word is not JSON', with: {}, output: 'hello', score: 0 },
  { name: 'the empty string is not JSON', with: {}, output: '', score: 0 },
  { name: 'trailing commas are not JSON', with: {}, output: '{"a": 1,}', score: 0 },
  { name: 'a plain object value', with: {}, output: { a: [1, 'x', null, true] }, score: 1 },
  { name: 'a number value', with: {}, output: 3.5, score: 1 },
  { name: 'null', with: {}, output: null, score: 1 },
  {
    name: 'NaN does not survive JSON',
    with: {},
    output: { a: [1, Number.NaN] },
    score: 0,
    metadata: { error: '$.a[1] is NaN, which JSON cannot represent' },
  },
  {
    name: 'undefined (no output)',
    with: {},
    output: undefined,
    score: 0,
    metadata: { error: '$ is undefined, which JSON cannot represent' },
  },
  {
    name: 'a Date is not kept as it is',
    with: {},
    output: { at: new Date(0) },
    score: 0,
    metadata: { error: '$.at is a Date, which JSON does not keep as it is' },
  },
  {
    name: 'a shared (non-circular) reference is fine',
    with: {},
    output: (() => {
      const x = { a: 1 };
      return [x, x];
    })(),
    score: 1,
  },
  {
    name: 'a circular reference',
    with: {},
    output: (() => {
      const x: Record<string, unknown> = {};
      x.self = x;
      return x;
    })(),
    score: 0,
    metadata: { error: '$.self is a circular reference' },
  },
  {
    name: 'actual points into the output',
    with: { actual: '{{output.raw}}' },
    output: { raw: '[1,2]' },
    score: 1,
  },
]);

void describe('is-valid-json metadata', () => {
  void it('carries the parse error', async () => {
    const evaluation = await evaluate('is-valid-json', { name: '', with: {}, output: '{oops' });
    assert.equal(evaluation.score, 0);
    assert.match(String(evaluation.metadata?.error), /^not valid JSON: /);
  });
});

table('has-all-substrings', [
  {
    name: 'all present',
    with: { substrings: ['hello', 'world'] },
    output: 'hello brave world',
    score: 1,
    metadata: null,
  },
  {
    name: 'some missing',
    with: { substrings: ['hello', 'moon', 'sun'] },
    output: 'hello world',
    score: 0,
    metadata: { missingSubstrings: ['moon', 'sun'] },
  },
  { name: 'case matters by default', with: { substrings: ['Hello'] }, output: 'hello', score: 0 },
  {
    name: 'ignoreCase',
    with: { substrings: ['HELLO', 'Wörld'], ignoreCase: true },
    output: 'hello WÖRLD',
    score: 1,
  },
  {
    name: 'unicode substrings',
    with: { substrings: ['日本', '🎉'] },
    output: '日本語 🎉',
    score: 1,
  },
  { name: 'an empty list always passes', with: { substrings: [] }, output: 'anything', score: 1 },
  {
    name: 'the empty substring is always present',
    with: { substrings: [''] },
    output: '',
    score: 1,
  },
  {
    name: 'a non-string output is searched as JSON',
    with: { substrings: ['"city":"Paris"'] },
    output: { city: 'Paris' },
    score: 1,
  },
  { name: 'a number output', with: { substrings: ['42'] }, output: 1420, score: 1 },
  {
    name: 'a template resolving to an array',
    with: { substrings: '{{case.keywords}}' },
    testCase: { keywords: ['Paris', 'France'] },
    output: 'Paris is in France',
    score: 1,
  },
  {
    name: 'templates inside the array',
    with: { substrings: ['{{case.city}}', 'capital'] },
    testCase: { city: 'Paris' },
    output: 'Paris is the capital',
    score: 1,
  },
  {
    name: 'a template resolving to a string is an error',
    with: { substrings: '{{case.keywords}}' },
    testCase: { keywords: 'abc' },
    output: 'abc',
    error: /option "substrings" must be an array of strings, found "abc"/,
  },
  {
    name: 'an array with a non-string is an error',
    with: { substrings: ['a', 1] },
    output: 'a1',
    error: /option "substrings" must be an array of strings, found an array \["a",1\]/,
  },
  {
    name: 'an unknown template path is an error',
    with: { substrings: '{{case.keywords}}' },
    testCase: {},
    output: 'x',
    error: /option "substrings": template \{\{ case\.keywords \}\}: case\.keywords is not defined/,
  },
  {
    name: 'missing list is capped in metadata',
    with: { substrings: Array.from({ length: 25 }, (_, i) => `w${i}`) },
    output: '',
    score: 0,
    metadata: {
      missingSubstrings: [...Array.from({ length: 20 }, (_, i) => `w${i}`), '… 5 more'],
    },
  },
]);

table('contains', [
  {
    name: 'one of them present',
    with: { values: ['cat', 'dog'] },
    output: 'a dog barks',
    score: 1,
    metadata: { matched: 'dog' },
  },
  {
    name: 'the first match is reported',
    with: { values: ['cat', 'dog'] },
    output: 'cat and dog',
    score: 1,
    metadata: { matched: 'cat' },
  },
  {
    name: 'none present',
    with: { values: ['cat', 'dog'] },
    output: 'a bird',
    score: 0,
    metadata: { expectedAnyOf: ['cat', 'dog'] },
  },
  { name: 'ignoreCase', with: { values: ['DOG'], ignoreCase: true }, output: 'a dog', score: 1 },
  { name: 'unicode', with: { values: ['café'] }, output: 'un café noir', score: 1 },
  { name: 'an empty list never passes', with: { values: [] }, output: 'x', score: 0 },
  { name: 'a non-string output', with: { values: ['true'] }, output: { ok: true }, score: 1 },
  {
    name: 'a template resolving to an array',
    with: { values: '{{case.synonyms}}' },
    testCase: { synonyms: ['yes', 'yep'] },
    output: 'yep!',
    score: 1,
  },
  {
    name: 'values of the wrong type',
    with: { values: 'dog' },
    output: 'dog',
    error: /option "values" must be an array of strings, found "dog"/,
  },
]);

table('regex', [
  {
    name: 'matches',
    with: { pattern: '\\d{3}-\\d{4}' },
    output: 'call 555-1234 now',
    score: 1,
    metadata: { match: '555-1234', index: 5 },
  },
  {
    name: 'does not match',
    with: { pattern: '^\\d+$' },
    output: 'abc',
    score: 0,
    metadata: { pattern: '^\\d+$', flags: '', actual: 'abc' },
  },
  { name: 'flags', with: { pattern: '^hello', flags: 'i' }, output: 'HELLO there', score: 1 },
  {
    name: 'match: none passes when absent',
    with: { pattern: 'as an AI', match: 'none' },
    output: 'Sure, here it is.',
    score: 1,
    metadata: null,
  },
  {
    name: 'match: none fails when present',
    with: { pattern: 'as an AI', match: 'none' },
    output: 'Well, as an AI I cannot',
    score: 0,
    metadata: { forbiddenMatch: { match: 'as an AI', index: 6 } },
  },
  {
    name: 'unicode with the u flag',
    with: { pattern: '^\\p{L}+$', flags: 'u' },
    output: 'Ωμέγα',
    score: 1,
  },
  {
    name: 'a code point counts once with u',
    with: { pattern: '^.$', flags: 'u' },
    output: '😀',
    score: 1,
  },
  { name: 'the empty string', with: { pattern: '^$' }, output: '', score: 1 },
  {
    name: 'a non-string output is tested as JSON',
    with: { pattern: '"status":"ok"' },
    output: { status: 'ok' },
    score: 1,
  },
  {
    name: 'a templated pattern',
    with: { pattern: '^{{case.prefix}}' },
    testCase: { prefix: 'Dear' },
    output: 'Dear Sir',
    score: 1,
  },
  {
    name: 'a templated pattern that does not compile is an error',
    with: { pattern: '{{case.re}}' },
    testCase: { re: '(' },
    output: 'x',
    error: /option "pattern": Invalid regular expression: \/\(\/: /,
  },
  {
    name: 'an unknown match mode',
    with: { pattern: 'a', match: 'all' },
    output: 'a',
    error: /option "match" must be one of "any", "none", found "all"/,
  },
]);

void describe('regex state', () => {
  void it('a g flag does not leak lastIndex between cases', async () => {
    const evaluator = builtinEvaluators.regex.create({ pattern: 'a', flags: 'g' }, { id: 'r' });
    const args = { testCase: {}, params: {}, durationMs: 0, signal: new AbortController().signal };
    for (let i = 0; i < 3; i++) {
      assert.equal((await evaluator.evaluateTestCase({ ...args, output: 'a' })).score, 1);
    }
  });
});

const personSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
  required: ['name'],
  additionalProperties: false,
};

table('json-schema', [
  {
    name: 'a conforming object',
    with: { schema: personSchema },
    output: { name: 'Ada', age: 36 },
    score: 1,
    metadata: null,
  },
  {
    name: 'a conforming JSON string',
    with: { schema: personSchema },
    output: '{"name":"Ada"}',
    score: 1,
  },
  {
    name: 'violations are listed as path: message',
    with: { schema: personSchema },
    output: { age: -1, extra: true },
    score: 0,
    metadata: {
      errors: [
        "/: must have required property 'name'",
        '/: must NOT have additional properties (extra)',
        '/age: must be >= 0',
      ],
      errorCount: 3,
    },
  },
  {
    name: 'a string that is not JSON scores 0',
    with: { schema: personSchema },
    output: 'Ada, 36',
    score: 0,
  },
  {
    name: 'a JSON string holding a string',
    with: { schema: { type: 'string' } },
    output: '"hi"',
    score: 1,
  },
  {
    name: 'actual points into the output',
    with: { schema: personSchema, actual: '{{output.person}}' },
    output: { person: { name: 'Ada' } },
    score: 1,
  },
  {
    name: '2020-12 by $schema',
    with: {
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'array',
        prefixItems: [{ type: 'number' }],
        items: false,
      },
    },
    output: [1],
    score: 1,
  },
  {
    name: '2020-12 failure',
    with: {
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'array',
        prefixItems: [{ type: 'number' }],
        items: false,
      },
    },
    output: [1, 2],
    score: 0,
  },
  {
    name: 'format is not checked',
    with: { schema: { type: 'string', format: 'email' } },
    output: '"not an email"',
    score: 1,
  },
  {
    name: 'a templated schema',
    with: { schema: '{{case.schema}}' },
    testCase: { schema: { type: 'number' } },
    output: 3,
    score: 1,
  },
  {
    name: 'a templated schema that is not an object',
    with: { schema: '{{case.schema}}' },
    testCase: { schema: 'number' },
    output: 3,
    error: /option "schema" must be an object \(a JSON Schema\), found "number"/,
  },
  {
    name: 'a templated schema that does not compile',
    with: { schema: '{{case.schema}}' },
    testCase: { schema: { type: 'numbr' } },
    output: 3,
    error: /option "schema" is not a valid JSON Schema/,
  },
]);

void describe('json-schema metadata', () => {
  void it('a parse failure says so', async () => {
    const evaluation = await evaluate('json-schema', {
      name: '',
      with: { schema: personSchema },
      output: 'nope',
    });
    assert.match(String(evaluation.metadata?.error), /^not valid JSON: /);
  });
  void it('the same $id compiles in two evaluators and for two templated schemas', async () => {
    const schema = { $id: 'https://example.com/person', ...personSchema };
    for (let i = 0; i < 2; i++) {
      const evaluation = await evaluate('json-schema', {
        name: '',
        with: { schema },
        output: { name: 'Ada' },
      });
      assert.equal(evaluation.score, 1);
    }
    const evaluator = builtinEvaluators['json-schema'].create(
      { schema: '{{case.schema}}' },
      { id: 'j' },
    );
    const base = { output: 1, params: {}, durationMs: 0, signal: new AbortController().signal };
    const one = await evaluator.evaluateTestCase({
      ...base,
      testCase: { schema: { $id: 'x', type: 'number' } },
    });
    const two = await evaluator.evaluateTestCase({
      ...base,
      testCase: { schema: { $id: 'x', type: 'string' } },
    });
    assert.deepEqual([one.score, two.score], [1, 0]);
  });
});

const rubric = [
  { criterion: 'greets the user', passed: true },
  { criterion: 'mentions the order id', passed: true, required: true },
  { criterion: 'uses an emoji', passed: false, required: false },
];

table('assertions', [
  {
    name: 'all required passed (an optional one failed)',
    with: {},
    output: rubric,
    score: 1,
    metadata: {
      assertions: [
        { criterion: 'greets the user', passed: true, required: true },
        { criterion: 'mentions the order id', passed: true, required: true },
        { criterion: 'uses an emoji', passed: false, required: false },
      ],
      failedRequired: [],
    },
  },
  {
    name: 'a required criterion failed',
    with: {},
    output: [
      { criterion: 'cites a source', passed: false },
      { criterion: 'is short', passed: true },
    ],
    score: 0,
    metadata: {
      assertions: [
        { criterion: 'cites a source', passed: false, required: true },
        { criterion: 'is short', passed: true, required: true },
      ],
      failedRequired: ['cites a source'],
    },
  },
  {
    name: 'a rubric inside the output',
    with: { assertions: '{{output.assertions}}' },
    output: { answer: 'hi', assertions: rubric },
    score: 1,
  },
  { name: 'a rubric as JSON text', with: {}, output: JSON.stringify(rubric), score: 1 },
  {
    name: 'an empty rubric passes',
    with: {},
    output: [],
    score: 1,
    metadata: { assertions: [], failedRequired: [] },
  },
  {
    name: 'extra fields are ignored',
    with: {},
    output: [{ criterion: 'x', passed: true, reason: 'fine' }],
    score: 1,
  },
  {
    name: 'not an array',
    with: {},
    output: { criterion: 'x', passed: true },
    error:
      /option "assertions" must be an array of \{ criterion, passed, required\? \}, found an object/,
  },
  {
    name: 'a string that is not JSON',
    with: {},
    output: 'all good',
    error: /option "assertions" is a string that is not JSON: "all good"/,
  },
  {
    name: 'passed is not a boolean',
    with: {},
    output: [{ criterion: 'x', passed: 'yes' }],
    error: /option "assertions"\[0\]\.passed must be a boolean, found "yes"/,
  },
  {
    name: 'criterion missing',
    with: {},
    output: [{ criterion: 'x', passed: true }, { passed: true }],
    error: /option "assertions"\[1\]\.criterion must be a string, found nothing/,
  },
  {
    name: 'required is not a boolean',
    with: {},
    output: [{ criterion: 'x', passed: true, required: 'no' }],
    error: /\[0\]\.required must be a boolean/,
  },
  {
    name: 'an item is not an object',
    with: {},
    output: ['x'],
    error: /\[0\] must be an object, found "x"/,
  },
  {
    name: 'an unknown template path',
    with: { assertions: '{{output.rubric}}' },
    output: { assertions: [] },
    error: /option "assertions": template \{\{ output\.rubric \}\}: output\.rubric is not defined/,
  },
]);

table('levenshtein', [
  {
    name: 'identical',
    with: { expected: 'kitten' },
    output: 'kitten',
    score: 1,
    metadata: { distance: 0 },
  },
  {
    name: 'kitten → sitting',
    with: { expected: 'kitten' },
    output: 'sitting',
    score: 1 - 3 / 7,
    metadata: { distance: 3, maxLength: 7, expected: 'kitten', actual: 'sitting' },
  },
  { name: 'two empty strings', with: { expected: '' }, output: '', score: 1 },
  { name: 'one empty string', with: { expected: '' }, output: 'abc', score: 0 },
  { name: 'completely different', with: { expected: 'abc' }, output: 'xyz', score: 0 },
  {
    name: 'ignoreCase',
    with: { expected: 'Kitten', ignoreCase: true },
    output: 'KITTEN',
    score: 1,
  },
  { name: 'code points, not UTF-16 units', with: { expected: '😀a' }, output: '😃a', score: 0.5 },
  {
    name: 'combining accents count as their own code points',
    with: { expected: 'cafe' },
    output: 'cafe\u0301',
    score: 0.8,
  },
  {
    name: 'a non-string output compares as JSON',
    with: { expected: '[1,2]' },
    output: [1, 2],
    score: 1,
  },
  {
    name: 'a templated expected',
    with: { expected: '{{case.reference}}' },
    testCase: { reference: 'abcd' },
    output: 'abce',
    score: 0.75,
  },
  {
    name: 'expected of the wrong type',
    with: { expected: '{{case.n}}' },
    testCase: { n: 42 },
    output: '42',
    error: /option "expected" must be a string, found 42/,
  },
]);

table('length', [
  {
    name: 'within bounds',
    with: { min: 2, max: 5 },
    output: 'abcd',
    score: 1,
    metadata: { length: 4, unit: 'chars', min: 2, max: 5 },
  },
  {
    name: 'too long',
    with: { max: 3 },
    output: 'abcd',
    score: 0,
    metadata: { length: 4, unit: 'chars', min: null, max: 3 },
  },
  { name: 'too short', with: { min: 5 }, output: 'abcd', score: 0 },
  { name: 'bounds are inclusive', with: { min: 4, max: 4 }, output: 'abcd', score: 1 },
  {
    name: 'emoji are one character each',
    with: { max: 3 },
    output: '😀😀😀',
    score: 1,
    metadata: { length: 3, unit: 'chars', min: null, max: 3 },
  },
  { name: 'the empty string', with: { min: 0, max: 0 }, output: '', score: 1 },
  {
    name: 'words',
    with: { min: 3, max: 3, unit: 'words' },
    output: '  one two\tthree\n',
    score: 1,
    metadata: { length: 3, unit: 'words', min: 3, max: 3 },
  },
  { name: 'no words in whitespace', with: { max: 0, unit: 'words' }, output: '   ', score: 1 },
  {
    name: 'a non-string output is measured as JSON',
    with: { max: 7 },
    output: { a: 1 },
    score: 1,
    metadata: { length: 7, unit: 'chars', min: null, max: 7 },
  },
  {
    name: 'bounds from a CSV cell',
    with: { max: '{{case.maxChars}}' },
    testCase: { maxChars: '10' },
    output: 'short',
    score: 1,
  },
  {
    name: 'bounds from a template that is not a number',
    with: { max: '{{case.maxChars}}' },
    testCase: { maxChars: 'ten' },
    output: 'x',
    error: /option "max" must be a whole number ≥ 0, found "ten"/,
  },
  {
    name: 'templated min above max',
    with: { min: '{{case.min}}', max: 3 },
    testCase: { min: 5 },
    output: 'x',
    error: /option "min" \(5\) is greater than option "max" \(3\)/,
  },
  {
    name: 'a negative bound',
    with: { min: -1 },
    output: 'x',
    error: /option "min" must be a whole number ≥ 0, found -1/,
  },
  { name: 'neither bound', with: {}, output: 'x', error: /give option "min", "max" or both/ },
]);

table('latency', [
  {
    name: 'under the limit',
    with: { max: '500ms' },
    durationMs: 120.456,
    score: 1,
    metadata: { durationMs: 120.46, maxMs: 500 },
  },
  {
    name: 'over the limit',
    with: { max: '2s' },
    durationMs: 2500,
    score: 0,
    metadata: { durationMs: 2500, maxMs: 2000 },
  },
  { name: 'exactly the limit', with: { max: 100 }, durationMs: 100, score: 1 },
  { name: 'minutes', with: { max: '1m' }, durationMs: 59_999, score: 1 },
  { name: 'fractional seconds', with: { max: '1.5s' }, durationMs: 1501, score: 0 },
  {
    name: 'a templated limit',
    with: { max: '{{params.budget}}' },
    params: { budget: '250ms' },
    durationMs: 300,
    score: 0,
  },
  {
    name: 'a bad templated limit',
    with: { max: '{{params.budget}}' },
    params: { budget: 'fast' },
    error:
      /option "max" must be a duration such as "500ms", "2s", "1m" or a number of milliseconds, found "fast"/,
  },
]);
