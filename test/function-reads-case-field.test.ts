/**
 * A `function:` written to take the test case itself, `export function answer(testCase) {
 * return testCase.q; }`, gets the one object `{ testCase, params, signal }` and reads `undefined`:
 * the case failed with `got "undefined"` and nothing said why. The run now warns once per suite,
 * naming the field read and the form to write, and each such case carries the note in its
 * `warnings` (printed by `evals show`). A function that takes `{ testCase }` gets no warning.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const NOTE =
  '"q" from its argument, which lacks it (the test case has it): it is called with { testCase, params, signal }, not with the test case as in the Python SDK; read it as ({ testCase }) => … testCase.q …';

function project(fn: string): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': `version: 1
suites:
  - id: s
    testset: { cases: [{ q: a }, { q: b }] }
    function: ./answer.mjs#answer
    evaluators: [{ use: is-equals, with: { expected: "{{ case.q }}" } }]
`,
    'answer.mjs': `export ${fn}\n`,
  });
  return dir;
}

interface Artifact {
  runs: { cases: { warnings?: string[] }[] }[];
}

describe('a function: that takes the test case itself', () => {
  it('is warned about once, and each case says so in its warnings', async () => {
    const dir = project('async function answer(testCase) { return testCase.q; }');
    const r = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(r.code, 1, r.stderr);
    const warnings = r.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    assert.deepEqual(warnings, [`warning: suite s: ./answer.mjs#answer read ${NOTE}`]);
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as Artifact;
    assert.deepEqual(
      artifact.runs[0]?.cases.map((c) => c.warnings),
      [[`the function read ${NOTE}`], [`the function read ${NOTE}`]],
    );
  });

  it('is warned about when the read undefined makes it throw or reject, each case errored', async () => {
    for (const fn of [
      'function answer(testCase) { return testCase.q.toUpperCase(); }',
      'async function answer(testCase) { await null; return testCase.q.toUpperCase(); }',
    ]) {
      const r = await runInProcess(['run', '-o', 'out.json'], project(fn));
      assert.equal(r.code, 1, r.stderr);
      const warnings = r.stderr.split('\n').filter((line) => line.startsWith('warning:'));
      assert.deepEqual(warnings, [`warning: suite s: ./answer.mjs#answer read ${NOTE}`], fn);
    }
  });

  it('a function that clones its argument (structuredClone, as for a worker) still can', async () => {
    const dir = project(
      'function answer(args) { const copy = structuredClone(args); return copy.testCase.q; }',
    );
    const r = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.includes('warning'), false, r.stderr);
  });

  it('a function that takes { testCase } is not warned about', async () => {
    const dir = project('function answer({ testCase, params }) { return testCase.q; }');
    const r = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.includes('warning'), false, r.stderr);
  });
});
