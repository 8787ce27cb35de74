/**
 * json-schema's errors name where the output fails, by its own keys (`/<key>: must be number`),
 * and a key may be a secret. Each error is cut at 200 characters: it was cut before the case was
 * scrubbed, so a cut within the secret's first 5 characters kept them, too few for the scrub to
 * recognise. It is scrubbed first now. The output's key is a run of `p`s, then the secret, so
 * that the cut falls at every character of it.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const X_SECRET = 'Zq7Xw9Lm2Np4Rt6VbK3d';

describe("json-schema's error naming a key that is a secret, cut", () => {
  it('keeps no part of the secret, whatever character the cut falls on', async () => {
    const dir = scratch();
    // `/` and the key, cut at 200: 1 to all of the secret's characters before the cut.
    const rows = Array.from({ length: X_SECRET.length }, (_, i) => ({
      output: { [`${'p'.repeat(199 - (i + 1))}${X_SECRET}`]: 'text' },
    }));
    writeFileSync(join(dir, 'rows.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    writeFileSync(
      join(dir, 'evals.yaml'),
      [
        'version: 1',
        'suites:',
        '  - id: main',
        '    testset: { path: rows.jsonl }',
        '    evaluators:',
        '      - use: json-schema',
        '        with: { schema: { additionalProperties: { type: number } } }',
        '',
      ].join('\n'),
    );
    const r = await runInProcess(['run', '-o', 'results.json'], dir, { X_SECRET });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const everywhere = readFileSync(join(dir, 'results.json'), 'utf8') + r.stdout + r.stderr;
    const errors = [...everywhere.matchAll(/"\/p{90,}([^"\\\u2026]*)\u2026/g)];
    // Scrubbed, each error is still over 200 characters long: every one is cut.
    assert.equal(errors.length, rows.length);
    // What follows the `p`s is `[redacted]`, or its start where the cut fell within it.
    const redacted = (kept: string): boolean =>
      '[redacted]'.startsWith(kept) || kept.startsWith('[redacted]');
    const leaks = errors.filter(([, kept = '']) => !redacted(kept));
    assert.deepEqual(
      leaks.map(([whole]) => whole.slice(-30)),
      [],
    );
    const pieces = Array.from({ length: X_SECRET.length - 2 }, (_, i) => X_SECRET.slice(i, i + 3));
    assert.deepEqual(
      pieces.filter((piece) => everywhere.includes(piece)),
      [],
    );
  });
});
