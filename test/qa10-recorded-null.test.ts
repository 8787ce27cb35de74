/**
 * QA round 10, F17: a recorded output that is null (JSONL `"output": null`, which is also how an
 * artifact records an errored case's output) was scored as a value, so a check that something is
 * not there (`contains` with `not: true`) passed it. It is now the case's error, as a row with
 * no output field is; an empty string stays an output (a model may answer with nothing).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

describe('a recorded null output (QA10 F17)', () => {
  it('is a case error, not a value that passes an absence check', async () => {
    const dir = jsonlProject(
      [
        { id: 'c', output: null },
        { id: 'd', output: '' },
      ],
      [
        'hash: [id]',
        'evaluators:',
        '  - { id: polite, use: contains, with: { values: [Sorry] }, not: true }',
      ],
    );
    const r = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(r.code, 1, r.stderr + r.stdout);
    const cases = artifactCases(dir, 'out.json')[0]?.cases ?? [];
    const byId = new Map(cases.map((c) => [c.data.id, c]));
    assert.equal(
      byId.get('c')?.error,
      'this row\'s "output" is null: there is no output to score (an errored case records null)',
    );
    assert.equal(byId.get('c')?.passed, false);
    assert.equal(byId.get('d')?.error ?? null, null);
    assert.equal(byId.get('d')?.passed, true);
  });
});
