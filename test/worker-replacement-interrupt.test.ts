/**
 * `isolation: worker`: a call past its limit has its thread replaced, and the next case waits
 * for the new thread to load. A replacement that never finishes loading held the run there
 * even after Ctrl-C ("stopping", then nothing). The interrupt ends that wait: the run ends
 * interrupted with the cases that finished (exit 130). The built CLI, as a child process.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readArtifact } from './helpers/read-artifact.ts';
import { runCli } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';
import { waitUntil } from './helpers/wait-until.ts';

describe('an interrupt while a case waits for a replacement thread to load', () => {
  it('ends the wait: exit 130, the finished cases written', async () => {
    const dir = suiteProject(
      [
        'testset: { cases: [ { q: a }, { q: b }, { q: c } ] }',
        'function: ./fn.mjs#fn',
        'isolation: worker',
        'timeout: 500ms',
        'concurrency: 1',
        'evaluators:',
        '  - { use: is-equals, with: { expected: "{{ case.q }}" } }',
      ],
      {
        // The first thread loads; case b never returns, and its replacement never loads.
        'fn.mjs': [
          "import { existsSync, readFileSync, writeFileSync } from 'node:fs';",
          "import { isMainThread } from 'node:worker_threads';",
          'if (!isMainThread) {',
          "  const count = new URL('./threads', import.meta.url);",
          "  const n = existsSync(count) ? Number(readFileSync(count, 'utf8')) : 0;",
          '  writeFileSync(count, String(n + 1));',
          '  if (n >= 1) for (;;) {}',
          '}',
          "export const fn = ({ testCase }) => { if (testCase.q === 'b') for (;;) {} return testCase.q; };",
          '',
        ].join('\n'),
      },
    );
    const threads = join(dir, 'threads');
    const r = await runCli(['run', '-o', 'out.json'], {
      cwd: dir,
      timeoutMs: 20_000,
      onSpawn: (child) => {
        void waitUntil(
          () => existsSync(threads) && readFileSync(threads, 'utf8') === '2',
          150,
        ).then(() => setTimeout(() => child.kill('SIGINT'), 300));
      },
    });
    assert.equal(r.signal, null, `killed: the run hung after the interrupt\n${r.stderr}`);
    assert.equal(r.code, 130, r.stderr);
    const artifact = readArtifact(join(dir, 'out.json'));
    assert.equal(artifact.interrupted, true);
    const cases = artifact.runs[0]?.cases ?? [];
    assert.deepEqual(
      cases.map((c) => [(c.data as Record<string, unknown>)['q'], c.error]),
      [
        ['a', null],
        ['b', 'timed out after 500 ms'],
      ],
    );
  });
});
