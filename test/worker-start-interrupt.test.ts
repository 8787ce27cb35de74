/**
 * `isolation: worker` starts its threads, each loading the function, before the first case. A
 * module that never finishes loading in a thread (a busy loop at its top level, a load that
 * takes minutes) held the run there: Ctrl-C said "stopping" and nothing stopped. The interrupt
 * stops the threads still loading, and the run ends as one interrupted before its first case
 * (exit 130, the partial artifact written). The built CLI, as a child process.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readArtifact } from './helpers/read-artifact.ts';
import { runCli } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';
import { waitUntil } from './helpers/wait-until.ts';

describe('an interrupt while the worker threads load the function', () => {
  it('stops them: exit 130, the partial artifact written, no case run', async () => {
    const dir = suiteProject(
      [
        'testset: { cases: [ { q: a }, { q: b } ] }',
        'function: ./fn.mjs#fn',
        'isolation: worker',
        'timeout: 5s',
        'concurrency: 2',
        'evaluators:',
        '  - { use: is-equals, with: { expected: "{{ case.q }}" } }',
      ],
      {
        // Loads in the main thread (marking it), never in a worker thread.
        'fn.mjs': [
          "import { writeFileSync } from 'node:fs';",
          "import { isMainThread } from 'node:worker_threads';",
          "if (isMainThread) writeFileSync(new URL('./loaded', import.meta.url), '');",
          'else for (;;) {}',
          'export const fn = ({ testCase }) => testCase.q;',
          '',
        ].join('\n'),
      },
    );
    const r = await runCli(['run', '-o', 'out.json'], {
      cwd: dir,
      timeoutMs: 20_000,
      onSpawn: (child) => {
        void waitUntil(() => existsSync(join(dir, 'loaded')), 100).then(() =>
          // The threads are started once the main thread has loaded the module.
          setTimeout(() => child.kill('SIGINT'), 300),
        );
      },
    });
    assert.equal(r.signal, null, `killed: the run hung after the interrupt\n${r.stderr}`);
    assert.equal(r.code, 130, r.stderr);
    const artifact = readArtifact(join(dir, 'out.json'));
    assert.equal(artifact.interrupted, true);
    assert.equal(artifact.runs[0]?.cases.length, 0);
  });
});
