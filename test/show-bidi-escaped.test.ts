/**
 * `evals show` writes the bidirectional controls (U+202A-U+202E, U+2066-U+2069) of a case's
 * inputs and output as `\u202e`, so a terminal never reorders the text around them; `--json`
 * keeps the case as the artifact holds it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const QUESTION = 'rename \u202egpj.exe';
const OUTPUT = 'done: \u2066x\u2069 \u202etxt.exe';

describe('evals show and bidirectional controls', () => {
  it('writes them out in the terminal and keeps them in --json', async () => {
    const dir = jsonlProject(
      [{ __dedup_id__: 'c0', question: QUESTION, output: OUTPUT }],
      ['evaluators:', '  - { id: says, use: contains, with: { values: [done] } }'],
    );
    const run = await runInProcess(['run', '-o', 'r.json'], dir);
    assert.equal(run.code, 0, run.stderr);
    const shown = await runInProcess(['show', 'r.json', '--case', 'c0'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.doesNotMatch(shown.stdout, /[\u202a-\u202e\u2066-\u2069]/);
    assert.match(shown.stdout, /question {2}rename \\u202egpj\.exe$/m);
    assert.match(shown.stdout, /^ {2}output {4}done: \\u2066x\\u2069 \\u202etxt\.exe$/m);
    const json = await runInProcess(['show', 'r.json', '--case', 'c0', '--json'], dir);
    const [only] = (JSON.parse(json.stdout) as { cases: { case: { output: unknown } }[] }).cases;
    assert.equal(only?.case.output, OUTPUT);
  });
});
