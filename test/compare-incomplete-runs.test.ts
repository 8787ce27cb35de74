/**
 * Which runs of a comparison are incomplete: decided per run (fewer cases than it planned), so a
 * case really added or removed in a run that finished stays `added` / `removed` even when another
 * run of the same artifact was cut short. Only a partial merge (or an artifact marked interrupted
 * with no run short) makes every run incomplete, and each situation is worded for what it is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';
import { writeFiles } from './helpers/cli.ts';

const suite = [
  'grid: { k: [a, b] }',
  'evaluators:',
  '  - { use: contains, with: { values: [answer] } }',
];

function rows(count: number): { n: number; output: string }[] {
  return Array.from({ length: count }, (_, n) => ({ n, output: `answer ${n}` }));
}

/** Writes `rows.jsonl` with `count` rows and runs the grid into `file`. */
async function runWith(dir: string, count: number, file: string): Promise<void> {
  const lines = rows(count).map((row) => JSON.stringify(row));
  writeFiles(dir, { 'rows.jsonl': `${lines.join('\n')}\n` });
  const result = await runInProcess(['run', '-o', file], dir);
  assert.equal(result.code, 0, result.stderr);
}

interface ComparedRun {
  params: { k: string };
  cases: {
    added: unknown[];
    removed: unknown[];
    notRunInBase?: unknown[];
    notRunInHead?: unknown[];
  };
  incomplete?: { base?: unknown; head?: unknown };
}

async function compareJson(dir: string, base: string, head: string): Promise<ComparedRun[]> {
  const json = await runInProcess(['compare', base, head, '--format', 'json'], dir);
  assert.equal(json.code, 0, json.stderr);
  return (JSON.parse(json.stdout) as { runs: ComparedRun[] }).runs;
}

function runAt(runs: ComparedRun[], k: string): ComparedRun {
  const run = runs.find((r) => r.params.k === k);
  assert.ok(run, `a run at k=${k}`);
  return run;
}

describe('an incomplete side, run by run', () => {
  it('keeps a row HEAD added as added in a BASE run that finished', async () => {
    const dir = jsonlProject(rows(6), suite);
    await runWith(dir, 6, 'full.json');
    writeInterrupted(dir, 'full.json', 'base.json', 2, 0);
    await runWith(dir, 7, 'head.json');

    const text = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /BASE is incomplete/);
    assert.match(text.stdout, /s · k=a has 2 of 6 planned cases/);
    assert.doesNotMatch(text.stdout, /k=b has/);
    assert.match(text.stdout, /added \(1\)/);

    const runs = await compareJson(dir, 'base.json', 'head.json');
    assert.equal(runAt(runs, 'b').cases.added.length, 1);
    assert.equal(runAt(runs, 'b').cases.notRunInBase, undefined);
    assert.equal(runAt(runs, 'b').incomplete, undefined);
    assert.equal(runAt(runs, 'a').cases.notRunInBase?.length, 5);
  });

  it('keeps a row HEAD removed as removed in a HEAD run that finished', async () => {
    const dir = jsonlProject(rows(7), suite);
    await runWith(dir, 7, 'base.json');
    await runWith(dir, 6, 'full.json');
    writeInterrupted(dir, 'full.json', 'head.json', 3, 0);

    const text = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    assert.match(text.stdout, /HEAD is incomplete/);
    assert.match(text.stdout, /s · k=a has 3 of 6 planned cases/);
    assert.match(text.stdout, /removed \(1\)/);

    const runs = await compareJson(dir, 'base.json', 'head.json');
    assert.equal(runAt(runs, 'b').cases.removed.length, 1);
    assert.equal(runAt(runs, 'b').cases.notRunInHead, undefined);
    assert.equal(runAt(runs, 'a').cases.notRunInHead?.length, 4);
  });

  it('says an artifact interrupted after its last case has every planned case', async () => {
    const dir = jsonlProject(rows(6), suite);
    await runWith(dir, 6, 'full.json');
    writeInterrupted(dir, 'full.json', 'late.json', 6, 0);
    const text = await runInProcess(['compare', 'late.json', 'full.json'], dir);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /BASE is incomplete/);
    assert.match(text.stdout, /marked interrupted, yet every run has all its planned cases/);
    assert.doesNotMatch(text.stdout, /any shard missing from it/);
  });

  it('says a partial merge lacks the shards it lacks, in every run', async () => {
    const dir = jsonlProject(rows(8), suite);
    assert.equal((await runInProcess(['run', '-o', 'full.json'], dir)).code, 0);
    const shard = await runInProcess(['run', '--shard', '1/2', '-o', 's1.json'], dir);
    assert.equal(shard.code, 0, shard.stderr);
    const merge = await runInProcess(['merge', 's1.json', '--allow-partial', '-o', 'm.json'], dir);
    assert.equal(merge.code, 1, merge.stderr);

    const text = await runInProcess(['compare', 'm.json', 'full.json'], dir);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /BASE is incomplete \(a partial merge\): only shard 1 of 2 was merged/,
    );
    assert.doesNotMatch(text.stdout, /added \(/);
    const runs = await compareJson(dir, 'm.json', 'full.json');
    for (const run of runs) {
      assert.ok((run.cases.notRunInBase?.length ?? 0) > 0, 'the missing shard is not run');
      assert.equal(run.cases.added.length, 0);
    }
    const md = await runInProcess(['compare', 'm.json', 'full.json', '--format', 'md'], dir);
    assert.match(md.stdout, /⚠️ \*\*BASE is incomplete\*\* \(a partial merge\)/);
  });
});
