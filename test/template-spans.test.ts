/**
 * Where templates and a stray `{{` are in a string, and the one check that uses them: a prompt
 * file's problems are an inline string's, placed at their line and column.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileTemplateProblems, templateProblems } from '../src/config/template-check.ts';
import { templateSpans, unclosedTemplateIndex } from '../src/shared/templates.ts';

describe('templateSpans', () => {
  it('gives each expression with the index of its {{', () => {
    assert.deepEqual(templateSpans('a {{ case.x }}\n{{output}}'), [
      { expression: 'case.x', index: 2 },
      { expression: 'output', index: 15 },
    ]);
  });
});

describe('unclosedTemplateIndex', () => {
  const cases: [string, number][] = [
    ['{{case.x}} plain', -1],
    ['a {{case.x', 2],
    ['{{ case.x }} then {{ more', 18],
    ['{{{{ case.q }}', 0],
    // Text on both sides of a template does not join into a `{{`.
    ['{{{ case.q }}{', -1],
  ];
  for (const [text, index] of cases) {
    it(JSON.stringify(text), () => assert.equal(unclosedTemplateIndex(text), index));
  }
});

describe('fileTemplateProblems', () => {
  it('words each problem as templateProblems does for the same line, at its line:col', () => {
    const columns = new Set(['q']);
    const text = 'Intro.\nAsk {{ row.q }} and {{case.q}}\nthen {{case.q\n';
    assert.deepEqual(fileTemplateProblems(text, columns), [
      { line: 2, col: 5, message: templateProblems('{{ row.q }}')[0] },
      { line: 3, col: 6, message: templateProblems('then {{case.q')[0] },
    ]);
    assert.match(templateProblems('then {{case.q')[0] ?? '', /^unclosed template in "then/);
  });
});
