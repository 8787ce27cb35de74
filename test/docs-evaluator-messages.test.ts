/**
 * The messages docs/evaluators.md and docs/report.md quote for the built-ins that need no model
 * are what `evals run` and `evals show` print: each quote is read from the markdown (so a
 * reworded doc or message fails here) and looked for in the output of a config-only suite that
 * provokes it, through the CLI, with recorded outputs and a function for what JSON cannot hold.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

/** A doc's text with its line breaks as spaces, as a quote wrapped over two lines reads. */
const prose = (file: string): string =>
  readFileSync(join(repoRoot, file), 'utf8').replace(/\s*\n\s*/g, ' ');

const ROW = {
  capital: 'Paris',
  word: 'abc',
  raw: '{"key": oops}',
  text: '{"a": x}',
  item: { items: [{ price: '1' }] },
  rubric: [
    { criterion: 'polite', passed: true },
    { criterion: 'short', passed: 'yes' },
  ],
  long: 'x'.repeat(2799),
};

/** Each quote, where the docs hold it, and the evaluator of the suite that makes it. */
const CASES: { file: string; quote: string; evaluator: string }[] = [
  {
    file: 'docs/evaluators.md',
    quote: 'option "expected": template {{ output.anwser }}: output.anwser is not defined',
    evaluator: '{ id: typo, use: is-equals, with: { expected: "{{output.anwser}}" } }',
  },
  {
    file: 'docs/evaluators.md',
    quote: 'option "substrings" must be an array of strings, found "abc"',
    evaluator: '{ id: subs, use: has-all-substrings, with: { substrings: "{{case.word}}" } }',
  },
  {
    file: 'docs/evaluators.md',
    quote: 'not valid JSON: line 1, column 9: expected a value, found "oops"',
    evaluator: '{ id: json, use: is-valid-json, with: { actual: "{{case.raw}}" } }',
  },
  {
    file: 'docs/evaluators.md',
    quote: '$.a[1] is NaN, which JSON cannot represent',
    evaluator: '{ id: nan, use: is-valid-json, with: { actual: "{{output.nan}}" } }',
  },
  {
    file: 'docs/evaluators.md',
    quote: 'not valid JSON: line 1, column 7: expected a value, found "x"',
    evaluator: '{ id: shape, use: json-schema, with: { actual: "{{case.text}}", schema: {} } }',
  },
  {
    file: 'docs/evaluators.md',
    quote: '/items/0/price: must be number',
    evaluator:
      '{ id: price, use: json-schema, with: { actual: "{{case.item}}", schema: { properties: { items: { items: { properties: { price: { type: number } } } } } } } }',
  },
  {
    file: 'docs/evaluators.md',
    quote: 'option "assertions"[1].passed must be a boolean, found "yes"',
    evaluator: '{ id: rubric, use: assertions, with: { assertions: "{{case.rubric}}" } }',
  },
  {
    file: 'docs/report.md',
    quote: 'length 2,799 characters > max 200',
    evaluator: '{ id: tweet, use: length, with: { max: 200, actual: "{{case.long}}" } }',
  },
  {
    file: 'docs/report.md',
    quote: 'regex matched "Sorry" at 0',
    evaluator:
      '{ id: apology, use: regex, with: { pattern: "sorry", flags: i, match: none, actual: "{{output.reply}}" } }',
  },
  {
    file: 'docs/report.md',
    quote: 'missing "Paris"',
    evaluator:
      '{ id: mentions, use: has-all-substrings, with: { substrings: ["Paris"], actual: "{{output.reply}}" } }',
  },
  {
    file: 'docs/report.md',
    quote: 'expected "No", got "Yes"',
    evaluator:
      '{ id: exact, use: is-equals, with: { expected: "No", actual: "{{output.answer}}" } }',
  },
];

void describe('the messages the evaluator docs quote', () => {
  void it('are what evals show prints for the cases that provoke them', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'rows.jsonl': JSON.stringify(ROW) + '\n',
      // NaN, which no testset can hold, comes from a function.
      'fn.mjs':
        'export function fn() { return { nan: { a: [1, NaN] }, reply: "Sorry, no.", answer: "Yes" }; }\n',
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: s',
        '    testset: { path: rows.jsonl }',
        '    function: ./fn.mjs#fn',
        '    evaluators:',
        ...CASES.map(({ evaluator }) => `      - ${evaluator}`),
        '',
      ].join('\n'),
    });
    const run = await runInProcess(['run'], dir);
    assert.equal(run.code, 1, run.stderr + run.stdout);
    const show = await runInProcess(['show', 'evals-results.json', '--full'], dir);
    assert.equal(show.code, 0, show.stderr);
    const docs = new Map<string, string>();
    for (const { file, quote } of CASES) {
      if (!docs.has(file)) docs.set(file, prose(file));
      assert.ok(docs.get(file)?.includes(`\`${quote}\``), `${file} no longer quotes: ${quote}`);
      assert.ok(show.stdout.includes(quote), `evals show does not print: ${quote}\n${show.stdout}`);
    }
  });

  void it('name a misspelt case field before any case runs, as docs/evaluators.md says', async () => {
    const quote =
      'no row of the testset has the field "capitol" (did you mean {{ case.capital }}?)';
    assert.ok(prose('docs/evaluators.md').includes(`\`${quote}\``));
    const dir = scratch();
    writeFiles(dir, {
      'rows.jsonl': JSON.stringify(ROW) + '\n',
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: s',
        '    testset: { path: rows.jsonl }',
        '    output: capital',
        '    evaluators:',
        '      - { id: exact, use: is-equals, with: { expected: "{{case.capitol}}" } }',
        '',
      ].join('\n'),
    });
    const run = await runInProcess(['run'], dir);
    assert.equal(run.code, 2, run.stderr);
    assert.ok(run.stderr.includes(quote), run.stderr);
    assert.match(run.stderr, /^error: evals\.yaml:7:\d+ {2}/);
  });
});
