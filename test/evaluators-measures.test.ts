/**
 * The built-in measuring evaluators (levenshtein, length, latency), table by table: the options
 * as a user writes them in `with:`, the case and output, and the score, metadata or error
 * expected.
 */
import { table } from './helpers/evaluator-table.ts';

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
    // Rounded to 15 significant digits, as every score evalgate derives is.
    score: 0.571428571428571,
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
