/**
 * SIGHUP mid-run, as a closed terminal or a dropped ssh session sends it: the run stops as at
 * Ctrl-C, writes the cases that finished as a partial artifact and says how to finish it, and
 * the resumed run gives the verdict and cases of one uninterrupted run. Node's default for SIGHUP
 * ends the process at once with nothing written. The CLI runs from src/ in a child process.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { evalsFromSources as evals } from './helpers/evals-from-sources.ts';
import { suiteProject } from './helpers/suite-project.ts';

const ROWS = 6;

/** A command target, run over rows n = 0..5, two trials each; rows n % 3 = 0 fail. */
function project(): string {
  const rows = Array.from({ length: ROWS }, (_, n) => `{ n: "${n}" }`).join(', ');
  return suiteProject(
    [
      `testset: { cases: [${rows}] }`,
      'trials: 2',
      'concurrency: 1',
      'target: { type: command, run: [node, agent.mjs] }',
      'evaluators:',
      '  - { id: eq, use: is-equals, with: { expected: ok, actual: "{{ output }}" } }',
      'gate: { minPassRate: 0.5 }',
    ],
    {
      'agent.mjs': `import { appendFileSync } from 'node:fs';
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const n = Number(JSON.parse(input).case.n);
  setTimeout(() => {
    appendFileSync('calls', n + '\\n');
    process.stdout.write(n % 3 === 0 ? 'bad' : 'ok');
  }, 80);
});
`,
    },
  );
}

function artifactAt(path: string): ResultsArtifact {
  return JSON.parse(readFileSync(path, 'utf8')) as ResultsArtifact;
}

/** The lines the agent wrote, one per call (0 before the first call ends). */
function calls(dir: string): number {
  const file = join(dir, 'calls');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0;
}

describe('SIGHUP mid-run', () => {
  it('writes the partial artifact, exits 130, and the printed command finishes it', async () => {
    const dir = project();
    const r = await evals(['run', '-o', 'out.json'], dir, (child) => {
      // Once 2 cases (4 trials) finished, well before the last of 12 calls.
      const poll = setInterval(() => {
        if (calls(dir) < 4) return;
        clearInterval(poll);
        child.kill('SIGHUP');
      }, 20);
      child.on('close', () => clearInterval(poll));
    });
    assert.equal(r.signal, null, 'ended by the signal, with nothing written');
    assert.equal(r.code, 130, r.stderr);
    const partial = artifactAt(join(dir, 'out.json'));
    assert.equal(partial.interrupted, true);
    const finished = partial.runs[0]?.cases ?? [];
    assert.ok(finished.length > 0 && finished.length < ROWS, `${finished.length} cases`);
    for (const c of finished) assert.equal(c.trials?.length, 2);
    const command = /to finish it: (.+)\n/.exec(r.stderr)?.[1];
    assert.equal(command, 'evals run --resume out.json');

    const resumed = await evals(command.split(' ').slice(1), dir);
    assert.equal(resumed.code, 0, resumed.stderr);
    const whole = artifactAt(join(dir, 'out.json'));
    assert.equal(whole.interrupted, false);
    assert.equal(whole.verdict, 'pass');
    const cases = whole.runs[0]?.cases ?? [];
    assert.deepEqual(
      cases.map((c) => [(c.data as { n: string }).n, c.passed, c.trials?.length]),
      Array.from({ length: ROWS }, (_, n) => [String(n), n % 3 !== 0, 2]),
    );
    // The kept cases ran once: only the case in flight at the signal (its trials abandoned) ran again.
    assert.ok(calls(dir) <= ROWS * 2 + 2, `${calls(dir)} calls`);
  });
});
