/**
 * Ctrl-C at the end of a run, as a real process gets it: after the last case (the results are
 * whole and being written), and mid-run while `-o` cannot be written. The exit code, the message
 * and the artifact must tell one story. The CLI runs from src/ in a child process.
 */
import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { evalsFromSources as evals } from './helpers/evals-from-sources.ts';
import { suiteProject } from './helpers/suite-project.ts';

/** `rows` cases run by a function that notes each call and takes `delayMs`. */
function project(rows: number, passing: boolean, delayMs = 0): string {
  return suiteProject(
    [
      `testset: { cases: [${Array.from({ length: rows }, (_, i) => `{ q: a${i} }`).join(', ')}] }`,
      'function: ./fn.mjs#fn',
      'concurrency: 1',
      'evaluators:',
      `  - { use: contains, with: { values: [${passing ? 'a' : 'zzz'}] } }`,
    ],
    {
      'fn.mjs': `import { writeFileSync } from 'node:fs';
export async function fn({ testCase }) {
  writeFileSync(new URL('./called', import.meta.url), '');
  await new Promise((resolve) => setTimeout(resolve, ${delayMs}));
  return testCase.q;
}
`,
    },
  );
}

/**
 * Holds the run between its last case and its artifact: the run reads the commit from
 * .git/HEAD once its cases are done, and a FIFO there that nobody writes blocks that read.
 */
function holdAfterLastCase(dir: string): () => void {
  mkdirSync(join(dir, '.git'));
  execFileSync('mkfifo', [join(dir, '.git', 'HEAD')]);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  };
}

function artifactAt(path: string): ResultsArtifact {
  return JSON.parse(readFileSync(path, 'utf8')) as ResultsArtifact;
}

/** Resolves once `path` exists (bounded: 20 s). */
async function waitForFile(path: string): Promise<void> {
  for (let i = 0; i < 400 && !existsSync(path); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Signals the run once it waits after its last case; `twice`: again once it said so. */
function signalAfterLastCase(dir: string, twice: boolean) {
  const release = holdAfterLastCase(dir);
  return (child: ChildProcess): void => {
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!stderr.includes('stopping:')) return;
      if (twice && !stderr.includes('quit at the second signal')) child.kill('SIGINT');
      // Node waits at exit for its file reads, the FIFO's included: end that read.
      if (!twice || stderr.includes('the results')) release();
    });
    // The only case is instant: well past it, the run waits on the FIFO.
    void waitForFile(join(dir, 'called')).then(() => setTimeout(() => child.kill('SIGINT'), 500));
  };
}

describe('Ctrl-C after the last case: the results are whole, and the exit code is theirs', () => {
  it('one signal: the message does not call the results partial; exit 0 for a pass', async () => {
    const dir = project(1, true);
    const r = await evals(['run', '-o', 'out.json'], dir, signalAfterLastCase(dir, false));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /stopping: every case has finished; writing the results/);
    assert.doesNotMatch(r.stderr, /partial/);
    const written = artifactAt(join(dir, 'out.json'));
    assert.equal(written.interrupted, false);
    assert.equal(written.verdict, 'pass');
  });

  for (const passing of [true, false]) {
    const code = passing ? 0 : 1;
    it(`two signals: the results are written, and the exit code is the verdict's (${code})`, async () => {
      const dir = project(1, passing);
      const r = await evals(['run', '-o', 'out.json'], dir, signalAfterLastCase(dir, true));
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, /quit at the second signal; the results are written to out\.json/);
      assert.doesNotMatch(r.stderr, /partial/);
      const written = artifactAt(join(dir, 'out.json'));
      assert.equal(written.interrupted, false);
      assert.equal(written.verdict, passing ? 'pass' : 'fail');
      assert.equal(written.runs[0]?.cases.length, 1);
    });
  }
});

describe('Ctrl-C mid-run while -o cannot be written', () => {
  it('exits 130, keeps the partial results and prints the command that finishes them', async () => {
    const dir = project(30, true, 100);
    const r = await evals(['run', '-o', 'out.json'], dir, (child) => {
      void waitForFile(join(dir, 'called')).then(() => {
        // A folder takes the file's place: the partial artifact cannot be renamed onto it.
        mkdirSync(join(dir, 'out.json'));
        setTimeout(() => child.kill('SIGINT'), 300);
      });
    });
    assert.equal(r.code, 130, r.stderr);
    assert.doesNotMatch(r.stderr, /the run finished|complete file/);
    const kept = /the partial results are kept at (\S+)\n/.exec(r.stderr)?.[1];
    assert.ok(kept !== undefined, r.stderr);
    const partial = artifactAt(kept);
    assert.equal(partial.interrupted, true);
    const finished = partial.runs[0]?.cases.length ?? 0;
    assert.ok(finished > 0 && finished < 30, `${finished} cases`);
    const command = /to finish it: (.+)\n/.exec(r.stderr)?.[1];
    assert.equal(command, `evals run --resume ${kept} -o out.json`);

    // Once the folder is gone, that command finishes the run where -o said.
    rmSync(join(dir, 'out.json'), { recursive: true });
    const resumed = await evals(command.split(' ').slice(1), dir);
    assert.equal(resumed.code, 0, resumed.stderr);
    const whole = artifactAt(join(dir, 'out.json'));
    assert.equal(whole.interrupted, false);
    assert.equal(whole.runs[0]?.cases.length, 30);
    rmSync(kept, { force: true });
  });
});
