import assert from 'node:assert/strict';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import { runCli, scratch, writeFiles, type CliResult } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

import {
  FIXTURE,
  FIXTURE_CASES,
  caseCount,
  readArtifact,
  withoutTimings,
} from './helpers/shard-fixture.ts';

function noStack(r: CliResult): void {
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
}

describe('evals merge', () => {
  let dir = '';
  let full: ResultsArtifact;
  let fullCode: number | null = null;

  before(async () => {
    dir = scratch();
    writeFiles(dir, FIXTURE);
    const r = await runCli(['run', '-o', 'full.json'], { cwd: dir });
    fullCode = r.code;
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    full = readArtifact(join(dir, 'full.json'));
    for (let i = 1; i <= 3; i++) {
      const s = await runCli(['run', '--shard', `${i}/3`, '-o', `s${i}.json`], { cwd: dir });
      assert.ok(s.code === 0 || s.code === 1, s.stderr);
    }
  });

  it('writes shard artifacts that record their shard and hold disjoint parts of the cases', () => {
    const ids = new Set<string>();
    let total = 0;
    for (let i = 1; i <= 3; i++) {
      const shard = readArtifact(join(dir, `s${i}.json`));
      assert.deepEqual(shard.shard, { index: i, count: 3 });
      assert.equal(shard.runs.length, full.runs.length, 'every shard runs every grid point');
      for (const run of shard.runs) {
        assert.equal(run.summary.cases, run.cases.length, 'a shard summarises its own cases');
        for (const c of run.cases) ids.add(`${run.suite}/${JSON.stringify(run.params)}/${c.id}`);
        total += run.cases.length;
      }
    }
    assert.equal(total, FIXTURE_CASES);
    assert.equal(ids.size, FIXTURE_CASES, 'no case runs in two shards');
  });

  it("equals the unsharded run's artifact, up to timings, whatever the input order", async () => {
    assert.equal(full.verdict, 'fail', 'the fixture has a failing gate');
    assert.equal(caseCount(full), FIXTURE_CASES);
    const r = await runCli(['merge', 's3.json', 's1.json', 's2.json', '-o', 'merged.json'], {
      cwd: dir,
    });
    assert.equal(r.code, fullCode, r.stderr);
    const merged = readArtifact(join(dir, 'merged.json'));
    assert.equal(merged.shard, undefined);
    assert.equal(merged.interrupted, false);
    assert.deepEqual(withoutTimings(merged), withoutTimings(full));
    // The one-line summary on stderr, the run's summary table on stdout.
    assert.match(r.stderr, /^merged 3 of 3 shards: 3 runs, 65 case results, verdict fail/m);
    assert.match(r.stdout, /math {2}factor=2 {2}PASS/);
    assert.match(r.stdout, /math {2}factor=3 {2}FAIL/);
  });

  it('merges shards another tool reformatted (read whole) as it merges its own (read a case at a time)', async () => {
    for (let i = 1; i <= 3; i++) {
      const text = JSON.stringify(readArtifact(join(dir, `s${i}.json`)), null, i === 2 ? '\t' : 2);
      writeFileSync(join(dir, `pretty${i}.json`), text);
    }
    const r = await runCli(
      ['merge', 'pretty1.json', 'pretty2.json', 'pretty3.json', '-o', 'pretty-merged.json'],
      { cwd: dir },
    );
    assert.equal(r.code, fullCode, r.stderr);
    assert.deepEqual(
      withoutTimings(readArtifact(join(dir, 'pretty-merged.json'))),
      withoutTimings(full),
    );
  });

  it('refuses an input holding a case the schema rejects, naming the file and the case, and writes nothing', async () => {
    const text = readFileSync(join(dir, 's2.json'), 'utf8');
    const at = text.indexOf('"passed":true');
    assert.ok(at > 0);
    writeFileSync(
      join(dir, 'bad2.json'),
      `${text.slice(0, at)}"passed":"yes"${text.slice(at + '"passed":true'.length)}`,
    );
    const r = await runCli(['merge', 's1.json', 'bad2.json', 's3.json', '-o', 'bad-merged.json'], {
      cwd: dir,
    });
    assert.equal(r.code, 2, r.stderr);
    // Where the value is, by line and column, as well as by pointer: the file can be large.
    const before = text.slice(0, at + '"passed":'.length);
    const line = before.split('\n').length;
    const col = before.length - before.lastIndexOf('\n');
    assert.match(
      r.stderr,
      new RegExp(
        `evals merge: bad2\\.json is not a results artifact of this evalgate: /runs/\\d+/cases/\\d+/passed \\(line ${line}, column ${col}\\): must be boolean, found "yes"`,
      ),
    );
    noStack(r);
    assert.equal(existsSync(join(dir, 'bad-merged.json')), false);
  });

  it('refuses a missing shard, listing which, and merges what is there with --allow-partial', async () => {
    const refused = await runCli(['merge', 's1.json', 's3.json', '-o', 'partial.json'], {
      cwd: dir,
    });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^error: .*shard 2 of 3 is missing/m);
    assert.equal(existsSync(join(dir, 'partial.json')), false, 'nothing written');
    noStack(refused);

    const r = await runCli(
      ['merge', 's1.json', 's3.json', '--allow-partial', '-o', 'partial.json'],
      {
        cwd: dir,
      },
    );
    assert.equal(r.code, 1, r.stderr);
    const partial = readArtifact(join(dir, 'partial.json'));
    assert.equal(partial.interrupted, true);
    assert.equal(partial.verdict, 'fail');
    // Which shards it holds, as data (the schema's partialMerge), for show and compare.
    assert.deepEqual(partial.partialMerge, { count: 3, merged: [1, 3] });
    assert.deepEqual(validateArtifact(partial), []);
    const s2 = readArtifact(join(dir, 's2.json'));
    assert.equal(caseCount(partial), FIXTURE_CASES - caseCount(s2));
    assert.match(r.stderr, /partial: missing shard 2\)/);
  });

  it('refuses the same shard twice, mixed shard counts and unsharded inputs', async () => {
    const twice = await runCli(['merge', 's1.json', 's2.json', 's3.json', 's2.json'], { cwd: dir });
    assert.equal(twice.code, 2);
    assert.match(
      twice.stderr,
      /evals merge: s2\.json is given 2 times; give each shard artifact once/,
    );

    const half = await runCli(['run', '--shard', '2/2', '-o', 'half.json'], { cwd: dir });
    assert.ok(half.code === 0 || half.code === 1, half.stderr);
    const mixed = await runCli(['merge', 's1.json', 'half.json'], { cwd: dir });
    assert.equal(mixed.code, 2);
    assert.match(mixed.stderr, /\(mixed shard counts\): s1\.json of 3; half\.json of 2/);

    const unsharded = await runCli(['merge', 's1.json', 's2.json', 's3.json', 'full.json'], {
      cwd: dir,
    });
    assert.equal(unsharded.code, 2);
    assert.match(unsharded.stderr, /full\.json is not a shard \(written without --shard\)/);
    const alone = await runCli(['merge', 'full.json'], { cwd: dir });
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /full\.json is not a shard artifact/);
    noStack(alone);
  });

  it('refuses inputs that share a case', async () => {
    const s2 = readArtifact(join(dir, 's2.json'));
    const s1 = readArtifact(join(dir, 's1.json'));
    const run = s2.runs[0]!;
    const stolen = s1.runs[0]!.cases[0]!;
    run.cases = [...run.cases, stolen];
    writeFileSync(join(dir, 'overlap.json'), JSON.stringify(s2));
    const r = await runCli(['merge', 's1.json', 'overlap.json', 's3.json'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /the inputs overlap: 1 case\(s\) appear twice/);
    assert.ok(r.stderr.includes(stolen.id), 'names the case');
  });

  it('refuses shards of different configs or of different testset revisions', async () => {
    const other = scratch();
    writeFiles(other, FIXTURE);
    copyFileSync(join(dir, 's1.json'), join(other, 's1.json'));
    copyFileSync(join(dir, 's2.json'), join(other, 's2.json'));
    // The same suites, but a gate differs: another configHash.
    writeFileSync(
      join(other, 'evals.yaml'),
      FIXTURE['evals.yaml']!.replace('gte: 0.4', 'gte: 0.3'),
    );
    const changed = await runCli(['run', '--shard', '3/3', '-o', 's3.json'], { cwd: other });
    assert.ok(changed.code === 0 || changed.code === 1, changed.stderr);
    const configs = await runCli(['merge', 's1.json', 's2.json', 's3.json'], { cwd: other });
    assert.equal(configs.code, 2);
    assert.match(configs.stderr, /the inputs ran different configs \(configHash\)/);

    // The same config, but a row of the testset changed: another revision.
    writeFileSync(join(other, 'evals.yaml'), FIXTURE['evals.yaml']!);
    writeFileSync(join(other, 'rows.csv'), FIXTURE['rows.csv']!.replace('\n1,2\n', '\n1,3\n'));
    const edited = await runCli(['run', '--shard', '3/3', '-o', 's3.json'], { cwd: other });
    assert.ok(edited.code === 0 || edited.code === 1, edited.stderr);
    const revisions = await runCli(['merge', 's1.json', 's2.json', 's3.json'], { cwd: other });
    assert.equal(revisions.code, 2);
    assert.match(revisions.stderr, /suite math \{"factor":2\}: the testset revision differs/);
    noStack(revisions);
  });

  it('refuses shards run with other --trials or another --suite selection', async () => {
    const trials = await runCli(
      ['run', '--shard', '3/3', '--trials', '2', '-o', 's3-trials.json'],
      {
        cwd: dir,
      },
    );
    assert.ok(trials.code === 0 || trials.code === 1, trials.stderr);
    const mixedTrials = await runCli(['merge', 's1.json', 's2.json', 's3-trials.json'], {
      cwd: dir,
    });
    assert.equal(mixedTrials.code, 2);
    assert.match(
      mixedTrials.stderr,
      /s3-trials\.json ran with other settings than s1\.json \(trials 1 vs 2\)/,
    );

    const some = await runCli(['run', '--shard', '3/3', '--suite', 'math', '-o', 's3-math.json'], {
      cwd: dir,
    });
    assert.ok(some.code === 0 || some.code === 1, some.stderr);
    const fewer = await runCli(['merge', 's1.json', 's2.json', 's3-math.json'], { cwd: dir });
    assert.equal(fewer.code, 2);
    assert.match(fewer.stderr, /suite words is in s1\.json, s2\.json but not in s3-math\.json/);
  });

  it('refuses an interrupted shard unless --allow-partial', async () => {
    const r = await runCli(['run', '--shard', '2/3', '-o', 's2-cut.json'], {
      cwd: dir,
      env: { STOP_AFTER: '6', PAUSE_MS: '5' },
    });
    assert.equal(r.code, 130, r.stderr);
    const cut = readArtifact(join(dir, 's2-cut.json'));
    assert.equal(cut.interrupted, true);
    const refused = await runCli(['merge', 's1.json', 's2-cut.json', 's3.json'], { cwd: dir });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /s2-cut\.json was interrupted \(interrupted: true\)/);

    const allowed = await runCli(
      ['merge', 's1.json', 's2-cut.json', 's3.json', '--allow-partial', '-o', 'cut.json'],
      { cwd: dir },
    );
    assert.equal(allowed.code, 1, allowed.stderr);
    const merged = readArtifact(join(dir, 'cut.json'));
    assert.equal(merged.interrupted, true);
    const s1 = readArtifact(join(dir, 's1.json'));
    const s3 = readArtifact(join(dir, 's3.json'));
    assert.equal(caseCount(merged), caseCount(s1) + caseCount(cut) + caseCount(s3));
    // Runs missing cases of the interrupted shard fail their `complete` condition.
    const incomplete = merged.runs.filter((run) => run.cases.length < run.testset.cases);
    assert.ok(incomplete.length > 0);
    for (const run of incomplete) {
      assert.equal(run.verdict, 'fail');
      assert.ok(run.gate.conditions.some((c) => c.name === 'complete' && !c.passed));
    }
  });

  it('refuses an -o it could never write, before merging, and leaves no file behind', async () => {
    mkdirSync(join(dir, 'a-folder'), { recursive: true });
    const before = readdirSync(dir).sort();
    const refusals: [string, RegExp][] = [
      [
        'a-folder',
        /^error: -o a-folder: is a folder, not a file \(name a file in it\), so nothing was merged\n$/,
      ],
      [
        's1.json/merged.json',
        /^error: -o s1\.json\/merged\.json: .*s1\.json is a file, not a folder, so nothing was merged\n$/,
      ],
      [
        's2.json',
        /^error: -o s2\.json: one of the files to merge \(s2\.json\); name another file\n$/,
      ],
      [
        './s3.json',
        /^error: -o \.\/s3\.json: one of the files to merge \(s3\.json\); name another file\n$/,
      ],
    ];
    for (const [output, message] of refusals) {
      const r = await runInProcess(['merge', 's1.json', 's2.json', 's3.json', '-o', output], dir);
      assert.equal(r.code, 2, `${output}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    assert.deepEqual(readdirSync(dir).sort(), before, 'no temporary file is left');
    assert.deepEqual(readArtifact(join(dir, 's2.json')).shard, { index: 2, count: 3 });
  });

  it('says where the merged artifact could not be written, and exits 3', async () => {
    // A name the file system takes, but not with the temporary file's suffix (nor in the
    // fallback's longer name): the merge is done when the write fails.
    const output = `${'m'.repeat(240)}.json`;
    const r = await runInProcess(['merge', 's1.json', 's2.json', 's3.json', '-o', output], dir);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /^merged 3 of 3 shards: \d+ runs, \d+ case results, verdict fail$/m);
    assert.match(
      r.stderr,
      new RegExp(
        `^error: the merge finished but ${output} could not be written \\(.*ENAMETOOLONG.*\\); nothing was kept$`,
        'm',
      ),
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('explains its usage', async () => {
    const help = await runCli(['merge', '--help'], { cwd: dir });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--allow-partial/);
    const none = await runCli(['merge'], { cwd: dir });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /evals merge needs the shard results files/);
  });
});
