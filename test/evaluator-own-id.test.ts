/**
 * An evaluator that names itself (`id = 'tone'`, the Autoblocks shape) is still named by the
 * config; without `id:` the config's name is the export's, and the run says so once, where the
 * evaluator is used, instead of silently reporting under a name the user did not choose.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

const MODULE = {
  'tone.mjs': [
    'export class Tone {',
    "  id = 'tone';",
    '  evaluateTestCase() { return { score: 1 }; }',
    '}',
    'export class Plain {',
    '  evaluateTestCase() { return { score: 1 }; }',
    '}',
    "export const shared = { id: 'shared-name', evaluateTestCase: () => ({ score: 1 }) };",
    '',
  ].join('\n'),
  'answer.mjs': 'export const answer = ({ testCase }) => testCase.q;\n',
};

function project(evaluators: string[]): string {
  return jsonlProject(
    [{ q: 'a' }],
    ['function: ./answer.mjs#answer', 'evaluators:', ...evaluators.map((e) => `  - ${e}`)],
    MODULE,
  );
}

void describe('an evaluator whose own id the config overrides', () => {
  void it('warns, at its use: line, when no id: is given and its own id differs', async () => {
    const dir = project(['{ use: ./tone.mjs#Tone }']);
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /^warning: evals\.yaml:7:16 {2}suites\[0\]\.evaluators\[0\]\.use: \.\/tone\.mjs#Tone names itself "tone", but this evaluator is "Tone" \(the export's name\), as no id: is given; write id: "tone"/,
    );
    // The run goes on under the config's name: the warning tells, nothing is renamed.
    assert.deepEqual(
      artifactCases(dir)[0]!.cases[0]!.evaluations.map((e) => e.evaluator),
      ['Tone'],
    );
  });

  void it('warns for an exported object that names itself, too', async () => {
    const dir = project(['{ use: ./tone.mjs#shared }']);
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /names itself "shared-name", but this evaluator is "shared"/);
  });

  void it('says nothing when id: is given, even one that differs from the own id', async () => {
    const dir = project([
      '{ id: mine, use: ./tone.mjs#Tone }',
      '{ id: tone, use: ./tone.mjs#Tone }',
    ]);
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /names itself/);
  });

  void it('says nothing for an evaluator without its own id, or a built-in', async () => {
    const dir = project(['{ use: ./tone.mjs#Plain }', '{ use: contains, with: { values: [a] } }']);
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /warning/);
  });
});
