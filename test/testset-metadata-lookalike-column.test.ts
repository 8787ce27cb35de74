/**
 * A testset column named like a metadata column but not one (`__dedupe_id__`, `__tag__`) is
 * read as data, silently: the rows lose the identity or the tags meant for them (a `tags:`
 * filter then keeps no row, with nothing saying why). `validate` and `run` warn about it, once
 * per column, at the first row that has it, naming the metadata column meant.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prepareCases } from '../src/testsets/identity.ts';
import type { TestsetRow } from '../src/types/index.ts';
import { writeFiles } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

function row(line: number, data: Record<string, unknown>): TestsetRow {
  return { line, data, meta: {} };
}

describe('a column named like a metadata column', () => {
  it('is warned about once, at the first row that has it, with the column meant', () => {
    const prepared = prepareCases(
      [
        row(2, { __dedupe_id__: 'q1', __tag__: 'a', question: 'hi' }),
        row(3, { __dedupe_id__: 'q2', __tag__: 'b', question: 'ho' }),
        row(4, { __source__: 'web', __tags: 'x', question: 'hu' }),
      ],
      { testsetId: 't', file: 't.csv' },
    );
    assert.ok(prepared.ok);
    assert.deepEqual(
      (prepared.warnings ?? []).map((w) => [w.code, w.line, w.message]),
      [
        [
          'testset.meta-lookalike',
          2,
          'column "__dedupe_id__" is read as data, not as a metadata column (did you mean __dedup_id__?); the metadata columns are __id__, __dedup_id__, __flags__, __tags__, __meta__',
        ],
        [
          'testset.meta-lookalike',
          2,
          'column "__tag__" is read as data, not as a metadata column (did you mean __tags__?); the metadata columns are __id__, __dedup_id__, __flags__, __tags__, __meta__',
        ],
        [
          'testset.meta-lookalike',
          4,
          'column "__source__" is read as data, not as a metadata column; the metadata columns are __id__, __dedup_id__, __flags__, __tags__, __meta__',
        ],
        [
          'testset.meta-lookalike',
          4,
          'column "__tags" is read as data, not as a metadata column (did you mean __tags__?); the metadata columns are __id__, __dedup_id__, __flags__, __tags__, __meta__',
        ],
      ],
    );
  });

  it('leaves the metadata columns and ordinary data alone', () => {
    const prepared = prepareCases(
      [
        row(2, {
          question: 'hi',
          _private: 1,
          snake__case: 2,
          __: 3,
          __typename: 'User',
          ['__proto__']: 4,
        }),
      ],
      { testsetId: 't', file: 't.csv' },
    );
    assert.ok(prepared.ok);
    assert.equal(prepared.warnings, undefined);
  });

  it('is printed by evals validate, which still passes', async () => {
    const dir = jsonlProject([{ q: 'a' }], ['target: { type: command, run: [echo, hi] }']);
    writeFiles(dir, { 'rows.jsonl': '{"__tag__": "x", "q": "a"}\n' });
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /^warning: rows\.jsonl:1:\d+ {2}column "__tag__" is read as data, not as a metadata column \(did you mean __tags__\?\)/m,
    );
  });
});
