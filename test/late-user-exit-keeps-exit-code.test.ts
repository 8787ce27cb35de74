/**
 * User code that ends the process after `evals run` has finished: a timer or callback a case's
 * function left running fires while the process lingers on it (the launcher waits up to a
 * second). Its `process.exit(0)` must not turn a failed or interrupted run into a pass, and its
 * exit (or uncaught error) is said in one line, not left to pass for the run's own. The built
 * CLI, as a child process.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';

/**
 * Cases a (passes) and b (passes when `passing`, else fails); case a's call leaves `late` to
 * run once the run has ended: 150 ms after its artifact, out.json, appears.
 */
function project(passing: boolean, late: string): string {
  return suiteProject(
    [
      'testset: { cases: [ { q: a }, { q: b } ] }',
      'function: ./fn.mjs#fn',
      'evaluators:',
      '  - { use: is-equals, with: { expected: "{{ case.q }}" } }',
    ],
    {
      'fn.mjs': [
        "import { existsSync } from 'node:fs';",
        'export function fn({ testCase }) {',
        "  if (testCase.q === 'a') {",
        '    const poll = setInterval(() => {',
        "      if (!existsSync('out.json')) return;",
        '      clearInterval(poll);',
        `      setTimeout(() => { ${late} }, 150);`,
        '    }, 20);',
        '  }',
        `  return testCase.q === 'b' && ${!passing} ? 'wrong' : testCase.q;`,
        '}',
        '',
      ].join('\n'),
    },
  );
}

function verdict(dir: string): ResultsArtifact['verdict'] {
  return (JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsArtifact).verdict;
}

const LATE = /error: the process was ended \(exit code \d+\) after evals finished/;

describe('user code that ends the process after the run finished', () => {
  it('a failed run stays exit 1 when a leftover timer calls process.exit(0)', async () => {
    const dir = project(false, 'process.exit(0);');
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, timeoutMs: 30_000 });
    assert.equal(verdict(dir), 'fail');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, LATE);
  });

  it('a passed run exits 1, saying why, when a leftover timer calls process.exit(0)', async () => {
    const dir = project(true, 'process.exit(0);');
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, timeoutMs: 30_000 });
    assert.equal(verdict(dir), 'pass');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /error: the process was ended \(exit code 0\) after evals finished/);
  });

  it('a passed run names the uncaught error of a leftover timer (exit 1)', async () => {
    const dir = project(true, "throw new Error('late boom');");
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, timeoutMs: 30_000 });
    assert.equal(verdict(dir), 'pass');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, LATE);
    assert.match(r.stderr, /\(an uncaught exception\)/);
  });

  it('a failed run keeps its exit code 1 (not 3) when a leftover timer calls process.exit(3)', async () => {
    const dir = project(false, 'process.exit(3);');
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, timeoutMs: 30_000 });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, LATE);
  });

  it('ends with the verdict when the function replaced the global setTimeout', async () => {
    // As a fake-timers library installed by the code under test would, never uninstalled.
    const dir = project(true, '');
    writeFileSync(
      join(dir, 'fn.mjs'),
      'export function fn({ testCase }) {\n  globalThis.setTimeout = () => 0;\n  return testCase.q;\n}\n',
    );
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir, timeoutMs: 30_000 });
    assert.equal(verdict(dir), 'pass');
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /TypeError|error:/);
  });

  it('an interrupted run stays exit 130 when its abandoned call later calls process.exit(0)', async () => {
    const dir = suiteProject(
      [
        'testset: { cases: [ { q: a }, { q: b } ] }',
        'function: ./fn.mjs#fn',
        'concurrency: 1',
        'evaluators:',
        '  - { use: is-equals, with: { expected: "{{ case.q }}" } }',
      ],
      {
        // Abandoned at the Ctrl-C, it goes on, and ends the process once the partial is written.
        'fn.mjs': [
          "import { existsSync } from 'node:fs';",
          'export async function fn() {',
          "  console.error('call started');",
          '  const poll = setInterval(() => {',
          "    if (!existsSync('out.json')) return;",
          '    clearInterval(poll);',
          '    setTimeout(() => process.exit(0), 150);',
          '  }, 20);',
          '  await new Promise(() => {});',
          '}',
          '',
        ].join('\n'),
      },
    );
    const r = await runCli(['run', '-o', 'out.json'], {
      cwd: dir,
      timeoutMs: 30_000,
      onSpawn: (child) => {
        let sent = false;
        child.stderr?.on('data', (d: Buffer) => {
          if (!sent && d.toString().includes('call started')) {
            sent = true;
            child.kill('SIGINT');
          }
        });
      },
    });
    assert.match(r.stderr, /interrupted: out\.json holds the cases that finished/);
    assert.equal(verdict(dir), 'fail');
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, LATE);
  });
});
