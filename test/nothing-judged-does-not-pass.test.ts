/**
 * A run in which cases ran but no evaluator evaluated any of them (each returned nothing, or its
 * `when:` matched no row) checked nothing: it passed, in `evals run` and `runTestSuite` alike,
 * with only a warning. It now fails a `judged` gate condition, as a run of no cases fails
 * `cases`. One evaluator that skipped all while another judged still only warns; a `pass:`
 * function, which decides each case itself, is not failed for it; nor is one shard (the merged
 * run is judged whole).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { sdkScript } from './helpers/sdk-script.ts';

const SKIPS =
  'export function skips() {}\nexport function decides({ output }) { return output === "x"; }\n';
const ROWS = [
  { id: 'a', output: 'x' },
  { id: 'b', output: 'x' },
];

interface Written {
  verdict: string;
  runs: { gate: { conditions: { name: string; actual: string; passed: boolean }[] } }[];
}

function judged(dir: string): { passed: boolean; actual: string } | undefined {
  const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as Written;
  return artifact.runs[0]?.gate.conditions.find((c) => c.name === 'judged');
}

describe('a run in which no evaluator judged any case does not pass', () => {
  it('evals run: exit 1, a failed judged condition naming the evaluators', async () => {
    // The row the when: tags name is left out by --tag (a when: tag no row has is refused).
    const dir = jsonlProject(
      [
        ...ROWS.map((row) => ({ ...row, __tags__: ['run'] })),
        { id: 'c', output: 'x', __tags__: ['other'] },
      ],
      [
        'hash: [id]',
        'evaluators:',
        '  - { id: skips, use: ./ev.mjs#skips, threshold: { gte: 1 } }',
        '  - { use: contains, with: { values: [x] }, when: { tags: [other] } }',
      ],
      { 'ev.mjs': SKIPS },
    );
    const r = await runInProcess(['run', '-o', 'out.json', '--tag', 'run'], dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /✗ judged: expected at least 1 case evaluated, got none of the 2 cases that ran: skips, contains skipped every one/,
    );
    assert.equal(judged(dir)?.passed, false);
  });

  it('evals run --shard 1/1 passes (the merged run is judged whole)', async () => {
    const dir = jsonlProject(ROWS, ['hash: [id]', 'evaluators:', '  - { use: ./ev.mjs#skips }'], {
      'ev.mjs': SKIPS,
    });
    const r = await runInProcess(['run', '-o', 'out.json', '--shard', '1/1'], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(judged(dir), undefined);
  });

  it('evals run with a pass: function passes on its word', async () => {
    const dir = jsonlProject(
      ROWS,
      ['hash: [id]', 'pass: ./ev.mjs#decides', 'evaluators:', '  - { use: ./ev.mjs#skips }'],
      { 'ev.mjs': SKIPS },
    );
    const r = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(judged(dir), undefined);
  });

  it('evals merge of two shards judges the whole run: fails, and passes with a pass: function', async () => {
    for (const [pass, code] of [
      [[], 1],
      [['pass: ./ev.mjs#decides'], 0],
    ] as const) {
      const dir = jsonlProject(
        ROWS,
        ['hash: [id]', ...pass, 'evaluators:', '  - { use: ./ev.mjs#skips }'],
        { 'ev.mjs': SKIPS },
      );
      for (const shard of ['1/2', '2/2']) {
        const r = await runInProcess(['run', '-o', `${shard[0]}.json`, '--shard', shard], dir);
        assert.equal(r.code, 0, r.stdout + r.stderr);
      }
      const m = await runInProcess(['merge', '1.json', '2.json', '-o', 'out.json'], dir);
      assert.equal(m.code, code, m.stdout + m.stderr);
      assert.equal(judged(dir)?.passed, code === 0 ? undefined : false);
    }
  });

  it('every case errored under minPassRate: 0 fails judged, in evals run and runTestSuite', async () => {
    const dir = jsonlProject(
      [{ id: 'a' }, { id: 'b' }],
      [
        'hash: [id]',
        'evaluators:',
        '  - { use: contains, with: { values: [x] } }',
        'gate: { minPassRate: 0 }',
      ],
    );
    const r = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /✗ judged: expected at least 1 case evaluated, got every one of the 2 cases errored/,
    );
    const script = sdkScript(`const r = await runTestSuite({ id: 's', testCases: [{ q: 'a' }],
  testCaseHash: ['q'], quiet: true, setExitCode: false, gate: { minPassRate: 0 },
  fn: () => { throw new Error('down'); },
  evaluators: [{ id: 'e', evaluateTestCase: () => ({ score: 1, threshold: { gte: 1 } }) }],
});
console.log('verdict ' + r.verdict);\n`);
    const sdk = await script.run();
    assert.match(sdk.stdout, /verdict fail/, sdk.stderr);
  });

  it('runTestSuite: verdict fail, as evals run', async () => {
    const script =
      sdkScript(`const r = await runTestSuite({ id: 's', testCases: [{ q: 'a' }, { q: 'b' }],
  testCaseHash: ['q'], output: 'out.json', quiet: true, setExitCode: false,
  fn: () => 'ok',
  evaluators: [{ id: 'e', evaluateTestCase: () => undefined }],
});
console.log('verdict ' + r.verdict);\n`);
    const r = await script.run();
    assert.match(r.stdout, /verdict fail/, r.stderr);
    assert.equal(judged(script.dir)?.passed, false);
  });
});
