/**
 * The markdown comparison names every case it lists, the fixed ones too: HEAD's passing cases are
 * kept reduced (only failing ones whole), so the reduced form keeps the case's label.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeFiles } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const rows = Array.from({ length: 12 }, (_, n) => ({ question: `What is ${n} + 1?`, n }));

describe('the markdown comparison', () => {
  it('labels the cases that now pass, as it labels the ones that now fail', async () => {
    const dir = jsonlProject(
      rows,
      [
        'function: ./answer.mjs',
        'evaluators:',
        '  - { id: exact, use: is-equals, with: { expected: "{{case.n}}" } }',
      ],
      {
        // Which side it answers as is read per call from a file: one process runs both sides.
        'answer.mjs':
          "import { readFileSync } from 'node:fs';\n" +
          "export default ({ testCase }) => readFileSync(new URL('./side.txt', import.meta.url), 'utf8') === 'base' && testCase.n < 3 ? 'no' : String(testCase.n);\n",
        'side.txt': 'base',
      },
    );
    const base = await runInProcess(['run', '-o', 'base.json'], dir);
    assert.equal(base.code, 1, base.stderr);
    writeFiles(dir, { 'side.txt': 'head' });
    const head = await runInProcess(['run', '-o', 'head.json'], dir);
    assert.equal(head.code, 0, head.stderr);
    const md = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'md'], dir);
    const fixed = /^Fixed \(3\):\n\n((?:\|[^\n]*\n)+)/m.exec(md.stdout)?.[1] ?? '';
    const lines = fixed
      .split('\n')
      .slice(2)
      .filter((line) => line !== '');
    assert.equal(lines.length, 3, `${md.code}\n${md.stdout}${md.stderr}`);
    for (const n of [0, 1, 2]) assert.match(fixed, new RegExp(`What is ${n} \\+ 1\\?`));
  });
});
