/**
 * The built-in JSON evaluators (is-valid-json, json-schema, assertions), table by table: the
 * options as a user writes them in `with:`, the case and output, and the score, metadata or error
 * expected.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import { evaluate, table } from './helpers/evaluator-table.ts';

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

const personSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
  required: ['name'],
  additionalProperties: false,
};

/** A 2020-12 schema (by its $schema): an array of exactly one number. */
const oneNumberSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'array',
  prefixItems: [{ type: 'number' }],
  items: false,
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
    with: { schema: oneNumberSchema },
    output: [1],
    score: 1,
  },
  {
    name: '2020-12 failure',
    with: { schema: oneNumberSchema },
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
