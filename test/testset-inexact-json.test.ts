/**
 * A testset never scores data other than its file holds: JSON text whose numbers a double cannot
 * keep (an id past 2^53, `1e400`, `1e-400`) or whose object repeats a key is refused at its
 * position, in JSON and JSON Lines files and in the JSON of a CSV cell, instead of being read
 * rounded, as Infinity (recorded as null), as 0 or with the last value only.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { TestsetFormat } from '../src/testsets/formats.ts';
import { parsedOrIssues } from './helpers/testset-parse.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const read = (text: string, format: TestsetFormat) => parsedOrIssues(text, format, { codes: true });

describe('JSON numbers a double cannot keep', () => {
  it('are refused in a JSON file at their line and column, saying what they would read as', () => {
    const text = '[\n  {"id": 12345678901234567890, "big": 1e400},\n  {"tiny": -1E-400}\n]';
    assert.deepEqual(read(text, 'json'), [
      '2:10 testset.inexact-number the number 12345678901234567890 (field id) is not held exactly (a JSON number keeps whole numbers up to 9007199254740991): it would be read as 12345678901234567000; write it in quotes, as a string, to keep it as written',
      '2:39 testset.inexact-number the number 1e400 (field big) is too large for a JSON number: it would be read as Infinity (recorded as null); write it in quotes, as a string, to keep it as written',
      '3:12 testset.inexact-number the number -1E-400 (field tiny) is too small for a JSON number: it would be read as 0; write it in quotes, as a string, to keep it as written',
    ]);
  });

  it('are refused in JSON Lines, each on its own line', () => {
    const text = '{"q": "a"}\n{"id": 9007199254740993}\n';
    assert.deepEqual(read(text, 'jsonl'), [
      '2:8 testset.inexact-number the number 9007199254740993 (field id) is not held exactly (a JSON number keeps whole numbers up to 9007199254740991): it would be read as 9007199254740992; write it in quotes, as a string, to keep it as written',
    ]);
  });

  it('name the field that holds them, from the row, however deep', () => {
    const text = '[{"a": {"b c": [1, 12345678901234567891]}, "k\\nl": 98765432109876543210}]';
    assert.deepEqual(read(text, 'json'), [
      '1:20 testset.inexact-number the number 12345678901234567891 (field a["b c"][1]) is not held exactly (a JSON number keeps whole numbers up to 9007199254740991): it would be read as 12345678901234567000; write it in quotes, as a string, to keep it as written',
      '1:52 testset.inexact-number the number 98765432109876543210 (field ["k\\nl"]) is not held exactly (a JSON number keeps whole numbers up to 9007199254740991): it would be read as 98765432109876540000; write it in quotes, as a string, to keep it as written',
    ]);
    // Agenta's export: the path from the top, its testcase's data and all.
    const agenta = '{"testcases": [{"id": "t1", "data": {"n": 12345678901234567891}}]}';
    assert.match(
      String(read(agenta, 'json')[0]),
      /^1:43 testset\.inexact-number the number 12345678901234567891 \(field testcases\[0\]\.data\.n\) is /,
    );
  });

  it('pass when a double holds them: the largest safe integer, decimals, zeros, digits in strings', () => {
    const text =
      '{"a": 9007199254740991, "b": -9007199254740991, "c": 0.30000000000000004441, "d": 1e300, "e": 0e-999, "f": -0, "g": "12345678901234567890", "h": 1.5e-300, "i": 18014398509481984}\n';
    assert.deepEqual(read(text, 'jsonl'), [
      {
        a: 9007199254740991,
        b: -9007199254740991,
        c: 0.30000000000000004,
        d: 1e300,
        e: 0,
        f: -0,
        g: '12345678901234567890',
        h: 1.5e-300,
        i: 18014398509481984,
      },
    ]);
  });
});

describe('the JSON of a CSV cell', () => {
  it("names the field from the row, starting at the cell's column, a top-level array included", () => {
    const text =
      'q,meta,"ids list"\na,"{""ids"": [1, 12345678901234567891]}","[1, 12345678901234567891]"\n';
    assert.deepEqual(
      read(text, 'csv').map((issue) => /\(field [^)]*\)/.exec(String(issue))?.[0]),
      ['(field meta.ids[1])', '(field ["ids list"][1])'],
    );
  });

  it('is refused at the cell when a number would change or a key repeats', () => {
    const text =
      'q,meta,extra\nok,"{""id"":1}",[]\nx,"{""id"":12345678901234567890}","{""k"":1,""k"":2}"\n';
    assert.deepEqual(read(text, 'csv'), [
      '3:3 testset.inexact-number column "meta" (JSON): the number 12345678901234567890 (field meta.id) is not held exactly (a JSON number keeps whole numbers up to 9007199254740991): it would be read as 12345678901234567000; write it in quotes, as a string, to keep it as written',
      '3:35 testset.duplicate-key column "extra" (JSON): duplicate key "k": each key may appear once in an object (JSON would keep only the last value)',
    ]);
  });

  it('that a double holds is decoded as before, and a plain number cell stays text', () => {
    const text = 'q,n,list\nx,12345678901234567890,"[1, 2.5, {""a"": ""b""}]"\n';
    assert.deepEqual(read(text, 'csv'), [
      { q: 'x', n: '12345678901234567890', list: [1, 2.5, { a: 'b' }] },
    ]);
  });
});

describe('evals run on such a testset', () => {
  it('exits 2 naming the file, line and column, with no stack trace and no case run', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': `version: 1
suites:
  - id: ids
    testset: { path: orders.jsonl }
    output: answer
    evaluators:
      - use: is-equals
        with: { expected: "{{ case.answer }}" }
`,
      'orders.jsonl':
        '{"order": 1, "answer": "a"}\n{"order": 98765432109876543210, "answer": "b"}\n',
    });
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      /^error: orders\.jsonl:2:11 +the number 98765432109876543210 \(field order\) is not held exactly/m,
    );
    assert.doesNotMatch(run.stderr, /\n\s+at /);
    assert.equal(existsSync(join(dir, 'results.json')), false);
  });
});
