/**
 * A HEAD run narrowed by `--tag` (its artifact records `testset.tagFilter`) compared with a BASE
 * that ran every row: the rows the filter left out were listed as `removed (18)`, as if the
 * testset had lost them. docs/statistics.md promises cases added or removed are listed
 * separately from a change; a row HEAD did not select was neither. They are listed as not
 * selected, saying by which filter, and the other way round for a filtered BASE.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Comparison } from '../src/types/comparison.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

function project(): string {
  return jsonlProject(
    Array.from({ length: 30 }, (_, i) => ({
      q: `q${i}`,
      output: 'ok',
      __tags__: [i < 12 ? 'x' : 'y'],
    })),
    [
      'hash: [q]',
      'evaluators:',
      '  - { id: eq, use: is-equals, with: { expected: ok } }',
      'gate: { regressions: block }',
    ],
  );
}

async function compare(dir: string, base: string[], head: string[]) {
  assert.equal((await runInProcess(['run', ...base, '-o', 'base.json'], dir)).code, 0);
  assert.equal((await runInProcess(['run', ...head, '-o', 'head.json'], dir)).code, 0);
  const json = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'json'], dir);
  const text = await runInProcess(['compare', 'base.json', 'head.json'], dir);
  assert.equal(json.code, 0, json.stderr);
  return { cases: (JSON.parse(json.stdout) as Comparison).runs[0]?.cases, text: text.stdout };
}

describe('rows one side did not select with --tag', () => {
  it('are not removed when HEAD ran with --tag', async () => {
    const { cases, text } = await compare(project(), [], ['--tag', 'x']);
    assert.deepEqual(cases?.removed, []);
    assert.equal(cases?.notSelectedInHead?.length, 18);
    assert.doesNotMatch(text, /removed \(/);
    assert.match(text, /not selected in HEAD \(18\): HEAD ran with --tag and they lack its tags/);
  });

  it('are not added when BASE ran with --tag', async () => {
    const { cases, text } = await compare(project(), ['--tag', 'x'], []);
    assert.deepEqual(cases?.added, []);
    assert.equal(cases?.notSelectedInBase?.length, 18);
    assert.match(text, /not selected in BASE \(18\): BASE ran with --tag and they lack its tags/);
  });

  it('a row really removed is still removed', async () => {
    const dir = project();
    assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 0);
    // Row q0 (tagged x) is gone from the testset; HEAD selects x.
    writeFileSync(
      join(dir, 'rows.jsonl'),
      Array.from({ length: 29 }, (_, k) => k + 1)
        .map((i) => JSON.stringify({ q: `q${i}`, output: 'ok', __tags__: [i < 12 ? 'x' : 'y'] }))
        .join('\n') + '\n',
    );
    assert.equal((await runInProcess(['run', '--tag', 'x', '-o', 'head.json'], dir)).code, 0);
    const json = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'json'], dir);
    const cases = (JSON.parse(json.stdout) as Comparison).runs[0]?.cases;
    assert.deepEqual(
      cases?.removed.map((ref) => ref.source?.line),
      [1],
    );
    assert.equal(cases?.notSelectedInHead?.length, 18);
  });
});
