/**
 * The `--tag` filter of a run, recorded in each run's `testset.tagFilter`: `evals merge` refuses
 * shards run with different filters (they hold different selections of cases, which no single
 * run would have), and `evals run --resume` refuses a filter other than the partial's, even when
 * both select as many cases. Artifacts of an older evalgate, which recorded no filter, are told
 * apart from runs without `--tag`.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess, type InProcessResult } from './helpers/in-process.ts';
import { readArtifact, withoutTimings } from './helpers/shard-fixture.ts';

/**
 * Twelve rows on a two-point grid: tags `a` on rows 1–6, `b` on rows 4–9 (so both select six,
 * not the same six), none on rows 10–12. The function echoes the row's number.
 */
const PROJECT: Record<string, string> = {
  'evals.yaml': [
    'version: 1',
    'suites:',
    '  - id: echo',
    '    testset: { path: rows.csv }',
    '    function: ./fn.mjs#echo',
    '    grid: { k: [1, 2] }',
    '    evaluators:',
    '      - { id: same, use: is-equals, with: { expected: "{{case.n}}" } }',
    '',
  ].join('\n'),
  'rows.csv': `n,__tags__\n${Array.from({ length: 12 }, (_, i) => {
    const n = i + 1;
    const tags = [...(n <= 6 ? ['a'] : []), ...(n >= 4 && n <= 9 ? ['b'] : [])];
    return `${n},${tags.join('|')}`;
  }).join('\n')}\n`,
  'fn.mjs': 'export const echo = ({ testCase }) => String(testCase.n);\n',
};

async function evals(dir: string, ...argv: string[]): Promise<InProcessResult> {
  const r = await runInProcess(argv, dir);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  return r;
}

/** Runs `evals run ...argv -o out`, which must finish (pass or fail), and reads what it wrote. */
async function run(dir: string, out: string, ...argv: string[]): Promise<ResultsArtifact> {
  const r = await evals(dir, 'run', ...argv, '-o', out);
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  return readArtifact(join(dir, out));
}

/** `file` as an older evalgate wrote it: no run records a tag filter. */
function asOlder(dir: string, file: string, to: string): void {
  const artifact = JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
  for (const r of artifact.runs) delete r.testset.tagFilter;
  writeFileSync(join(dir, to), JSON.stringify(artifact));
}

const filtersOf = (artifact: ResultsArtifact) => artifact.runs.map((r) => r.testset.tagFilter);

describe('evals merge: --tag filters', () => {
  let dir = '';

  before(() => {
    dir = scratch();
    writeFiles(dir, PROJECT);
  });

  it('records the filter in every run: sorted and once, [] in a shard without --tag', async () => {
    const tagged = await run(dir, 'tagged.json', '--tag', 'b', '--tag', 'a', '--tag', 'b');
    assert.deepEqual(filtersOf(tagged), [
      ['a', 'b'],
      ['a', 'b'],
    ]);
    const plain = await run(dir, 'plain.json');
    assert.deepEqual(filtersOf(plain), [undefined, undefined], 'a plain run is as it was');
    const shard = await run(dir, 'shard.json', '--shard', '1/2');
    assert.deepEqual(filtersOf(shard), [[], []]);
  });

  it('refuses shards run with different --tag filters, naming each', async () => {
    await run(dir, 'q1.json', '--shard', '1/2', '--tag', 'a');
    await run(dir, 'q2.json', '--shard', '2/2');
    await run(dir, 'q2b.json', '--shard', '2/2', '--tag', 'b');
    for (const second of ['q2.json', 'q2b.json']) {
      const r = await evals(dir, 'merge', 'q1.json', second, '-o', 'qm.json');
      assert.equal(r.code, 2, r.stderr);
      const other = second === 'q2.json' ? 'without --tag' : 'with --tag b';
      assert.equal(
        r.stderr,
        `error: the shards ran different --tag filters: q1.json ran with --tag a; ${second} ran ${other}. Every shard must run the same cases: run them again with the same --tag\n`,
      );
    }
  });

  it('merges shards of one filter into what one machine writes, whatever the order of the tags', async () => {
    const whole = await run(dir, 'whole-ab.json', '--tag', 'a', '--tag', 'b');
    await run(dir, 'ab1.json', '--shard', '1/2', '--tag', 'a', '--tag', 'b');
    await run(dir, 'ab2.json', '--shard', '2/2', '--tag', 'b', '--tag', 'a');
    const r = await evals(dir, 'merge', 'ab2.json', 'ab1.json', '-o', 'ab.json');
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /warning/);
    assert.deepEqual(withoutTimings(readArtifact(join(dir, 'ab.json'))), withoutTimings(whole));

    const plain = await run(dir, 'whole.json');
    await run(dir, 'p1.json', '--shard', '1/2');
    await run(dir, 'p2.json', '--shard', '2/2');
    const p = await evals(dir, 'merge', 'p1.json', 'p2.json', '-o', 'p.json');
    assert.equal(p.code, 0, p.stderr);
    const merged = readArtifact(join(dir, 'p.json'));
    assert.deepEqual(filtersOf(merged), [undefined, undefined], "no shard's [] is left");
    assert.deepEqual(withoutTimings(merged), withoutTimings(plain));
  });

  it('takes no record for "no filter": older shards merge with a warning, and not next to newer ones', async () => {
    await run(dir, 'o1.json', '--shard', '1/2');
    await run(dir, 'o2.json', '--shard', '2/2');
    asOlder(dir, 'o1.json', 'old1.json');
    asOlder(dir, 'o2.json', 'old2.json');
    const older = await evals(dir, 'merge', 'old1.json', 'old2.json', '-o', 'old.json');
    assert.equal(older.code, 0, older.stderr);
    assert.match(
      older.stderr,
      /^warning: old1\.json, old2\.json record no --tag filter \(written by an older evalgate\), so the merge cannot check that every shard ran the same cases; if any ran with --tag, run every shard again with this version$/m,
    );

    const mixed = await evals(dir, 'merge', 'old1.json', 'o2.json', '-o', 'mixed.json');
    assert.equal(mixed.code, 2, mixed.stderr);
    assert.match(
      mixed.stderr,
      /^error: the shards ran different --tag filters: old1\.json records no --tag filter \(written by an older evalgate\); o2\.json ran without --tag\./m,
    );
  });
});

describe('evals run --resume: --tag filters', () => {
  let dir = '';
  /** A partial of `--tag a`: only the first case of each run finished (row 1). */
  let partial = '';

  before(async () => {
    dir = scratch();
    writeFiles(dir, PROJECT);
    const full = await run(dir, 'full-a.json', '--tag', 'a');
    const cut = structuredClone(full);
    for (const r of cut.runs) r.cases = r.cases.slice(0, 1);
    cut.interrupted = true;
    partial = JSON.stringify(cut);
  });

  it('refuses another filter that selects as many cases, before running any', async () => {
    writeFileSync(join(dir, 'part.json'), partial);
    const r = await evals(dir, 'run', '--resume', 'part.json', '--tag', 'b');
    assert.equal(r.code, 2, r.stderr);
    for (const k of [1, 2]) {
      assert.match(
        r.stderr,
        new RegExp(
          `^error: part\\.json  suite echo \\{"k":${k}\\}: part\\.json ran with --tag a, this run with --tag b; resume with the filters of the interrupted run \\(leave --tag out to use its own\\)$`,
          'm',
        ),
      );
    }
    assert.equal(readFileSync(join(dir, 'part.json'), 'utf8'), partial, 'the partial is kept');
  });

  it("takes the partial's filter when --tag is left out, and finishes it as one run would", async () => {
    writeFileSync(join(dir, 'part.json'), partial);
    const resumed = await run(dir, 'resumed.json', '--resume', 'part.json');
    const full = readArtifact(join(dir, 'full-a.json'));
    assert.deepEqual(filtersOf(resumed), [['a'], ['a']]);
    assert.deepEqual(withoutTimings(resumed), withoutTimings(full));
  });
});
