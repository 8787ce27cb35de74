/**
 * QA round 11: "a second signal quits at once with exit code 130" was only checked by hand under
 * `runTestSuite`, and did not hold. The first SIGINT / SIGTERM stops the run, which returns
 * without waiting for the calls in flight; a `fn` that ignores its `signal` keeps the process
 * alive, and the run's signal watch is gone by then, so the second signal ended the process by
 * Node's default: killed by the signal, no exit code 130, no word. Now, while calls the run
 * abandoned still run, the next signal quits at once with 130, the artifact of what finished
 * already on disk. Each script runs as a real child process, signalled as Ctrl-C would be.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { repoRoot, runNode, scratch, writeFiles, type CliResult } from './helpers/cli.ts';

const SDK = JSON.stringify(pathToFileURL(join(repoRoot, 'src', 'index.ts')).href);

/**
 * A suite `id` of three cases run one at a time, written to `out`; case 2 notes it started and
 * then waits ten minutes, ignoring its `signal` (a call that does not stop when asked).
 */
function stubbornSuite(id: string, out: string): string {
  return `{ id: '${id}', testCases: [1, 2, 3].map((k) => ({ k })), testCaseHash: ['k'],
  maxTestCaseConcurrency: 1, output: '${out}',
  fn: async ({ testCase }) => {
    if (testCase.k === 2) {
      writeFileSync('started-${id}', '');
      await new Promise((r) => setTimeout(r, 600000));
    }
    return 'x';
  } }`;
}

function project(script: string): string {
  const dir = scratch();
  writeFiles(dir, {
    'package.json': '{ "private": true, "type": "module" }\n',
    'script.mjs': `import { runTestSuite } from ${SDK};\nimport { writeFileSync } from 'node:fs';\n${script}`,
  });
  return dir;
}

/**
 * Runs the script; sends `signal` once the file `first` exists (polled, bounded), and again once
 * stdout holds `then` (the script's word that the run returned, or that a next one started).
 */
function signalTwice(
  dir: string,
  signal: NodeJS.Signals,
  first: string,
  then: (stdout: string, dir: string) => boolean,
): Promise<CliResult> {
  return runNode(['--import', import.meta.resolve('tsx'), 'script.mjs'], {
    cwd: dir,
    onSpawn: (child) => {
      let stdout = '';
      let sent = 0;
      const poll = setInterval(() => {
        if (sent === 0 && existsSync(join(dir, first))) {
          sent = 1;
          child.kill(signal);
        }
        if (sent === 1 && then(stdout, dir)) {
          sent = 2;
          clearInterval(poll);
          child.kill(signal);
        }
      }, 50);
      child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
      child.on('close', () => clearInterval(poll));
    },
  });
}

function artifact(dir: string, name: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, name), 'utf8')) as ResultsArtifact;
}

describe('runTestSuite: the second signal quits at once', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(
      `${signal} twice, the second after the run returned while its fn still runs: exit 130`,
      { timeout: 60_000 },
      async () => {
        const dir = project(`const result = await runTestSuite(${stubbornSuite('g', 'out.json')});
console.log('returned', result.interrupted, process.exitCode);\n`);
        const out = await signalTwice(dir, signal, 'started-g', (stdout) =>
          stdout.includes('returned'),
        );
        // Ended by evalgate with the documented code, not killed by the signal (nor by the
        // ten-minute timer, nor by runNode's limit, which would be SIGKILL).
        assert.equal(out.signal, null, out.stderr);
        assert.equal(out.code, 130, out.stderr);
        assert.match(out.stdout, /returned true 130/);
        assert.match(out.stderr, /stopping: no new cases start/);
        assert.match(out.stderr, /\nquit at the second signal\n/);
        // What finished is written, marked interrupted.
        const written = artifact(dir, 'out.json');
        assert.equal(written.interrupted, true);
        assert.deepEqual(
          written.runs[0]!.cases.map((c) => [c.data, c.error]),
          [[{ k: 1 }, null]],
        );
      },
    );
  }

  it(
    'a next suite the script starts anyway quits at the second signal, its partial artifact written',
    { timeout: 60_000 },
    async () => {
      const dir = project(`await runTestSuite(${stubbornSuite('a', 'a.json')});
console.log('next');
await runTestSuite(${stubbornSuite('b', 'b.json')});
console.log('b returned');\n`);
      const out = await signalTwice(
        dir,
        'SIGINT',
        'started-a',
        (stdout, at) => stdout.includes('next') && existsSync(join(at, 'started-b')),
      );
      assert.equal(out.signal, null, out.stderr);
      assert.equal(out.code, 130, out.stderr);
      assert.doesNotMatch(out.stdout, /b returned/);
      assert.match(
        out.stderr,
        /quit at the second signal: the partial artifact is written to b\.json/,
      );
      assert.equal(artifact(dir, 'a.json').interrupted, true);
      const b = artifact(dir, 'b.json');
      assert.equal(b.interrupted, true);
      assert.deepEqual(
        b.runs[0]!.cases.map((c) => (c.data as { k: number }).k),
        [1],
      );
    },
  );
});
