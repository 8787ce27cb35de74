/**
 * QA #11, the baseline of interrupted runs (after QA #10 F11, which made `--resume` compare with
 * the baseline the partial's comparison records):
 *
 * 1. The partial artifact a second Ctrl-C writes (the process quits at once) recorded no
 *    comparison, so no baseline: `--resume` then ran without one and the regression gate was
 *    dropped without a word, and `evals show` printed the command without `--baseline`. So did
 *    the partial of a run whose code calls `process.exit`. A real process (the CLI from src/):
 *    the case at c11 sends it two SIGINTs (they are handled one after the other, before the run
 *    can compare its results), or calls `process.exit(0)`.
 * 2. A run that took its baseline over from a partial (`--resume` without `--baseline`) and was
 *    interrupted again printed a resume command without `--baseline`, though its partial records
 *    it. In-process: a case aborts the CLI's signal.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { evalsFromSources } from './helpers/evals-from-sources.ts';
import { interruptedRun, regressionProject, runInProcess } from './helpers/in-process.ts';

const ROWS = 24;
/** Set to a case id: the function calls `globalThis[STOP]` (an in-process Ctrl-C) there. */
const AT = '__qa11BaselineResumeAt';
const STOP = '__qa11BaselineResumeStop';

/**
 * 24 rows through a function that answers `ok`, or `bad` while the file `bad` is there; at c11,
 * with the file `quit` there it sends its process two SIGINTs (Ctrl-C twice) and waits, with
 * `exit` there it exits. A block on regressions.
 */
function project(): string {
  return regressionProject(
    `import { existsSync } from 'node:fs';
const here = (name) => existsSync(new URL(name, import.meta.url));
export async function fn({ testCase }) {
  if (testCase.id === globalThis.${AT}) globalThis.${STOP}?.();
  if (testCase.id === 'c11' && here('./quit')) {
    process.kill(process.pid, 'SIGINT');
    process.kill(process.pid, 'SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 600_000));
  }
  if (testCase.id === 'c11' && here('./exit')) process.exit(0);
  return here('./bad') ? 'bad' : 'ok';
}
`,
    { rows: ROWS, concurrency: 1 },
  );
}

function read(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

/** The file the artifact's comparison says its baseline was read from. */
function basePath(artifact: ResultsArtifact): string | undefined {
  return (artifact.comparison?.base as { path?: string } | undefined)?.path;
}

/** A baseline of passing cases, base.json; from then on the function answers wrong. */
async function withBaseline(): Promise<string> {
  const dir = project();
  const base = await runInProcess(['run', '-o', 'base.json'], dir);
  assert.equal(base.code, 0, base.stderr);
  writeFileSync(join(dir, 'bad'), '');
  return dir;
}

/**
 * part.json, as a run compared with base.json that `how` ends at c11 left it, records its
 * baseline: `evals show` names it in the resume command, and `--resume` without `--baseline`
 * compares every case with it and blocks, as the uninterrupted run does.
 */
async function recordsBaseline(how: 'quit' | 'exit', line: RegExp): Promise<void> {
  const dir = await withBaseline();
  writeFileSync(join(dir, how), '');
  const ended = await evalsFromSources(['run', '--baseline', 'base.json', '-o', 'part.json'], dir);
  assert.equal(ended.signal, null, `killed (it hung): ${ended.stderr}`);
  assert.equal(ended.code, how === 'quit' ? 130 : 1, ended.stderr);
  assert.match(ended.stderr, line);
  const partial = read(dir, 'part.json');
  assert.equal(partial.interrupted, true);
  assert.equal(basePath(partial), 'base.json', 'the partial records its baseline');

  const shown = await runInProcess(['show', 'part.json', '--flaky'], dir);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(
    shown.stdout,
    /; evals run --baseline base\.json --resume part\.json runs what is left\n/,
  );

  rmSync(join(dir, how));
  const resumed = await runInProcess(['run', '--resume', 'part.json', '-o', 'done.json'], dir);
  assert.equal(resumed.code, 1, `${resumed.stdout}\n${resumed.stderr}`);
  const done = read(dir, 'done.json');
  assert.equal(done.interrupted, false);
  const regressions = done.runs[0]?.gate.conditions.find((c) => c.name === 'regressions');
  assert.equal(regressions?.passed, false, JSON.stringify(done.runs[0]?.gate));
  assert.equal(done.comparison?.runs[0]?.passRate.paired, ROWS);
}

describe('the partial written as the process quits records the baseline (QA #11 1)', () => {
  it('a second Ctrl-C: --resume compares and blocks, evals show names --baseline', () =>
    // The second signal lands before or after the engine has let go of the stopped run, as the
    // event loop orders them; part.json is written either way, and is what the rest checks.
    recordsBaseline(
      'quit',
      /quit at the second signal(; the results are|: the partial artifact is) written to part\.json\b/,
    ));

  it('process.exit in a case: the same', () =>
    recordsBaseline(
      'exit',
      /the partial artifact is written to part\.json \(interrupted: true\); to finish it: evals run --baseline base\.json --resume part\.json\n/,
    ));
});

describe('a resumed run interrupted again prints its resume command with --baseline (QA #11 2)', () => {
  it('names the baseline it took over from the partial, as its own partial records it', async () => {
    const dir = await withBaseline();
    const g = globalThis as Record<string, unknown>;
    try {
      g[AT] = 'c5';
      const first = await interruptedRun(
        STOP,
        ['run', '--baseline', 'base.json', '-o', 'part.json'],
        dir,
      );
      assert.match(first, /evals run --baseline base\.json --resume part\.json\n/);
      g[AT] = 'c15';
      // No --baseline: the resumption compares with the one part.json records.
      const again = await interruptedRun(
        STOP,
        ['run', '--resume', 'part.json', '-o', 'again.json'],
        dir,
      );
      assert.equal(basePath(read(dir, 'again.json')), 'base.json');
      assert.match(again, /evals run --baseline base\.json --resume again\.json\n/);
      assert.doesNotMatch(again, /evals run --resume/);
    } finally {
      delete g[AT];
    }
    const resumed = await runInProcess(['run', '--resume', 'again.json', '-o', 'done.json'], dir);
    assert.equal(resumed.code, 1, `${resumed.stdout}\n${resumed.stderr}`);
    assert.equal(read(dir, 'done.json').comparison?.runs[0]?.passRate.paired, ROWS);
  });
});
