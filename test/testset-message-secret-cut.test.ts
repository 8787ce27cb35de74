/**
 * A JSON testset's duplicate key and inexact number are quoted in their problem, a long one cut
 * (at 77 and 37 characters) before anything scrubbed it: a key or a number holding a secret at
 * the cut kept its first characters, which the scrub of the finished message cannot recognise.
 * The readers now scrub what they quote before they cut it, and a number that holds a secret is
 * not shown as it would be read either (a double of its first digits). Every offset is tried.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJson } from '../src/testsets/json.ts';
import { streamTestsetRows } from '../src/testsets/stream-read.ts';
import { createScrubber } from '../src/shared/secrets.ts';
import { leaksIn } from './helpers/secret-fuzz.ts';

const KEY_SECRET = 'Mx4Qd8Wr2Tz6Yb1Nc5Vh9Kj3';
/** A number a double cannot keep, the way a numeric token or account key is. */
const DIGIT_SECRET = '9182736450918273645091827364';

describe('a JSON testset problem that quotes a secret', () => {
  it('shows no piece of it, wherever it falls around the cut', async () => {
    const scrub = createScrubber([KEY_SECRET, DIGIT_SECRET]).text;
    const messages: [string, string][] = [];
    for (let pad = 40; pad < 100; pad++) {
      const key = `${'k'.repeat(pad)}${KEY_SECRET}`;
      const duplicate = parseJson(
        `[{${JSON.stringify(key)}: 1, ${JSON.stringify(key)}: 2}]`,
        't.json',
        scrub,
      );
      assert.equal(duplicate.ok, false);
      if (!duplicate.ok)
        messages.push(
          ...duplicate.issues.map((i): [string, string] => [`key pad ${pad}`, i.message]),
        );
    }
    for (let pad = 0; pad < 40; pad++) {
      const number = `${'1'.repeat(pad)}${DIGIT_SECRET}`;
      const inexact = parseJson(`[{"n": ${number}}]`, 't.json', scrub);
      assert.equal(inexact.ok, false);
      if (!inexact.ok)
        messages.push(
          ...inexact.issues.map((i): [string, string] => [`number pad ${pad}`, i.message]),
        );
    }
    // A CSV cell of JSON is held to the same rules, through the streaming reader a run uses.
    for (let pad = 40; pad < 100; pad += 7) {
      const key = `${'k'.repeat(pad)}${KEY_SECRET}`;
      const cell = `{${JSON.stringify(key)}: 1, ${JSON.stringify(key)}: 2}`;
      const csv = `q,n\n"${cell.replaceAll('"', '""')}",${'1'.repeat(pad % 20)}${DIGIT_SECRET}\n`;
      const read = await streamTestsetRows(
        { bytes: Buffer.from(csv) },
        'csv',
        't.csv',
        () => {},
        scrub,
      );
      assert.equal(read.ok, false);
      if (!read.ok)
        messages.push(...read.issues.map((i): [string, string] => [`csv pad ${pad}`, i.message]));
    }
    assert.ok(messages.length > 100);
    assert.deepEqual(leaksIn(messages, [KEY_SECRET, DIGIT_SECRET]), []);
    assert.ok(messages.some(([, text]) => text.includes('[redacted]')));
  });
});
