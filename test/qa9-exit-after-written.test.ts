/**
 * A signal just after a run wrote its results, while the process ends: the exit code is the
 * verdict's, as docs/cli.md says, not death by the signal. Node stops handling signals while it
 * tears a large heap down at a natural exit, so the launcher exits explicitly once idle.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';

const ROWS = 6000;

function project(): string {
  const dir = suiteProject(
    [
      'testset: { path: cases.jsonl }',
      'function: ./fn.mjs#fn',
      'concurrency: 50',
      'evaluators:',
      '  - { use: contains, with: { values: [a] } }',
    ],
    { 'fn.mjs': 'export const fn = ({ testCase }) => testCase.q;\n' },
  );
  const rows = Array.from({ length: ROWS }, (_, i) => JSON.stringify({ q: `a${i}` }));
  writeFileSync(join(dir, 'cases.jsonl'), `${rows.join('\n')}\n`);
  return dir;
}

describe('a signal as the process ends after writing its results', () => {
  it('exits with the verdict, never by the signal, at any moment after "results written"', async () => {
    const dir = project();
    // Right away, and a little later: the window is Node's teardown, a few to tens of ms.
    for (const delayMs of [0, 5, 15, 30]) {
      let signalled = false;
      const result = await runCli(['run', '-o', 'out.json'], {
        cwd: dir,
        onSpawn: (child) => {
          let out = '';
          // The line is on stderr, with the progress.
          child.stderr?.on('data', (d: Buffer) => {
            out += d.toString();
            if (!signalled && out.includes('results written to')) {
              signalled = true;
              setTimeout(() => child.kill('SIGINT'), delayMs);
            }
          });
        },
      });
      assert.ok(signalled, 'the run said it wrote its results');
      assert.equal(result.signal, null, `killed by ${result.signal} ${delayMs} ms after writing`);
      assert.equal(result.code, 0, result.stderr);
    }
  });
});
