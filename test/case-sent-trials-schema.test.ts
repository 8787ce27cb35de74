/**
 * With trials, each trial records what its target sent (`trials[].sent`), and the results schema
 * allows it there: read back (`evals compare`, a baseline), the field is neither refused nor
 * dropped as one the reader does not know. A real run of a real command.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { artifactCases, runInProcess } from './helpers/in-process.ts';

describe("a trial's sent", () => {
  it('is recorded per trial and read back without a note of an unknown field', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'q.csv': 'country,expected\nFrance,Paris\n',
      'agent.cjs': "process.stdout.write('Lyon');\n",
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: cmd',
        '    testset: { path: q.csv }',
        '    trials: 2',
        '    target:',
        '      type: command',
        '      run: [node, agent.cjs, "{{ case.country }}"]',
        '    evaluators:',
        '      - { id: exact, use: is-equals, with: { expected: "{{ case.expected }}" } }',
      ].join('\n'),
    });
    const run = await runInProcess(['run', '--no-cache'], dir, {});
    assert.equal(run.code, 1, run.stderr);
    const [result] = artifactCases(dir, 'evals-results.json')[0]?.cases ?? [];
    const trials = (result as { trials?: { sent?: unknown }[] } | undefined)?.trials ?? [];
    assert.deepEqual(
      trials.map((t) => t.sent),
      ['node agent.cjs France', 'node agent.cjs France'],
    );
    const compared = await runInProcess(
      ['compare', 'evals-results.json', 'evals-results.json'],
      dir,
      {},
    );
    assert.equal(compared.code, 0, compared.stderr);
    assert.doesNotMatch(compared.stderr, /does not know|sent/, compared.stderr);
  });
});
