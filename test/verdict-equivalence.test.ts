/**
 * A seeded differential test: the same suites run different ways must reach the same results.
 * Each generated project (1–2 suites of random JSONL rows, sometimes with a repeated row or
 * `__tags__` and a `--tag` filter; a deterministic function that answers wrong or throws for some
 * rows, by the row, grid point and trial; 1–3 built-in evaluators, some with `not:`, `when:` or a
 * threshold; random gate rules, `pass: any` at times; optional trials and grid; concurrency 1–4)
 * is run
 *
 * - whole (`evals run`): the reference;
 * - as 2 shards and as 3 shards, then `evals merge` (shard 1 of the 2 cut short by an in-process
 *   Ctrl-C and finished with `--resume` before the merge, when the stop row falls in it);
 * - cut short by an in-process Ctrl-C at one row, then finished with `--resume` (without
 *   `--baseline` or `--tag`: the partial records both);
 * - at random: interrupted again while resuming, then resumed; resumed and merged with an
 *   explicit `--baseline`; the whole run against a baseline that is itself 2 merged shards;
 *
 * each against `--baseline base.json` (a run whose function answered by other odds) in projects
 * that have one, gated by `regressions: block` in some. Exit codes, verdicts, gate conditions,
 * summaries, cases and the comparison's statistics must be equal; what may differ is left out of
 * `essence` below, each with why. 12 projects and one pinned case take ~30 s on 2 cores.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { agree, read, run, type Way } from './helpers/equivalence-run.ts';
import { emptyShardProject, generate, type Spec } from './helpers/equivalence-projects.ts';

/** `EQ_SEED` / `EQ_PROJECTS` explore other projects (at most 500) without editing the file. */
const PROJECTS = Math.min(Number(process.env.EQ_PROJECTS) || 12, 500);

async function ways(spec: Spec): Promise<Way[]> {
  const dir = scratch();
  writeFiles(dir, spec.files);
  const baseArgs: string[] = [...spec.filter];
  if (spec.baseline) {
    writeFileSync(join(dir, 'v1'), '');
    const base = await run(['run', ...spec.filter, '-o', 'base.json'], dir);
    assert.ok(base.code === 0 || base.code === 1, base.stderr);
    if (spec.extras.includes('shardedBase')) {
      // The baseline as the merge of 2 shards: the same run, so the same comparisons.
      for (const i of [1, 2]) {
        const shard = await run(
          ['run', ...spec.filter, '--shard', `${i}/2`, '-o', `b${i}.json`],
          dir,
        );
        assert.ok([0, 1].includes(shard.code), shard.stderr);
      }
      const merged = await run(['merge', 'b1.json', 'b2.json', '-o', 'base-merged.json'], dir);
      assert.ok([0, 1].includes(merged.code), merged.stderr);
    }
    rmSync(join(dir, 'v1'));
    baseArgs.push('--baseline', 'base.json');
  }
  const found: Way[] = [];
  const add = (name: string, ran: { code: number; stderr: string }, file: string) => {
    // A refusal (exit 2) writes nothing: fail on its message rather than on a missing file.
    assert.ok([0, 1].includes(ran.code), `${name}: exit ${ran.code}\n${ran.stderr}`);
    found.push({ name, code: ran.code, artifact: read(dir, file) });
  };

  const whole = await run(['run', ...baseArgs, '-o', 'whole.json'], dir);
  add('whole', whole, 'whole.json');

  for (const n of [2, 3]) {
    const files: string[] = [];
    for (let i = 1; i <= n; i++) {
      const file = `shard-${n}-${i}.json`;
      const args = ['run', ...baseArgs, '--shard', `${i}/${n}`, '-o', file];
      // Shard 1 of 2 stops at the stop row when that row is in it, and is resumed.
      const shard = await run(args, dir, n === 2 && i === 1 ? spec.stopAt : undefined);
      // Shards that get none of a suite's cases exit 0 for it; the merge decides.
      assert.ok([0, 1, 130].includes(shard.code), `${file}: ${shard.code} ${shard.stderr}`);
      if (shard.code === 130) {
        const resumed = await run(['run', '--resume', file, '-o', file], dir);
        assert.ok([0, 1].includes(resumed.code), `${file} resumed: ${resumed.stderr}`);
      }
      files.push(file);
    }
    const merged = await run(['merge', ...files, '-o', `merged-${n}.json`], dir);
    add(`${n} shards merged`, merged, `merged-${n}.json`);
  }

  if (spec.stopAt !== undefined) {
    const stopped = await run(['run', ...baseArgs, '-o', 'part.json'], dir, spec.stopAt);
    assert.equal(stopped.code, 130, stopped.stderr);
    assert.equal(read(dir, 'part.json').interrupted, true);
    // Neither --baseline nor --tag: the resumption takes both from the partial.
    const resumed = await run(['run', '--resume', 'part.json', '-o', 'resumed.json'], dir);
    add('interrupted, resumed', resumed, 'resumed.json');

    if (spec.extras.includes('twice')) {
      // Resumed and interrupted again (when the second stop row is still to run), then resumed.
      const again = await run(
        ['run', '--resume', 'part.json', '-o', 'again.json'],
        dir,
        spec.stopAgain,
      );
      if (again.code === 130) {
        const done = await run(['run', '--resume', 'again.json', '-o', 'again.json'], dir);
        add('interrupted twice, resumed', done, 'again.json');
      } else add('interrupted, resumed (second stop row had run)', again, 'again.json');
    }
    if (spec.extras.includes('explicitBase')) {
      const given = ['--baseline', 'base.json'];
      const resumedGiven = await run(
        ['run', '--resume', 'part.json', ...given, '-o', 'rg.json'],
        dir,
      );
      add('interrupted, resumed with --baseline', resumedGiven, 'rg.json');
    }
  }
  if (spec.extras.includes('explicitBase')) {
    const files = ['shard-2-1.json', 'shard-2-2.json'];
    const merged = await run(['merge', ...files, '--baseline', 'base.json', '-o', 'mg.json'], dir);
    add('2 shards merged with --baseline', merged, 'mg.json');
  }
  if (spec.extras.includes('shardedBase')) {
    const args = ['run', ...spec.filter, '--baseline', 'base-merged.json', '-o', 'wm.json'];
    const against = await run(args, dir);
    add('whole against the merged baseline', against, 'wm.json');
  }
  return found;
}

describe('the same suite run whole, sharded and merged, or interrupted and resumed agrees', () => {
  it(emptyShardProject().description, async () => {
    const spec = emptyShardProject();
    agree(await ways(spec), spec.baseline);
  });

  for (let index = 0; index < PROJECTS; index++) {
    const spec = generate(index);
    it(spec.description, async () => {
      agree(await ways(spec), spec.baseline);
    });
  }
});
