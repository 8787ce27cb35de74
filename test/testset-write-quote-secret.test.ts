/**
 * A problem of the testset writer quotes the value it is about (text that holds JSON, a cell with
 * a carriage return, tags written as one string) cut at 57 characters with `..."`. It used to cut
 * before anything scrubbed it: a secret at the cut kept its first characters, and the scrub of the
 * finished message (`evals testset convert` scrubs its stderr) only removes a piece before `…`.
 * The writer now scrubs what it quotes first. Every offset of the cut is tried.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createScrubber } from '../src/shared/secrets.ts';
import type { TestsetFormat } from '../src/testsets/formats.ts';
import { serializeTestset } from '../src/testsets/write.ts';
import type { TestsetRow } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { leaksIn } from './helpers/secret-fuzz.ts';

const SECRET = 'Hq7Rw2Zx9Lm4Np8Ks3Vt6Yb5';

/** Rows whose quoted values put the secret `pad` characters in, one problem each. */
function rowsWith(pad: number): [TestsetFormat, TestsetRow][] {
  const lead = 'p'.repeat(pad);
  const json = `{"k": "${lead}${SECRET}"}`;
  const row = (data: Record<string, unknown>, meta: TestsetRow['meta'] = {}): TestsetRow => ({
    data,
    meta,
    line: 1,
  });
  return [
    // Text holding JSON in a CSV cell, and in `__meta__` of any format.
    ['csv', row({ q: json })],
    ['json', row({ q: 'a' }, { meta: json })],
    // A carriage return in a CSV cell, in a value and in a field name.
    ['csv', row({ q: `${lead}\r\n${SECRET} end` })],
    ['csv', row({ [`${lead}\r${SECRET}`]: 'a' })],
    // Tags written as one string instead of a list.
    ['jsonl', row({ q: 'a' }, { tags: `${lead}${SECRET}` as unknown as string[] })],
  ];
}

describe('a testset writer problem that quotes a secret', () => {
  it('shows no piece of it, wherever it falls around the cut', () => {
    const scrub = createScrubber([SECRET]).text;
    const messages: [string, string][] = [];
    for (let pad = 0; pad < 70; pad++) {
      for (const [format, row] of rowsWith(pad)) {
        const written = serializeTestset([row], format, { scrub });
        assert.equal(written.ok, false, `${format} pad ${pad}`);
        if (written.ok) continue;
        for (const problem of written.problems) {
          messages.push([`${format} pad ${pad}`, problem.message]);
        }
        // The file is the testset: it keeps the secret.
        assert.ok(written.text.includes(SECRET), `${format} pad ${pad}: ${written.text}`);
      }
    }
    assert.ok(messages.length >= 70 * 5);
    assert.deepEqual(leaksIn(messages, [SECRET]), []);
    assert.ok(messages.some(([, text]) => text.includes('[redacted]')));
    // Cut as before: a long value still ends `..."`.
    assert.ok(messages.some(([, text]) => text.includes('..."')));
  });

  it('evals testset convert names the problem with the secret redacted', async () => {
    const dir = scratch();
    const rows = Array.from({ length: 40 }, (_, n) =>
      JSON.stringify({ q: `{"k": "${'p'.repeat(30 + n)}${SECRET}"}`, a: `row ${n}` }),
    );
    writeFiles(dir, { 'rows.jsonl': `${rows.join('\n')}\n` });
    const r = await runCli(['testset', 'convert', 'rows.jsonl', 'rows.csv'], {
      cwd: dir,
      env: { MY_SERVICE_TOKEN: SECRET },
    });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /holds JSON/);
    assert.match(r.stderr, /\[redacted\]/);
    assert.deepEqual(leaksIn([['stderr', r.stderr]], [SECRET]), []);
  });
});
