/**
 * `evals run --dry-run`: the plan printed, nothing run (no module loaded, no case called, no
 * artifact written), for the quickstart and for a sharded resumption.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, runCli, scratch, writeFiles } from './helpers/cli.ts';
import { FIXTURE } from './helpers/shard-fixture.ts';

describe('evals run --dry-run', () => {
  it('prints the plan of the quickstart and runs nothing', async () => {
    const dir = scratch();
    const r = await runCli(
      [
        'run',
        join(repoRoot, 'examples', 'quickstart', 'evals.yaml'),
        '--dry-run',
        '-o',
        'out.json',
      ],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Plan of .*examples\/quickstart\/evals\.yaml\n/);
    assert.match(r.stdout, /^capitals: function \.\/app\/answer\.ts#answer$/m);
    assert.match(r.stdout, /4 grid points × 10 cases × 1 trial = 40 case executions/);
    assert.match(r.stdout, /^Total: 1 suite, 4 runs, 40 case executions to run/m);
    assert.match(r.stdout, /Nothing was run \(--dry-run\)\.\n$/);
    assert.equal(r.stderr, '');
    assert.equal(existsSync(join(dir, 'out.json')), false, 'no artifact');
  });

  it('loads no module: a function that would throw on import is never imported', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml':
        'version: 1\nsuites:\n  - id: s\n    testset: { path: rows.csv }\n    function: ./boom.mjs#answer\n',
      'rows.csv': 'q\na\nb\n',
      'boom.mjs':
        "import { writeFileSync } from 'node:fs';\nwriteFileSync('imported', 'yes');\nexport const answer = () => 'x';\n",
    });
    const r = await runCli(['run', '--dry-run'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1 grid point × 2 cases × 1 trial = 2 case executions/);
    assert.equal(existsSync(join(dir, 'imported')), false);
  });

  it('stops at what a run would stop at: a bad filter exits 2', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': 'version: 1\nsuites:\n  - id: s\n    testset: { path: rows.csv }\n',
      'rows.csv': 'q,output\na,a\n',
    });
    const r = await runCli(['run', '--dry-run', '--suite', 'nope'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--suite nope: no such suite/);
  });

  it('prints the plan of a sharded, resumed run: what is left of its shard', async () => {
    const dir = scratch();
    writeFiles(dir, FIXTURE);
    const cut = await runCli(['run', '--shard', '1/2', '-o', 'cut.json'], {
      cwd: dir,
      env: { STOP_AFTER: '25', PAUSE_MS: '5', CALL_LOG: 'calls.log' },
    });
    assert.equal(cut.code, 130, cut.stderr);
    const partial = JSON.parse(readFileSync(join(dir, 'cut.json'), 'utf8')) as {
      runs: { cases: unknown[] }[];
    };
    const kept = partial.runs.reduce((sum, run) => sum + run.cases.length, 0);
    const r = await runCli(['run', '--resume', 'cut.json', '--dry-run'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(
        `^Plan of evals\\.yaml \\(shard 1/2; resuming cut\\.json: ${kept} case results? kept\\)`,
      ),
    );
    // Each suite's line adds up: all its executions, those taken over and those left.
    const sums = [
      ...r.stdout.matchAll(
        /× (\d+) cases? × (\d+) trials? = (\d+) case executions?, (\d+) taken over from the interrupted run, (\d+) to run$/gm,
      ),
    ];
    assert.ok(sums.length > 0, r.stdout);
    for (const [, , , all, taken, left] of sums) {
      assert.equal(Number(all), Number(taken) + Number(left), r.stdout);
    }
    // The kept count is said once, in the plan.
    assert.doesNotMatch(r.stderr, /kept/);
    // Nothing ran: the partial artifact is as it was, and no output was written.
    assert.equal(existsSync(join(dir, 'evals-results.json')), false);
  });
});
