/**
 * A built-in evaluator's metadata quotes the output (levenshtein's `actual`, regex's `actual`
 * and `match`), cut at 500 characters. It was cut before the finished case was scrubbed, so an
 * output whose secret straddled the cut kept its first 1 to 5 characters: too few for the scrub
 * to recognise as the start of a secret. The built-ins cut the text after scrubbing it now; and
 * json-schema quoted the engine's own piece of an output that is not JSON, ten characters of a
 * key there, where it now says where, as is-valid-json does, its quote scrubbed first. So does
 * assertions, whose errors and criteria quote the output.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const API_TOKEN = 'Zq7Xw9Lm2Np4Rt6VbK3d';

describe('metadata that quotes an output cut within a secret', () => {
  it("keeps none of the secret's first characters (levenshtein, regex)", async () => {
    // 495 to 500 characters of padding leave 5 to 0 characters of the secret before the cut.
    const pads = [495, 496, 497, 498, 499, 500];
    const dir = jsonlProject(
      // The key comes in a row: the function runs in this process, whose environment is not the run's.
      pads.map((pad) => ({ pad, key: API_TOKEN })),
      [
        'function: ./fn.mjs#fn',
        'evaluators:',
        '  - { id: lev, use: levenshtein, with: { expected: x } }',
        '  - { id: rx, use: regex, with: { pattern: "^x$" } }',
        '  - { id: match, use: regex, with: { pattern: "p+\\\\S+", match: none } }',
      ],
      {
        'fn.mjs': "export const fn = ({ testCase }) => 'p'.repeat(testCase.pad) + testCase.key;\n",
      },
    );
    const r = await runInProcess(['run', '-o', 'results.json'], dir, { API_TOKEN });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const text = readFileSync(join(dir, 'results.json'), 'utf8');
    // Every quote of an output: its padding, then what the cut kept of what followed.
    const quotes = [...text.matchAll(/"(actual|match)":"p{495,}([^"]*?)\u2026/g)];
    assert.equal(quotes.length, pads.length * 3, text);
    for (const [whole, , kept = ''] of quotes) {
      assert.ok('[redacted]'.startsWith(kept) || kept.startsWith('[redacted]'), whole.slice(-40));
    }
    assert.equal(text.includes(API_TOKEN.slice(0, 3)), false);
  });

  it('json-schema on an output that is not JSON where it holds a key quotes none of it', async () => {
    // The engine's own message quoted ten characters of the text there (`"{"a": Zq7Xw9Lm2N"...`).
    const dir = jsonlProject(
      [{ key: API_TOKEN }],
      [
        'function: ./fn.mjs#fn',
        'evaluators: [ { id: js, use: json-schema, with: { schema: { type: object } } } ]',
      ],
      { 'fn.mjs': 'export const fn = ({ testCase }) => `{"a": ${testCase.key}}`;\n' },
    );
    const r = await runInProcess(['run', '-o', 'results.json'], dir, { API_TOKEN });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const text = readFileSync(join(dir, 'results.json'), 'utf8');
    assert.match(
      text,
      /not valid JSON: line 1, column 7: expected a value, found \\"\[redacted\]\\"/,
    );
    assert.equal(text.includes(API_TOKEN.slice(0, 3)), false, text);
  });

  it('assertions quoting an output that is no rubric, cut within a key, keeps none of it', async () => {
    // The quote is cut at 80 characters: 73 to 78 of padding (and its quote) leave 5 to 0
    // characters of the key before the cut.
    const pads = [73, 74, 75, 76, 77, 78];
    const dir = jsonlProject(
      pads.map((pad) => ({ pad, key: API_TOKEN })),
      ['function: ./fn.mjs#fn', 'evaluators: [ { id: rubric, use: assertions } ]'],
      {
        'fn.mjs': "export const fn = ({ testCase }) => 'p'.repeat(testCase.pad) + testCase.key;\n",
      },
    );
    const r = await runInProcess(['run', '-o', 'results.json'], dir, { API_TOKEN });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const text = readFileSync(join(dir, 'results.json'), 'utf8');
    const quotes = [...text.matchAll(/is a string that is not JSON: \\"p{73,}([^\\\u2026]*)/g)];
    assert.equal(quotes.length, pads.length, text);
    for (const [whole, kept = ''] of quotes) {
      assert.ok('[redacted]'.startsWith(kept) || kept.startsWith('[redacted]'), whole.slice(-40));
    }
    assert.equal(text.includes(API_TOKEN.slice(0, 3)), false);
  });
});

describe('metadata that quotes a large object cut within a secret', () => {
  it("is-equals keeps none of the secret's first characters of the object's JSON", async () => {
    // `{"a":"` and 489 to 494 characters of padding leave 5 to 0 characters of the secret before
    // the cut of the JSON text at 500.
    const pads = [489, 490, 491, 492, 493, 494];
    const dir = jsonlProject(
      pads.map((pad) => ({ pad, key: API_TOKEN })),
      [
        'function: ./fn.mjs#fn',
        'evaluators: [ { id: eq, use: is-equals, with: { expected: x } } ]',
      ],
      {
        'fn.mjs':
          "export const fn = ({ testCase }) => ({ a: 'p'.repeat(testCase.pad) + testCase.key });\n",
      },
    );
    const r = await runInProcess(['run', '-o', 'results.json'], dir, { API_TOKEN });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const text = readFileSync(join(dir, 'results.json'), 'utf8');
    const quotes = [...text.matchAll(/"actual":"\{\\"a\\":\\"p{489,}(.*?)\u2026/g)];
    assert.equal(quotes.length, pads.length, text);
    for (const [whole, kept = ''] of quotes) {
      assert.ok('[redacted]'.startsWith(kept) || kept.startsWith('[redacted]'), whole.slice(-40));
    }
    assert.equal(text.includes(API_TOKEN.slice(0, 3)), false);
  });
});
