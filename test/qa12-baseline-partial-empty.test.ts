/**
 * A run compared with a baseline and cut short before any case finished: its partial shares no
 * case with the baseline yet, so it was written uncompared (with a warning that the two share no
 * case), recorded no baseline, and `evals run --resume` then ran ungated: a suite with
 * `regressions: block` passed where the uninterrupted run failed. `evals show` of it said only
 * "no case in the runs selected", with no word of the interruption or how to finish the run.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { interruptedRun, regressionProject, runInProcess } from './helpers/in-process.ts';

const ROWS = 24;
/** Set to a case id: the function calls `globalThis[STOP]` (an in-process Ctrl-C) there. */
const AT = '__qa12PartialEmptyAt';
const STOP = '__qa12PartialEmptyStop';

/** 24 rows answered `ok`, or `bad` once the file `bad` is there; one case at a time. */
function project(suite = 's'): string {
  const dir = regressionProject(
    `import { existsSync } from 'node:fs';
export async function fn({ testCase }) {
  if (testCase.id === globalThis.${AT}) globalThis.${STOP}?.();
  return existsSync(new URL('./bad', import.meta.url)) ? 'bad' : 'ok';
}
`,
    { rows: ROWS, concurrency: 1 },
  );
  const config = join(dir, 'evals.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').replace('- id: s\n', `- id: ${suite}\n`));
  return dir;
}

function read(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

/** base.json of passing cases; the function answers wrong from then on. */
async function withBaseline(dir: string): Promise<void> {
  const base = await runInProcess(['run', '-o', 'base.json'], dir);
  assert.equal(base.code, 0, base.stderr);
  writeFileSync(join(dir, 'bad'), '');
}

/** The run stopped at its first case (none finished), compared with base.json; its stderr. */
async function stoppedAtFirst(dir: string): Promise<string> {
  const g = globalThis as Record<string, unknown>;
  g[AT] = 'c0';
  try {
    return await interruptedRun(STOP, ['run', '--baseline', 'base.json', '-o', 'part.json'], dir);
  } finally {
    delete g[AT];
  }
}

describe('a run interrupted before any case finished keeps its baseline', () => {
  it('records it, and --resume without --baseline blocks as the uninterrupted run does', async () => {
    const dir = project();
    await withBaseline(dir);
    const whole = await runInProcess(['run', '--baseline', 'base.json', '-o', 'whole.json'], dir);
    assert.equal(whole.code, 1, 'the uninterrupted run blocks on the regression');

    const stderr = await stoppedAtFirst(dir);
    assert.doesNotMatch(stderr, /no comparison/);
    assert.match(stderr, /to finish it: evals run --baseline base\.json --resume part\.json\n/);
    const partial = read(dir, 'part.json');
    assert.equal(partial.interrupted, true);
    assert.equal(partial.runs[0]?.cases.length, 0);
    const base = partial.comparison?.base as { path?: string } | undefined;
    assert.equal(base?.path, 'base.json', 'the partial records its baseline');
    assert.equal(partial.comparison?.runs[0]?.passRate.paired, 0);

    const resumed = await runInProcess(['run', '--resume', 'part.json', '-o', 'done.json'], dir);
    assert.equal(resumed.code, 1, `${resumed.stdout}\n${resumed.stderr}`);
    const done = read(dir, 'done.json');
    const regressions = done.runs[0]?.gate.conditions.find((c) => c.name === 'regressions');
    assert.equal(regressions?.passed, false, JSON.stringify(done.runs[0]?.gate));
    assert.equal(done.comparison?.runs[0]?.passRate.paired, ROWS);
  });

  it('evals show says it was interrupted and how to finish it', async () => {
    const dir = project();
    await withBaseline(dir);
    await stoppedAtFirst(dir);
    const shown = await runInProcess(['show', 'part.json'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^part\.json: 1 run, 0 cases\n\nno case in the runs selected, but/);
    assert.match(shown.stdout, /interrupted: 24 of its 24 planned cases never ran\n/);
    assert.match(
      shown.stdout,
      /; evals run --baseline base\.json --resume part\.json runs what is left\n/,
    );
  });

  it('a baseline of another suite is still no comparison, said as before', async () => {
    const other = project('other');
    await withBaseline(other);
    // Removed on purpose: else the baseline's suite gone from the config, under its
    // regressions: block, explains the lack of a common case (regressions-removed-suite.test.ts).
    const dir = project();
    const config = join(dir, 'evals.yaml');
    writeFileSync(config, `removedSuites: [other]\n${readFileSync(config, 'utf8')}`);
    writeFileSync(join(dir, 'base.json'), readFileSync(join(other, 'base.json')));
    const stderr = await stoppedAtFirst(dir);
    assert.match(
      stderr,
      /warning: no comparison with base\.json: no common cases .*no suite and grid point of this run \(s\) is in base\.json \(other\)/,
    );
    assert.equal(read(dir, 'part.json').comparison, undefined);
  });

  it('a baseline whose suite the config no longer has is compared, and the partial fails for it', async () => {
    const other = project('other');
    await withBaseline(other);
    const dir = project();
    writeFileSync(join(dir, 'base.json'), readFileSync(join(other, 'base.json')));
    const stderr = await stoppedAtFirst(dir);
    assert.doesNotMatch(stderr, /no comparison/);
    const partial = read(dir, 'part.json');
    // Recorded, so that --resume compares again and fails the same way.
    assert.equal((partial.comparison?.base as { path?: string } | undefined)?.path, 'base.json');
    assert.deepEqual(
      partial.missingSuites?.map((gone) => gone.suite),
      ['other'],
    );
  });
});
