/**
 * The end of a run that the reader or the user cuts short: a reader that closes its pipe
 * (`evals run … | head -1`) must not cost the results or turn the verdict into a crash, and a
 * second Ctrl-C after the last case, while the results are still being written, writes them
 * instead of leaving the file of an earlier run in place. The built CLI, as a child process.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { evalsBin, repoRoot, runCli, runNode } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';

/** One inline case, passing or failing, run by a function that notes it was called. */
function project(passing: boolean): string {
  return suiteProject(
    [
      'testset: { cases: [ { q: a } ] }',
      'function: ./fn.mjs#fn',
      'evaluators:',
      `  - { use: is-equals, with: { expected: ${passing ? 'a' : 'b'} } }`,
    ],
    {
      'fn.mjs':
        "import { writeFileSync } from 'node:fs';\nexport function fn({ testCase }) {\n  writeFileSync(new URL('./called', import.meta.url), '');\n  return testCase.q;\n}\n",
    },
  );
}

function artifact(dir: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsArtifact;
}

/** `evals run -o out.json` with the named output streams closed by their reader at once. */
function runWithClosed(
  dir: string,
  closed: ('stdout' | 'stderr')[],
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [evalsBin, 'run', '-o', 'out.json'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    for (const name of closed) child[name].destroy();
    if (!closed.includes('stderr'))
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    if (!closed.includes('stdout')) child.stdout.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('a reader that closes its pipe', () => {
  it('stdout closed: the results are written and the exit code is the verdict (0)', async () => {
    const dir = project(true);
    const r = await runWithClosed(dir, ['stdout']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /EPIPE|Unhandled|at /);
    assert.match(r.stderr, /results written to out\.json/);
    assert.equal(artifact(dir).verdict, 'pass');
  });

  it('stdout closed on a failing run: exit 1 for the verdict, not for a crash', async () => {
    const dir = project(false);
    const r = await runWithClosed(dir, ['stdout']);
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /EPIPE|Unhandled/);
    assert.equal(artifact(dir).verdict, 'fail');
  });

  it('both closed: nothing can be printed, the results are still written (exit 0)', async () => {
    const dir = project(true);
    const r = await runWithClosed(dir, ['stdout', 'stderr']);
    assert.equal(r.code, 0);
    assert.equal(artifact(dir).verdict, 'pass');
    assert.equal(artifact(dir).runs[0]?.cases.length, 1);
  });
});

describe('a second Ctrl-C after the last case', () => {
  it('writes the results being written, in place of an earlier run’s file', async () => {
    const dir = project(true);
    // The run reads the commit from .git/HEAD once its cases are done; a FIFO there holds that
    // read (nobody writes to it), which keeps the run between its last case and its artifact.
    mkdirSync(join(dir, '.git'));
    execFileSync('mkfifo', [join(dir, '.git', 'HEAD')]);
    writeFileSync(join(dir, 'out.json'), '{"stale": "an earlier run"}\n');
    const r = await runCli(['run', '-o', 'out.json'], {
      cwd: dir,
      timeoutMs: 30_000,
      onSpawn: (child) => {
        let stderr = '';
        child.stderr?.on('data', (d: Buffer) => {
          stderr += d.toString();
          // The first signal is taken; the second quits.
          if (stderr.includes('stopping:')) child.kill('SIGINT');
          // Node waits at exit for its file reads, the one held open on the FIFO included: let
          // that read end once the results are written, or the process could never exit.
          if (stderr.includes('the results are written to')) {
            writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
          }
        });
        void waitForFile(join(dir, 'called')).then(() =>
          // The case is instant: well past it, the run waits on the FIFO.
          setTimeout(() => child.kill('SIGINT'), 500),
        );
      },
    });
    // The results are whole and written: the exit says what they say (a pass), not 130.
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /quit at the second signal; the results are written to out\.json/);
    const written = artifact(dir);
    assert.equal(written.verdict, 'pass');
    assert.equal(written.runs[0]?.cases.length, 1);
  });
});

/**
 * A script that runs `evals run -o out.json` in `dir` through the pipeline, with one more
 * reporter after the run's own that ends the process from its `onRunEnd` with `process.exit(0)`
 * (as a stray timer of user code could, while the reports are written).
 */
const EXITING_REPORTER = `import { mkdirSync } from 'node:fs';
import { executeRun } from ${JSON.stringify(join(repoRoot, 'src', 'pipeline', 'run.ts'))};
import { parseRunArgs } from ${JSON.stringify(join(repoRoot, 'src', 'cli', 'run-args.ts'))};
const ctx = { cwd: process.cwd(), env: { ...process.env, NO_COLOR: '1' }, stdout: process.stdout, stderr: process.stderr };
await executeRun(parseRunArgs(['-o', 'out.json']), ctx, [
  {
    // BREAK: a folder takes the file's place while the run goes, so writing it fails.
    onRunStart: () => process.env.BREAK === '1' && mkdirSync('out.json'),
    onRunEnd: () => process.exit(0),
  },
]);
`;

describe('an exit after the results are written, while the other reports are', () => {
  it('leaves the written file alone, and the exit code is 1, not the 0 it was given', async () => {
    const dir = project(true);
    writeFileSync(join(dir, 'exit.mts'), EXITING_REPORTER);
    const r = await runNode(['--import', import.meta.resolve('tsx'), 'exit.mts'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr.match(/out\.json/g)?.length, 1, r.stderr);
    assert.match(r.stderr, /error: the process exited \(exit code 0\) before evals finished\n/);
    assert.equal(artifact(dir).verdict, 'pass');
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.endsWith('.tmp')),
      [],
    );
  });

  it('does not try again a file that could not be written: one kept copy, named', async () => {
    const dir = project(true);
    writeFileSync(join(dir, 'exit.mts'), EXITING_REPORTER);
    const r = await runNode(['--import', import.meta.resolve('tsx'), 'exit.mts'], {
      cwd: dir,
      env: { BREAK: '1' },
    });
    assert.equal(r.code, 1, r.stderr);
    // Said before the process goes: the file could not be written, and where its copy is.
    assert.match(
      r.stderr,
      /the results could not be written: the run finished but out\.json could not be written \(.*\); the complete file is kept at /,
    );
    assert.doesNotMatch(r.stderr, /the results are written to/);
    // One copy, the one named: the file is not tried again.
    const copies = readdirSync(dir).filter((name) => name.endsWith('.tmp'));
    assert.equal(copies.length, 1, copies.join(', '));
    assert.ok(r.stderr.includes(copies[0]!), r.stderr);
  });
});

/** Resolves once `path` exists (bounded: 20 s). */
async function waitForFile(path: string): Promise<void> {
  for (let i = 0; i < 400 && !existsSync(path); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
