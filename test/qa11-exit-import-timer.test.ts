/**
 * A module may set a timer at its top level that ends the process later, in the middle of the
 * run (`setTimeout(() => process.exit(0), 50)`). No case's code called it, so blaming the cases
 * in flight would mislead; the line names the module whose import set the timer, and the cases
 * in flight are left for `--resume`. Run on the built CLI as a child process.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { functionProject, oneSuiteProject, runCli, writeFiles } from './helpers/cli.ts';

function readArtifact(path: string): ResultsArtifact {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  assert.deepEqual(validateArtifact(value), [], 'the artifact matches the schema');
  return value as ResultsArtifact;
}

/**
 * A module whose top level sets a timer that calls `ending` once a case has started (re-armed
 * until then, so the test does not depend on how long loading takes), and whose `fn` waits far
 * longer than that — unless FIXED is set, when there is no timer and `fn` answers at once.
 */
function timerModule(ending: string): string {
  return `let started = false;
if (!process.env.FIXED) {
  setTimeout(function tick() {
    if (started) ${ending};
    else this.refresh();
  }, 50);
}
export async function fn() {
  started = true;
  if (process.env.FIXED) return 'x';
  return new Promise((resolve) => setTimeout(() => resolve('x'), 30_000));
}
`;
}

describe('evals run: a module that ends the process from a timer its top level set', () => {
  it('names the module (JavaScript), errors no case, and --resume runs them all', async () => {
    const dir = oneSuiteProject('n\n1\n2\n3\n4\n', [
      'function: ./lib/answer.mjs#fn',
      'concurrency: 4',
      'evaluators:',
      '  - { id: ok, use: is-equals, with: { expected: "x" } }',
    ]);
    writeFiles(dir, { 'lib/answer.mjs': timerModule('process.exit(0)') });
    const r = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /ended \(exit code 0\) from inside the run, by code lib\/answer\.mjs scheduled when it was imported/,
    );
    assert.match(r.stderr, /not by a case; the 4 case\(s\) in flight did not finish/);
    assert.doesNotMatch(r.stderr, /recorded as errored/, 'no case is blamed');
    assert.match(r.stderr, /to finish it: evals run --resume r\.json/);
    const partial = readArtifact(join(dir, 'r.json'));
    assert.equal(partial.interrupted, true);
    assert.deepEqual(partial.runs[0]!.cases, [], 'no case recorded');

    const resumed = await runCli(['run', '-o', 'r.json', '--resume', 'r.json'], {
      cwd: dir,
      env: { FIXED: '1' },
    });
    assert.equal(resumed.code, 0, resumed.stderr);
    const whole = readArtifact(join(dir, 'r.json'));
    assert.equal(whole.interrupted, false);
    assert.equal(whole.runs[0]!.cases.filter((c) => c.passed).length, 4);
  });

  it('names the module (TypeScript) for an uncaught exception from its timer', async () => {
    const dir = functionProject({
      'fn.ts': timerModule("throw new Error('stray timer')").replace(
        'function tick()',
        'function tick(this: NodeJS.Timeout)',
      ),
    });
    const r = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /from inside the run \(an uncaught exception\), by code fn\.ts scheduled when it was imported/,
    );
    assert.equal(readArtifact(join(dir, 'r.json')).interrupted, true);
  });

  it('names the module whose timer fires while another module loads, not the one loading', async () => {
    // lib/answer.mjs sets a timer at import that exits once lib/slow.mjs has started loading;
    // slow.mjs's top-level await is still pending then, so the process ends outside a run.
    const dir = oneSuiteProject('n\n1\n', [
      'function: ./lib/answer.mjs#fn',
      'evaluators:',
      '  - { id: slow, use: ./lib/slow.mjs#slow }',
    ]);
    writeFiles(dir, {
      'lib/answer.mjs': `setTimeout(function tick() {
  if (globalThis.slowLoading) process.exit(0);
  else this.refresh();
}, 20);
export function fn() { return 'x'; }
`,
      'lib/slow.mjs': `globalThis.slowLoading = true;
await new Promise((resolve) => setTimeout(resolve, 30_000));
export function slow() { return { score: 1 }; }
`,
    });
    const r = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /ended \(exit code 0\) before evals finished, by code lib\/answer\.mjs scheduled when it was imported/,
    );
    assert.doesNotMatch(r.stderr, /while it loaded/, 'the module loading then is not blamed');
  });
});
