/**
 * `evals run --resume` in-process: which refusal is said (the config that wrote the partial is
 * checked before the suites taken from it), that nothing promises to replace the partial before
 * the resumption is accepted, and how its counts are printed, with and without `--dry-run`.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const ROWS = 20;
const KEPT = 10;

/** A project whose one suite, `id`, echoes rows n = 1..ROWS through a function. */
function project(dir: string, id: string, trials = 1): void {
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      `  - id: ${id}`,
      '    testset: { path: rows.csv }',
      '    function: ./fn.mjs#echo',
      `    trials: ${trials}`,
      '    evaluators:',
      '      - { id: same, use: is-equals, with: { expected: "{{case.n}}" } }',
      '',
    ].join('\n'),
    'rows.csv': `n\n${Array.from({ length: ROWS }, (_, i) => i + 1).join('\n')}\n`,
    'fn.mjs': 'export const echo = ({ testCase }) => String(testCase.n);\n',
  });
}

/**
 * What an interrupted run of the project in `dir` leaves: the first KEPT cases of a complete
 * run, marked interrupted (as JSON text).
 */
async function interrupted(dir: string): Promise<string> {
  const full = await runInProcess(['run', '-o', 'full.json'], dir);
  assert.equal(full.code, 0, full.stderr);
  const artifact = JSON.parse(readFileSync(join(dir, 'full.json'), 'utf8')) as ResultsArtifact;
  artifact.runs[0]!.cases = artifact.runs[0]!.cases.slice(0, KEPT);
  artifact.interrupted = true;
  return JSON.stringify(artifact);
}

describe('evals run --resume: refusals and counts', () => {
  let root = '';
  let p3 = '';
  let partial = '';

  before(async () => {
    root = scratch();
    p3 = join(root, 'p3');
    project(p3, 'slow');
    project(join(root, 'p2'), 'math');
    partial = await interrupted(p3);
  });

  /** part.json afresh (an accepted resumption replaces it). */
  const fresh = () => writeFileSync(join(p3, 'part.json'), partial);

  it('refuses another config as such, not as a --suite the user never passed', async () => {
    fresh();
    for (const extra of [[], ['--dry-run']]) {
      const r = await runInProcess(
        ['run', '--resume', 'part.json', '../p2/evals.yaml', ...extra],
        p3,
      );
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /part\.json was written by another config \(configHash /);
      assert.doesNotMatch(r.stderr, /--suite/);
      assert.doesNotMatch(r.stderr, /will replace/);
    }
  });

  it('says the partial will be replaced only once the resumption is accepted', async () => {
    fresh();
    const refusals: [string[], RegExp][] = [
      [['--trials', '2'], /ran 1 trial\(s\) per case; --trials 2 would mix results/],
      [['--tag', 'x'], /--tag x: no row of the selected suites' testsets has this tag/],
      [['--shard', '1/2'], /--shard 1\/2 does not match part\.json/],
    ];
    for (const [extra, why] of refusals) {
      const r = await runInProcess(['run', '--resume', 'part.json', ...extra], p3);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, why);
      assert.doesNotMatch(r.stderr, /will replace/);
    }
    const rows = readFileSync(join(p3, 'rows.csv'), 'utf8');
    writeFileSync(join(p3, 'rows.csv'), rows.replace('\n1\n', '\n100\n'));
    try {
      const changed = await runInProcess(['run', '--resume', 'part.json'], p3);
      assert.equal(changed.code, 2, changed.stderr);
      assert.match(changed.stderr, /the testset changed since part\.json was written/);
      assert.doesNotMatch(changed.stderr, /will replace/);
    } finally {
      writeFileSync(join(p3, 'rows.csv'), rows);
    }

    const accepted = await runInProcess(['run', '--resume', 'part.json'], p3);
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(
      accepted.stderr,
      /^resuming part\.json: 10 case results kept, 10 cases to run\nthe combined results will replace part\.json \(give -o FILE to write them elsewhere\)\n/m,
    );
    const replaced = JSON.parse(readFileSync(join(p3, 'part.json'), 'utf8')) as ResultsArtifact;
    assert.equal(replaced.interrupted, false);
  });

  it('prints a true plan of a resumption, saying the kept count once', async () => {
    fresh();
    const r = await runInProcess(['run', '--resume', 'part.json', '--dry-run'], p3);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Plan of evals\.yaml \(resuming part\.json: 10 case results kept\)$/m);
    assert.match(
      r.stdout,
      /^ {2}runs {8}1 grid point × 20 cases × 1 trial = 20 case executions, 10 taken over from the interrupted run, 10 to run$/m,
    );
    assert.match(r.stdout, /^Total: 1 suite, 1 run, 10 case executions to run/m);
    assert.equal(r.stdout.match(/kept/g)?.length, 1, r.stdout);
    assert.equal(r.stderr, '');
  });

  it('counts case executions, trials and all, in the plan of a resumption', async () => {
    const dir = join(root, 'trials');
    project(dir, 'slow', 2);
    writeFileSync(join(dir, 'part.json'), await interrupted(dir));
    const r = await runInProcess(['run', '--resume', 'part.json', '--dry-run'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /1 grid point × 20 cases × 2 trials = 40 case executions, 20 taken over from the interrupted run, 20 to run$/m,
    );
    assert.match(r.stdout, /^Total: 1 suite, 1 run, 20 case executions to run/m);
  });

  it('says kept and run counts without "(s)" when it runs', async () => {
    fresh();
    const r = await runInProcess(['run', '--resume', 'part.json', '-o', 'resumed.json'], p3);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^resuming part\.json: 10 case results kept, 10 cases to run\n/);
    assert.doesNotMatch(r.stderr, /will replace/, '-o names another file');
    assert.match(r.stdout, /^Resumed part\.json: 10 case results kept, 10 run now\.$/m);
  });
});
