/**
 * Runs are paired by suite and grid point, so a renamed grid value was compared with nothing:
 * renaming `model: large` to `large2` passed any change of that grid point under `regressions:
 * block`, the comparison only listing each run on its own side. A grid point of the baseline that
 * the suite's grid no longer has now fails the `regressions` condition, saying which is new
 * (renamed?) and how to accept it: `gate.removedGridValues`. A run that only did not select the
 * point (`--grid model=small`, as a matrix job runs against a whole baseline) is not failed. The
 * real CLI.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { headRun, linesMentioning } from './helpers/head-run.ts';

const ROWS = 12;

/** A suite of recorded outputs over a grid of `models`, scored by one levenshtein evaluator. */
function config(models: string, gate: string): string {
  return [
    'version: 1',
    'suites:',
    '  - id: s',
    '    testset: { path: rows.jsonl }',
    '    hash: [q]',
    `    grid: { model: [${models}] }`,
    '    evaluators:',
    '      - { id: close, use: levenshtein, with: { expected: "the right answer" }, threshold: { gte: 0 } }',
    `    gate: ${gate}`,
    '',
  ].join('\n');
}

const rows = (output: string): string =>
  `${Array.from({ length: ROWS }, (_, i) => JSON.stringify({ q: `q${i}`, output })).join('\n')}\n`;

/**
 * BASE over small and large, every output right. HEAD's outputs stay the same, so nothing
 * compared regresses: what fails a run here is the grid point gone, which was compared with
 * nothing (whatever large2 now scores, nothing would have seen it).
 */
async function project(): Promise<string> {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': config('small, large', '{ regressions: block }'),
    'rows.jsonl': rows('the right answer'),
  });
  const base = await runCli(['run', '-o', 'base.json'], { cwd: dir });
  assert.equal(base.code, 0, base.stdout + base.stderr);
  return dir;
}

/** The `regressions` condition of each run of head.json, by grid point. */
function conditions(dir: string): Record<string, { passed: boolean; actual: string } | undefined> {
  const artifact = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as ResultsArtifact;
  return Object.fromEntries(
    artifact.runs.map((run) => [
      String(run.params.model),
      run.gate.conditions.find((c) => c.name === 'regressions'),
    ]),
  );
}

const GONE =
  'grid point "model=large" of the baseline is not in the suite\'s grid any more ("model=large2" is new in this run: renamed?), so nothing was compared with it; if that is intended, list the value gone in the suite\'s gate.removedGridValues';

describe('regressions: block and a grid point of the baseline gone from the grid', () => {
  it('a renamed grid value fails every run of the suite, naming both and how to accept it', async () => {
    const dir = await project();
    const r = await headRun(dir, config('small, large2', '{ regressions: block }'));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const found = conditions(dir);
    // The new point, compared with nothing, fails too: it is the suite's grid that changed.
    for (const model of ['small', 'large2']) {
      assert.equal(found[model]?.passed, false, model);
      assert.equal(found[model]?.actual, GONE, model);
    }
    assert.match(
      JSON.stringify(found.small),
      /every grid point of the baseline in the suite's grid or in gate\.removedGridValues/,
    );
  });

  it('listed in gate.removedGridValues, the change is accepted', async () => {
    const dir = await project();
    const r = await headRun(
      dir,
      config('small, large2', '{ regressions: block, removedGridValues: { model: [large] } }'),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(conditions(dir).small, {
      name: 'regressions',
      expected:
        'no significant regression against the baseline (Holm-corrected over the comparison)',
      actual: 'none',
      passed: true,
    });
    // The new point has nothing to be compared with, and no condition of its own.
    assert.equal(conditions(dir).large2, undefined);
  });

  // A typo accepts nothing, and the point it meant still fails the gate: the warning says so.
  it('an entry naming nothing of the baseline is a warning, with did-you-mean', async () => {
    const dir = await project();
    const r = await headRun(
      dir,
      config(
        'small, large2',
        '{ regressions: block, removedGridValues: { model: [lrage, large], modle: [x] } }',
      ),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const warnings = linesMentioning(r.stderr, 'removedGridValues lists');
    assert.deepEqual(warnings, [
      'warning: s: gate.removedGridValues lists model "lrage", which no grid point of the baseline has, so it accepts nothing here: if it was removed before the baseline was made, the entry can go',
      'warning: s: gate.removedGridValues lists the key "modle", which no grid point of the baseline has, so it accepts nothing here: did you mean "model"?',
    ]);
    const typo = await headRun(
      dir,
      config('small, large2', '{ regressions: warn, removedGridValues: { model: [lrage] } }'),
    );
    assert.match(
      typo.stderr,
      /^warning: s: gate\.removedGridValues lists model "lrage", .*: did you mean "large", which the baseline has and this run does not\?$/m,
    );
  });

  it('a run that did not select the point (--grid) is not failed', async () => {
    const dir = await project();
    const r = await runCli(
      ['run', '--grid', 'model=small', '--baseline', 'base.json', '-o', 'head.json'],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(conditions(dir).small?.actual, 'none');
  });

  it('under regressions: warn it is a warning, and the run passes', async () => {
    const dir = await project();
    const r = await headRun(dir, config('small, large2', '{ regressions: warn }'));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /warning: s: grid point "model=large" of the baseline is not in/);
  });

  it("evals compare exits 1 for it too, under HEAD's recorded gate, and says why", async () => {
    const dir = await project();
    await headRun(dir, config('small, large2', '{ regressions: block }'), []);
    const r = await runCli(['compare', 'base.json', 'head.json', '--format', 'json'], {
      cwd: dir,
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.stderr, `HEAD s: ${GONE}\n`);
    const parsed = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.equal(parsed.blocked, true);
    assert.deepEqual(parsed.missingGridPoints, [
      { suite: 's', gridPoints: [{ model: 'large' }], text: GONE },
    ]);
    // Listed in HEAD's removedGridValues, which its artifact records, it is accepted.
    await headRun(
      dir,
      config('small, large2', '{ regressions: block, removedGridValues: { model: [large] } }'),
      [],
    );
    const accepted = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    // A HEAD run with --grid did not select it: compare exits as run --baseline did, 0.
    await headRun(dir, config('small, large', '{ regressions: block }'), ['--grid', 'model=small']);
    const filtered = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(filtered.code, 0, filtered.stdout + filtered.stderr);
  });
});
