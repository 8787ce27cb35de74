import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { renderJUnit } from '../src/report/junit.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

import {
  FIXTURE,
  FIXTURE_CASES,
  caseCount,
  readArtifact,
  withoutTimings,
} from './helpers/shard-fixture.ts';

/** The calls a run logged (CALL_LOG), as `suite:row:params` keys. */
function calls(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean);
}

/** The same keys for the cases an artifact holds, as the fixture's function logs them. */
function finishedKeys(artifact: ResultsArtifact): string[] {
  return artifact.runs.flatMap((run) =>
    run.cases.map((c) => {
      const data = c.data as { n?: string; word?: string };
      return run.suite === 'math'
        ? `math:${data.n}:${String((run.params as { factor: number }).factor)}`
        : `words:${data.word}`;
    }),
  );
}

/**
 * Stops a run after `after` function calls (the fixture's function sends its own process
 * SIGINT): some cases have finished by then and some have not, whatever the machine's speed,
 * because at most 16 calls are in flight (two suites of concurrency 8).
 */
async function interruptedRun(
  dir: string,
  args: string[],
  after: number,
): Promise<ResultsArtifact> {
  const r = await runCli(['run', ...args], {
    cwd: dir,
    env: { STOP_AFTER: String(after), PAUSE_MS: '5', CALL_LOG: 'first.log' },
  });
  assert.equal(r.code, 130, r.stderr);
  const output = args[args.indexOf('-o') + 1]!;
  const partial = readArtifact(join(dir, output));
  assert.equal(partial.interrupted, true);
  return partial;
}

describe('evals run --resume', () => {
  let dir = '';
  let full: ResultsArtifact;

  before(async () => {
    dir = scratch();
    writeFiles(dir, FIXTURE);
    const r = await runCli(['run', '-o', 'full.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    full = readArtifact(join(dir, 'full.json'));
  });

  it("finishes an interrupted run into the uninterrupted run's artifact, running only what was left", async () => {
    const partial = await interruptedRun(dir, ['-o', 'partial.json'], 25);
    const done = caseCount(partial);
    assert.ok(done > 0 && done < FIXTURE_CASES, `some but not all cases finished (${done})`);

    const r = await runCli(['run', '--resume', 'partial.json', '-o', 'resumed.json'], {
      cwd: dir,
      env: { CALL_LOG: 'second.log' },
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `resuming partial\\.json: ${done} case results? kept, ${FIXTURE_CASES - done} cases? to run`,
      ),
    );
    // One summary table, of the kept and the new cases together.
    assert.match(
      r.stdout,
      new RegExp(
        `Resumed partial\\.json: ${done} case results? kept, ${FIXTURE_CASES - done} run now`,
      ),
    );
    assert.equal(r.stdout.match(/^(PASS|FAIL) {2}/gm)?.length, 1);
    const resumed = readArtifact(join(dir, 'resumed.json'));
    assert.equal(resumed.interrupted, false);
    assert.deepEqual(withoutTimings(resumed), withoutTimings(full));

    // Nothing the partial run finished ran again, and everything else ran exactly once per trial.
    const again = new Set(calls(join(dir, 'second.log')));
    for (const key of finishedKeys(partial)) assert.ok(!again.has(key), `${key} ran again`);
    const expected = finishedKeys(full).filter((key) => !finishedKeys(partial).includes(key));
    assert.deepEqual([...again].sort(), expected.sort());
  });

  it('writes the JUnit report of the whole resumed run, and compares the whole run with --baseline', async () => {
    await interruptedRun(dir, ['-o', 'partial2.json'], 20);
    const r = await runCli(
      [
        'run',
        '--resume',
        'partial2.json',
        '-o',
        'resumed2.json',
        '--junit',
        'resumed2.xml',
        '--baseline',
        'full.json',
      ],
      { cwd: dir },
    );
    assert.equal(r.code, 1, r.stderr);
    const resumed = readArtifact(join(dir, 'resumed2.json'));
    assert.deepEqual(
      withoutTimings(resumed),
      withoutTimings({ ...full, comparison: resumed.comparison }),
    );
    assert.equal(readFileSync(join(dir, 'resumed2.xml'), 'utf8'), renderJUnit(resumed));
    // Every case of the resumed run is paired with the baseline's: none is missing from it.
    const comparison = resumed.comparison as {
      runs: { cases: { added: unknown[]; removed: unknown[] } }[];
    };
    assert.equal(comparison.runs.length, full.runs.length);
    for (const run of comparison.runs) {
      assert.deepEqual([run.cases.added.length, run.cases.removed.length], [0, 0]);
    }
  });

  it('resumes a shard as that shard, which then merges with the others', async () => {
    const partial = await interruptedRun(dir, ['--shard', '1/2', '-o', 'cut1.json'], 12);
    assert.deepEqual(partial.shard, { index: 1, count: 2 });
    const resumed = await runCli(['run', '--resume', 'cut1.json', '-o', 'shard1.json'], {
      cwd: dir,
    });
    assert.ok(resumed.code === 0 || resumed.code === 1, resumed.stderr);
    const shard1 = readArtifact(join(dir, 'shard1.json'));
    assert.deepEqual(shard1.shard, { index: 1, count: 2 });
    assert.equal(shard1.interrupted, false);

    const other = await runCli(['run', '--shard', '2/2', '-o', 'shard2.json'], { cwd: dir });
    assert.ok(other.code === 0 || other.code === 1, other.stderr);
    const merged = await runCli(['merge', 'shard1.json', 'shard2.json', '-o', 'merged.json'], {
      cwd: dir,
    });
    assert.equal(merged.code, 1, merged.stderr);
    assert.deepEqual(withoutTimings(readArtifact(join(dir, 'merged.json'))), withoutTimings(full));
  });

  it('refuses a complete artifact: nothing to resume', async () => {
    const r = await runCli(['run', '--resume', 'full.json', '-o', 'x.json'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /nothing to resume: full\.json is a complete run/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  });

  it('refuses another shard than the partial one', async () => {
    const r = await runCli(['run', '--resume', 'cut1.json', '--shard', '2/2', '-o', 'x.json'], {
      cwd: dir,
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--shard 2\/2 does not match cut1\.json, which holds shard 1\/2/);
  });

  it('refuses a changed config or a changed testset', async () => {
    const other = scratch();
    writeFiles(other, FIXTURE);
    copyFileSync(join(dir, 'partial.json'), join(other, 'partial.json'));

    // A change of meaning (a threshold); a comment alone would not count (config-hash.test.ts).
    writeFileSync(
      join(other, 'evals.yaml'),
      FIXTURE['evals.yaml']!.replace('gte: 0.4', 'gte: 0.3'),
    );
    const config = await runCli(['run', '--resume', 'partial.json', '-o', 'x.json'], {
      cwd: other,
    });
    assert.equal(config.code, 2);
    assert.match(config.stderr, /partial\.json was written by another config/);

    writeFileSync(join(other, 'evals.yaml'), FIXTURE['evals.yaml']!);
    writeFileSync(join(other, 'rows.csv'), FIXTURE['rows.csv']!.replace('\n1,2\n', '\n1,3\n'));
    const rows = await runCli(['run', '--resume', 'partial.json', '-o', 'x.json'], {
      cwd: other,
    });
    assert.equal(rows.code, 2);
    assert.match(rows.stderr, /suite math \{"factor":2\}: the testset changed since partial\.json/);
    assert.doesNotMatch(rows.stderr, /\n\s+at /, 'no stack trace');
  });
});
