/**
 * A `{{ params.x }}` naming no key of its suite's grid would make every case error at run time;
 * it is refused when the config loads (exit 2), at the template, with the nearest grid key.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeFiles } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const ROWS = [{ q: 'a', expected: 'a' }];

describe('{{ params.x }} templates against the grid', () => {
  it('refuses a misspelt grid key at load, with the key it likely means', async () => {
    const dir = jsonlProject(ROWS, [
      'grid: { model: [a, b] }',
      'target: { type: command, run: [echo, "{{params.modl}}"] }',
    ]);
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(
      result.stderr,
      /evals\.yaml:6:\d+ +suites\[0\]\.target\.run\[1\]: template \{\{ params\.modl \}\}: the grid has no key "modl" \(did you mean \{\{ params\.model \}\}\?\)/,
    );
    // Refused before anything runs.
    const run = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /the grid has no key "modl"/);
  });

  it('names the key of a nested path, lists the keys, and says when there is no grid', async () => {
    const withGrid = jsonlProject(ROWS, [
      'grid: { model: [{ name: a }, { name: b }] }',
      'target: { type: command, run: [echo, "{{ params.model.name }}", "{{ params.zzzzz.name }}"] }',
      'evaluators: [{ use: is-equals, with: { expected: "{{ params.model.name }}" } }]',
    ]);
    const listed = await runInProcess(['validate'], withGrid);
    assert.equal(listed.code, 2);
    assert.match(
      listed.stderr,
      /template \{\{ params\.zzzzz\.name \}\}: the grid has no key "zzzzz" \(its keys: "model"\)/,
    );
    assert.doesNotMatch(listed.stderr, /params\.model\.name/);

    const noGrid = jsonlProject(ROWS, [
      'target: { type: command, run: [echo, "{{ case.q }}"] }',
      'evaluators: [{ use: is-equals, with: { expected: "{{ params.model }}" } }]',
    ]);
    const empty = await runInProcess(['validate'], noGrid);
    assert.equal(empty.code, 2);
    assert.match(
      empty.stderr,
      /suites\[0\]\.evaluators\[0\]\.with\.expected: template \{\{ params\.model \}\}: the suite has no grid: params is empty/,
    );
  });

  it('checks each suite against its own grid', async () => {
    const dir = jsonlProject(ROWS, []);
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: s',
        '    testset: { path: rows.jsonl }',
        '    grid: { model: [a, b] }',
        '    target: { type: command, run: [echo, "{{ params.model }}"] }',
        '  - id: t',
        '    testset: { path: rows.jsonl }',
        '    grid: { temperature: [0, 1] }',
        '    target: { type: command, run: [echo, "{{ params.model }}", "{{ params.temperature }}"] }',
        '',
      ].join('\n'),
    });
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
    assert.equal(errors.length, 1, result.stderr);
    assert.match(errors[0] ?? '', /suites\[1\]\.target\.run\[1\]: .*the grid has no key "model"/);
  });

  it('refuses a misspelt key inside a prompt file, at its line and column there', async () => {
    const dir = jsonlProject(ROWS, [
      'grid: { tone: [kind, terse] }',
      'target:',
      '  type: model',
      '  model: small',
      '  baseUrl: http://127.0.0.1:8/v1',
      '  apiKey: sk-never-used-123456',
      '  prompt: { file: prompts/p.md }',
    ]);
    writeFiles(dir, {
      'prompts/p.md': 'Be {{ params.tone }}.\nAnswer {{ params.tnoe }}: {{ case.q }}\n',
    });
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(
      result.stderr,
      /prompts\/p\.md:2:8 +template \{\{ params\.tnoe \}\}: the grid has no key "tnoe" \(did you mean \{\{ params\.tone \}\}\?\)/,
    );
    assert.doesNotMatch(result.stderr, /params\.tone \}\}:/);
  });
});
