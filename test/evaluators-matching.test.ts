/**
 * The built-in text-matching evaluators (is-equals, has-all-substrings, contains, regex), table by
 * table: the options as a user writes them in `with:`, the case and output, and the score,
 * metadata or error expected.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import { table } from './helpers/evaluator-table.ts';

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
