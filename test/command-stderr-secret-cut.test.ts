/**
 * A failed command's error shows the end of its stderr: the last 20 lines of the last 64 KiB,
 * cut at whole lines. A secret that spans lines (a private key's PEM body) was cut with them
 * before the case was scrubbed, so the lines of it after the cut stayed, and no scrub knows a
 * line of a secret. Now stderr is scrubbed before it is cut. A real process writes the secret
 * where each cut falls on each of its lines; nothing of it may reach the artifact or terminal.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

/** Five lines of eight characters, as an environment variable whose name says it is secret. */
const LINES = ['Zq7Xw9Lm', 'Np4Rt6Vb', 'K3dHj8Ty', 'Ue5Wc2Qa', 'Ms1Ok0Pi'];
const X_PRIVATE_KEY = LINES.join('\n');

/**
 * Writes to stderr, then fails. `lines`: the secret, then 20 - `kept` lines, so that the last
 * 20 lines hold `kept` of its lines. `bytes`: the secret, then 16 long lines, so that the last
 * 64 KiB begin within its line `kept` (counted from 1).
 */
const EMIT = `
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const { mode, kept } = JSON.parse(input).case;
  const secret = process.env.X_PRIVATE_KEY;
  const head = Array.from({ length: 30 }, (_, i) => 'before ' + i + '\\n').join('');
  let tail;
  if (mode === 'lines') {
    tail = Array.from({ length: 20 - kept }, (_, i) => 'after ' + i + '\\n').join('');
  } else {
    // From the secret's start to the end: 65536 bytes plus 3 bytes into line \`kept\` (9 each).
    const rest = 65536 - (${X_PRIVATE_KEY.length} + 1) + 9 * (kept - 1) + 3;
    const long = ('a'.repeat(4095) + '\\n').repeat(15);
    tail = long + 'b'.repeat(rest - long.length - 1) + '\\n';
  }
  process.stderr.write(head + secret + '\\n' + tail, () => process.exit(1));
});
`;

describe("a failed command's stderr holding a secret that spans lines", () => {
  it('keeps none of its lines, wherever the cut of the last lines or bytes falls', async () => {
    const dir = scratch();
    const cases = [1, 2, 3, 4].flatMap((kept) => [
      { mode: 'lines', kept },
      { mode: 'bytes', kept },
    ]);
    writeFiles(dir, {
      'emit.mjs': EMIT,
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: main',
        `    testset: { cases: ${JSON.stringify(cases)} }`,
        '    target: { type: command, run: [node, emit.mjs] }',
        '    evaluators: [{ use: contains, with: { values: [x] } }]',
        '',
      ].join('\n'),
    });
    const r = await runInProcess(['run', '-o', 'results.json'], dir, { X_PRIVATE_KEY });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const artifact = readFileSync(join(dir, 'results.json'), 'utf8');
    const results = JSON.parse(artifact) as { runs: { cases: { error?: string }[] }[] };
    const errors = results.runs[0]!.cases.map((c) => c.error ?? '');
    assert.equal(errors.length, cases.length);
    for (const error of errors) {
      // Each error ends in stderr's last line, the secret in it (or cut off before) redacted.
      assert.match(error, /exited with code 1; stderr:\n/);
      assert.match(error, /(after \d+|b{100})$/);
    }
    const everywhere = artifact + r.stdout + r.stderr;
    const leaked = LINES.flatMap((line) =>
      Array.from({ length: line.length - 2 }, (_, i) => line.slice(i, i + 3)),
    ).filter((piece) => everywhere.includes(piece));
    assert.deepEqual(leaked, []);
    // Scrubbed whole, then cut: it shows as one line.
    assert.equal(errors.filter((e) => e.includes('\n[redacted]\n')).length, cases.length);
  });
});
