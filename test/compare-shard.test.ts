/**
 * A shard compared with a whole run: it lacks the other shards' cases, so the comparison says
 * so, and lists those cases as "not run" on its side rather than as cases added or removed. Two
 * different shards share no row, which the refusal says; two runs of the same shard hold the
 * same rows: a clean comparison.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const rows = Array.from({ length: 30 }, (_, n) => ({ n, output: `answer ${n}` }));
const suite = ['evaluators:', '  - { use: contains, with: { values: [answer] } }'];

interface Compared {
  base: { incomplete?: { shard?: { index: number; count: number } } };
  head: { incomplete?: { shard?: { index: number; count: number } } };
  runs: {
    cases: {
      added: unknown[];
      removed: unknown[];
      notRunInBase?: unknown[];
      notRunInHead?: unknown[];
    };
  }[];
}

async function project(): Promise<string> {
  const dir = jsonlProject(rows, suite);
  for (const [args, file] of [
    [[], 'full.json'],
    [['--shard', '1/3'], 's1.json'],
    [['--shard', '1/3'], 's1-again.json'],
    [['--shard', '2/3'], 's2.json'],
    [['--shard', '1/1'], 'only.json'],
  ] as const) {
    const run = await runInProcess(['run', ...args, '-o', file], dir);
    assert.equal(run.code, 0, run.stderr);
  }
  return dir;
}

async function compared(dir: string, base: string, head: string): Promise<Compared> {
  const r = await runInProcess(['compare', base, head, '--format', 'json'], dir);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Compared;
}

describe('comparing a shard', () => {
  it('with a whole run: says BASE is one shard, and the other cases were not run there', async () => {
    const dir = await project();
    const json = await compared(dir, 's1.json', 'full.json');
    assert.deepEqual(json.base.incomplete?.shard, { index: 1, count: 3 });
    assert.equal(json.head.incomplete, undefined);
    const cases = json.runs[0]!.cases;
    assert.equal(cases.added.length, 0);
    assert.ok((cases.notRunInBase?.length ?? 0) > 0);
    const text = await runInProcess(['compare', 's1.json', 'full.json'], dir);
    assert.match(
      text.stdout,
      /BASE is incomplete \(one shard\): it is shard 1 of 3, so every run lacks the cases of shards 2, 3/,
    );
    assert.doesNotMatch(text.stdout, /added \(/);
    const md = await runInProcess(['compare', 'full.json', 's1.json', '--format', 'md'], dir);
    assert.match(md.stdout, /HEAD is incomplete/);
    assert.match(md.stdout, /shard 1 of 3/);
  });

  it('with another shard: refused, saying the shards hold different rows', async () => {
    const dir = await project();
    const r = await runInProcess(['compare', 's1.json', 's2.json'], dir);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /no common cases between s1\.json and s2\.json: .* \(s1\.json is shard 1 of 3, s2\.json shard 2 of 3: different shards hold different rows/,
    );
  });

  it('shard 1 of 1 with a whole run: a clean comparison (one shard is the whole run)', async () => {
    const dir = await project();
    const json = await compared(dir, 'only.json', 'full.json');
    assert.equal(json.base.incomplete, undefined);
    assert.equal(json.runs[0]!.cases.added.length, 0);
  });

  it('with the same shard: a clean comparison', async () => {
    const dir = await project();
    const json = await compared(dir, 's1.json', 's1-again.json');
    assert.equal(json.base.incomplete, undefined);
    assert.equal(json.head.incomplete, undefined);
    const text = await runInProcess(['compare', 's1.json', 's1-again.json'], dir);
    assert.doesNotMatch(text.stdout, /incomplete/);
  });
});
