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
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { sdkScript } from './helpers/sdk-script.ts';

/** What a script using `stubbornSuite` imports besides `runTestSuite`. */
const FS = "import { writeFileSync } from 'node:fs';\n";

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

function artifact(dir: string, name: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, name), 'utf8')) as ResultsArtifact;
}

describe('runTestSuite: the second signal quits at once', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(
      `${signal} twice, the second after the run returned while its fn still runs: exit 130`,
      { timeout: 60_000 },
      async () => {
        const { dir, run } =
          sdkScript(`${FS}const result = await runTestSuite(${stubbornSuite('g', 'out.json')});
console.log('returned', result.interrupted, process.exitCode);\n`);
        // Once case 2 started, and again once the run returned.
        const out = await run({
          signals: [
            { signal, file: 'started-g' },
            { signal, stdout: 'returned' },
          ],
        });
        // Ended by evalgate with the documented code, not killed by the signal (nor by the
        // ten-minute timer, nor by sdkScript's 60 s limit, which would be SIGKILL).
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
      const { dir, run } = sdkScript(`${FS}await runTestSuite(${stubbornSuite('a', 'a.json')});
console.log('next');
await runTestSuite(${stubbornSuite('b', 'b.json')});
console.log('b returned');\n`);
      // Once a's case 2 started, and again once the next suite's case 2 started.
      const out = await run({
        signals: [
          { signal: 'SIGINT', file: 'started-a' },
          { signal: 'SIGINT', stdout: 'next', file: 'started-b' },
        ],
      });
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
