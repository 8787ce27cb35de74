import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rowColumns, templateColumnProblems } from '../src/config/template-check.ts';

const columns = rowColumns([
  { question: 'q', expected_intent: 'greet', 'Expected Router Output': 'billing' },
  { question: 'q2', items: [1] },
]);

describe('templateColumnProblems', () => {
  it('names the field no row has, at the path of its string, with the nearest column', () => {
    const problems = templateColumnProblems(
      [[['target', 'prompt'], 'Answer: {{ case.question }} as {{case.expected_intnt}}']],
      columns,
    );
    assert.deepEqual(problems, [
      {
        path: ['target', 'prompt'],
        message:
          'template {{ case.expected_intnt }}: no row of the testset has the field "expected_intnt" (did you mean {{ case.expected_intent }}?)',
      },
    ]);
  });

  it('takes any list of strings: URL, headers, argv; fields in any row count', () => {
    const templates: [(string | number)[], string][] = [
      [['target', 'url'], 'https://x.test/?q={{case.question}}'],
      [['target', 'headers', 'x-route'], '{{ case["Expected Router Output"] }}'],
      [['target', 'run', 2], '{{case.items[0]}}'],
      [['target', 'run', 3], '{{params.style}} {{output.x}} plain text'],
    ];
    assert.deepEqual(templateColumnProblems(templates, columns), []);
  });

  it('lists the fields when nothing is near, and skips malformed templates', () => {
    const problems = templateColumnProblems(
      [
        [['with', 'a'], '{{case.zzzzzz}} {{case.zzzzzz}}'],
        [['with', 'b'], '{{case..x}}'],
      ],
      columns,
    );
    assert.deepEqual(problems, [
      {
        path: ['with', 'a'],
        message:
          'template {{ case.zzzzzz }}: no row of the testset has the field "zzzzzz" (its fields: "question", "expected_intent", "Expected Router Output", "items")',
      },
    ]);
  });

  it('an inherited member is never a column', () => {
    const problems = templateColumnProblems([[['with', 'a'], '{{case.constructor}}']], columns);
    assert.equal(problems.length, 1);
  });
});
