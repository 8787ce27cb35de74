import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseShard, shardOf, type Shard } from '../src/plan/shard.ts';
import { runSuites } from '../src/run/engine.ts';
import { oneSuiteProject, preparedSuites, runCli, scratch } from './helpers/cli.ts';

/** 40 rows with distinct content, so each has its own identity. */
const ROWS = Array.from({ length: 40 }, (_, i) => ({ q: `question ${i}`, k: i % 3 }));

function csv(rows: typeof ROWS): string {
  return ['q,k', ...rows.map((r) => `${r.q},${r.k}`)].join('\n') + '\n';
}

/** A config whose one suite has a two-point grid; no function (outputs are never computed). */
function project(rows: typeof ROWS): string {
  return oneSuiteProject(csv(rows), ['grid: { model: [small, large] }']);
}

async function prepared(
  dir: string,
  shard?: Shard,
): Promise<{ ids: string[]; positions: number[]; grid: unknown[] }> {
  const [suite] = await preparedSuites(dir, shard ? { shard } : {});
  assert.ok(suite);
  return {
    ids: suite.runs[0]!.cases.map((c) => c.id),
    positions: suite.runs[0]!.cases.map((c) => c.index),
    grid: suite.runs.map((run) => run.params),
  };
}

describe('shardOf', () => {
  it('puts every id in one shard between 1 and n, the same every time', () => {
    for (let n = 1; n <= 5; n++) {
      for (const id of ['a', 'b', 'case-1', 'case-2', '']) {
        const shard = shardOf(id, n);
        assert.ok(Number.isInteger(shard) && shard >= 1 && shard <= n, `${id} of ${n}: ${shard}`);
        assert.equal(shardOf(id, n), shard);
      }
    }
  });

  it('spreads similar ids over the shards', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 400; i++) counts[shardOf(`case-${i}`, 4) - 1]! += 1;
    // A fair split gives 100 each; sha256 keeps every shard well away from empty or swamped.
    for (const count of counts) assert.ok(count > 60 && count < 140, `counts ${counts.join(',')}`);
  });
});

describe('parseShard', () => {
  it('reads INDEX/COUNT', () => {
    assert.deepEqual(parseShard('2/4'), { ok: true, shard: { index: 2, count: 4 } });
    assert.deepEqual(parseShard('1/1'), { ok: true, shard: { index: 1, count: 1 } });
  });

  it('refuses indices outside 1..COUNT and malformed text, saying what is expected', () => {
    for (const text of ['0/4', '5/4', '1/0', '2', '2/', '/4', 'a/b', '-1/4', '1.5/4', '']) {
      const parsed = parseShard(text);
      assert.equal(parsed.ok, false, text);
      if (!parsed.ok) assert.match(parsed.message, /--shard/);
    }
  });
});

describe('--shard in prepare', () => {
  it('splits the cases into disjoint shards covering all of them, for n = 1..5', async () => {
    const dir = project(ROWS);
    const all = await prepared(dir);
    assert.equal(all.ids.length, ROWS.length);
    for (let n = 1; n <= 5; n++) {
      const seen = new Map<string, number>();
      for (let i = 1; i <= n; i++) {
        const part = await prepared(dir, { index: i, count: n });
        // Every grid point runs the shard's cases: the grid is never split.
        assert.deepEqual(part.grid, all.grid);
        for (const id of part.ids) {
          assert.equal(
            seen.get(id),
            undefined,
            `${id} is in shards ${seen.get(id)} and ${i} of ${n}`,
          );
          seen.set(id, i);
          assert.equal(shardOf(id, n), i);
        }
        // Cases keep testset order and their testset positions.
        assert.deepEqual(
          part.positions,
          part.ids.map((id) => all.ids.indexOf(id)),
        );
      }
      assert.deepEqual([...seen.keys()].sort(), [...all.ids].sort(), `n = ${n} covers every case`);
    }
  });

  it('gives each case the same shard whatever the row order', async () => {
    const forward = project(ROWS);
    const backward = project([...ROWS].reverse());
    for (let i = 1; i <= 3; i++) {
      const a = await prepared(forward, { index: i, count: 3 });
      const b = await prepared(backward, { index: i, count: 3 });
      assert.deepEqual([...a.ids].sort(), [...b.ids].sort());
      assert.deepEqual(b.ids, [...a.ids].reverse(), 'each shard keeps its own testset order');
    }
  });
});

describe('evals run --shard on the command line', () => {
  it('refuses a bad value with exit 2 and a plain message', async () => {
    const dir = project(ROWS);
    for (const value of ['0/2', '3/2', 'two']) {
      const r = await runCli(['run', '--shard', value, '-o', 'out.json'], { cwd: dir });
      assert.equal(r.code, 2, `${value}: ${r.stderr}`);
      assert.match(r.stderr, /^error: .*--shard/m);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    }
  });

  it('documents --shard and --resume in evals run --help', async () => {
    const r = await runCli(['run', '--help'], { cwd: scratch() });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /--shard I\/N/);
    assert.match(r.stdout, /--resume FILE/);
  });
});

describe('positions', () => {
  it("gives each case of a shard its prepared case's testset position", async () => {
    const dir = project(ROWS);
    const shard = { index: 2, count: 3 };
    const suites = await preparedSuites(dir, { shard });
    const { runs } = await runSuites(suites, { positions: true });
    const cases = suites[0]!.runs[0]!.cases;
    // Both grid points (runs 0 and 1) of the one suite.
    for (const run of runs) {
      assert.deepEqual(
        run.cases.map((c) => c.index),
        cases.map((c) => c.index),
      );
    }
    assert.ok(
      cases.some((c, i) => c.index !== i),
      'a shard skips positions',
    );
    const plain = await runSuites(suites);
    assert.ok(plain.runs.every((run) => run.cases.every((c) => c.index === undefined)));
  });
});
