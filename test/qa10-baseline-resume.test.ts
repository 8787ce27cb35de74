/**
 * QA #10 F11: the baseline a run was started with is part of the run. An interrupted run with
 * `--baseline base.json` and `gate: { regressions: block }` resumed with the command `evals show`
 * suggests (or any `--resume` without `--baseline`) used to drop the comparison and the gate:
 * the resumed run passed where the uninterrupted one fails. Now the resumption compares with the
 * baseline the partial's comparison records (refusing when that file is gone or holds another
 * run), `evals show` names it in the command, and a `--baseline` given on resume takes
 * precedence, compared over every case. Real interrupts: a case aborts the CLI's signal.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { interruptedRun, regressionProject, runInProcess } from './helpers/in-process.ts';

/** What the function module reads: `bad` answers wrong, `stop` interrupts at row c11. */
const MODE = '__qa10BaselineResumeMode';
const STOP = '__qa10BaselineResumeStop';
const ROWS = 24;

function setMode(mode: 'ok' | 'bad'): void {
  (globalThis as Record<string, unknown>)[MODE] = mode;
}

/** 24 rows through a function that answers `ok`, or `bad` in bad mode; a block on regressions. */
function project(): string {
  return regressionProject(
    `export async function fn({ testCase }) {
  if (testCase.id === 'c11') globalThis.${STOP}?.();
  return globalThis.${MODE} === 'bad' ? 'bad' : 'ok';
}
`,
    { rows: ROWS, concurrency: 1 },
  );
}

/** `evals ...argv` in `dir`, interrupted as a Ctrl-C would (exit 130); its stderr. */
function interrupted(argv: string[], dir: string): Promise<string> {
  return interruptedRun(STOP, argv, dir);
}

function read(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

describe('evals run --resume of a run compared with a baseline (QA #10 F11)', () => {
  let dir = '';
  let partial = '';
  let interruptLine = '';

  before(async () => {
    dir = project();
    setMode('ok');
    for (const base of ['base.json', 'other.json']) {
      const r = await runInProcess(['run', '-o', base], dir);
      assert.equal(r.code, 0, r.stderr);
    }
    setMode('bad');
    interruptLine = await interrupted(['run', '--baseline', 'base.json', '-o', 'part.json'], dir);
    partial = readFileSync(join(dir, 'part.json'), 'utf8');
  });

  /** part.json as the interrupt left it (an accepted resumption replaces it). */
  const fresh = () => writeFileSync(join(dir, 'part.json'), partial);

  it('fails, as the uninterrupted run does, when resumed without --baseline', async () => {
    fresh();
    const whole = await runInProcess(['run', '--baseline', 'base.json', '-o', 'whole.json'], dir);
    assert.equal(whole.code, 1, 'the uninterrupted run is blocked');
    const resumed = await runInProcess(['run', '--resume', 'part.json', '-o', 'done.json'], dir);
    assert.equal(resumed.code, 1, `${resumed.stdout}\n${resumed.stderr}`);
    const done = read(dir, 'done.json');
    assert.equal(done.interrupted, false);
    assert.equal(done.verdict, 'fail');
    const regressions = done.runs[0]?.gate.conditions.find((c) => c.name === 'regressions');
    assert.equal(regressions?.passed, false, JSON.stringify(done.runs[0]?.gate));
    // Compared over every case, the kept ones too, as the uninterrupted run was.
    assert.equal(done.comparison?.runs[0]?.passRate.paired, ROWS);
    assert.deepEqual(done.comparison?.runs, read(dir, 'whole.json').comparison?.runs);
    assert.equal((done.comparison?.base as { path?: string }).path, 'base.json');
  });

  it('evals show prints the --resume command with the baseline, as the interrupted run did', async () => {
    fresh();
    assert.match(interruptLine, /evals run --baseline base\.json --resume part\.json\n/);
    const shown = await runInProcess(['show', 'part.json', '--flaky'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(
      shown.stdout,
      /; evals run --baseline base\.json --resume part\.json runs what is left\n/,
    );
  });

  it('refuses to resume without --baseline when the baseline file is gone, and says to pass it', async () => {
    fresh();
    renameSync(join(dir, 'base.json'), join(dir, 'moved.json'));
    try {
      const r = await runInProcess(['run', '--resume', 'part.json', '-o', 'gone.json'], dir);
      assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stderr, /part\.json's baseline base\.json cannot be read now/);
      assert.match(
        r.stderr,
        /pass --baseline FILE again \(that baseline, wherever it is now, or another/,
      );
      assert.equal(existsSync(join(dir, 'gone.json')), false);
      // Given again (here from where it was moved), the resumption compares and blocks.
      const again = await runInProcess(
        ['run', '--resume', 'part.json', '--baseline', 'moved.json', '-o', 'again.json'],
        dir,
      );
      assert.equal(again.code, 1, again.stderr);
    } finally {
      renameSync(join(dir, 'moved.json'), join(dir, 'base.json'));
    }
  });

  it('refuses to resume without --baseline when the baseline file now holds another run', async () => {
    fresh();
    const kept = readFileSync(join(dir, 'base.json'), 'utf8');
    writeFileSync(join(dir, 'base.json'), readFileSync(join(dir, 'other.json')));
    try {
      const r = await runInProcess(['run', '--resume', 'part.json', '-o', 'changed.json'], dir);
      assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stderr, /base\.json is no longer part\.json's baseline: it holds a run of /);
      assert.match(r.stderr, /pass --baseline FILE/);
      assert.equal(existsSync(join(dir, 'changed.json')), false);
    } finally {
      writeFileSync(join(dir, 'base.json'), kept);
    }
  });

  it('--baseline given on resume takes precedence: every case is compared with it, and it says so', async () => {
    fresh();
    const r = await runInProcess(
      ['run', '--resume', 'part.json', '--baseline', 'other.json', '-o', 'other-done.json'],
      dir,
    );
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /note: comparing with other\.json, not with part\.json's baseline base\.json \(a run of evals\.yaml started /,
    );
    const done = read(dir, 'other-done.json');
    assert.equal((done.comparison?.base as { path?: string }).path, 'other.json');
    assert.equal(done.comparison?.base.startedAt, read(dir, 'other.json').startedAt);
    assert.equal(done.comparison?.runs[0]?.passRate.paired, ROWS);
  });
});
