/**
 * QA #10 F12: `evals merge` of shards each run with `--baseline base.json` dropped the
 * comparison and the `regressions: block` gate: the merged run passed where the unsharded run
 * fails (and `evals report --baseline` then showed a PASS banner next to rows marked
 * "regressed"). Now the merge compares the merged cases again, as one run, with the baseline the
 * shards record (all must name the same one, else it refuses naming which differ), so its
 * verdict and comparison are the unsharded run's; `--baseline` (here `mergeCommand`'s
 * `baseline`) compares with another file instead.
 */
import assert from 'node:assert/strict';
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { mergeCommand } from '../src/cli/merge.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { regressionProject, runInProcess } from './helpers/in-process.ts';

/** What the function module reads: `bad` answers wrong. */
const MODE = '__qa10BaselineMergeMode';
const ROWS = 24;

function setMode(mode: 'ok' | 'bad'): void {
  (globalThis as Record<string, unknown>)[MODE] = mode;
}

function project(): string {
  return regressionProject(
    `export const fn = () => (globalThis.${MODE} === 'bad' ? 'bad' : 'ok');\n`,
    { rows: ROWS },
  );
}

function read(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

async function run(dir: string, argv: string[], code: number | null = null): Promise<string> {
  const r = await runInProcess(argv, dir);
  if (code !== null) assert.equal(r.code, code, `${argv.join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r.stderr;
}

/** The shards of the bad head, each run with `--baseline` as `baselines[i]` says (none: undefined). */
async function shards(dir: string, prefix: string, baselines: (string | undefined)[]) {
  setMode('bad');
  for (const [i, baseline] of baselines.entries()) {
    const flags = baseline === undefined ? [] : ['--baseline', baseline];
    await run(dir, ['run', '--shard', `${i + 1}/3`, ...flags, '-o', `${prefix}${i + 1}.json`]);
  }
}

describe('evals merge of shards run with --baseline (QA #10 F12)', () => {
  let dir = '';

  before(async () => {
    dir = project();
    setMode('ok');
    await run(dir, ['run', '-o', 'base.json'], 0);
    await run(dir, ['run', '-o', 'other.json'], 0);
    setMode('bad');
    await run(dir, ['run', '--baseline', 'base.json', '-o', 'whole.json'], 1);
    await shards(dir, 's', ['base.json', 'base.json', 'base.json']);
  });

  it('fails as the unsharded run does: the comparison is made again over every merged case', async () => {
    await run(dir, ['merge', 's1.json', 's2.json', 's3.json', '-o', 'merged.json'], 1);
    const merged = read(dir, 'merged.json');
    const whole = read(dir, 'whole.json');
    assert.equal(merged.verdict, 'fail');
    assert.deepEqual(merged.runs[0]?.gate, whole.runs[0]?.gate);
    const regressions = merged.runs[0]?.gate.conditions.find((c) => c.name === 'regressions');
    assert.equal(regressions?.passed, false);
    // The statistics of one run over the whole set, not of each shard.
    assert.equal(merged.comparison?.runs[0]?.passRate.paired, ROWS);
    assert.deepEqual(merged.comparison?.runs, whole.comparison?.runs);
    assert.deepEqual(merged.comparison?.family, whole.comparison?.family);
    assert.equal((merged.comparison?.base as { path?: string }).path, 'base.json');
  });

  it('evals report --baseline on the merged file shows the FAIL banner its gate decided', async () => {
    await run(dir, ['merge', 's1.json', 's2.json', 's3.json', '-o', 'merged.json']);
    await run(dir, ['report', 'merged.json', '-o', 'r.html', '--baseline', 'base.json'], 0);
    const html = readFileSync(join(dir, 'r.html'), 'utf8');
    const data = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html);
    assert.ok(data?.[1] !== undefined);
    const model = JSON.parse(data[1]) as { verdict: string };
    assert.equal(model.verdict, 'fail');
  });

  it('refuses shards compared with different baselines, or some with none, naming which', async () => {
    await shards(dir, 'd', ['base.json', 'other.json', 'base.json']);
    const differ = await run(dir, ['merge', 'd1.json', 'd2.json', 'd3.json', '-o', 'd.json'], 2);
    assert.match(
      differ,
      /the shards were compared with different baselines: d1\.json, d3\.json with base\.json \(a run of evals\.yaml started [^)]*\); d2\.json with other\.json \(/,
    );
    await shards(dir, 'n', ['base.json', 'base.json', undefined]);
    const none = await run(dir, ['merge', 'n1.json', 'n2.json', 'n3.json', '-o', 'n.json'], 2);
    assert.match(
      none,
      /n1\.json, n2\.json were compared with base\.json \(.*\) \(--baseline\), but n3\.json holds no comparison/,
    );
  });

  it('refuses when the recorded baseline file is gone; a baseline given to the merge is used', async () => {
    renameSync(join(dir, 'base.json'), join(dir, 'moved.json'));
    try {
      const gone = await run(dir, ['merge', 's1.json', 's2.json', 's3.json', '-o', 'g.json'], 2);
      assert.match(
        gone,
        /the shards' baseline base\.json cannot be read now .*: pass evals merge --baseline FILE \(that baseline/,
      );
      let stderr = '';
      const code = await mergeCommand(
        {
          inputs: ['s1.json', 's2.json', 's3.json'],
          output: 'given.json',
          allowPartial: false,
          baseline: 'moved.json',
        },
        {
          cwd: dir,
          env: { NO_COLOR: '1' },
          stdout: { write: () => true },
          stderr: { write: (text: string) => ((stderr += text), true) },
        },
      );
      assert.equal(code, 1, stderr);
      const given = read(dir, 'given.json');
      assert.equal((given.comparison?.base as { path?: string }).path, 'moved.json');
      assert.deepEqual(given.comparison?.runs, read(dir, 'whole.json').comparison?.runs);
    } finally {
      renameSync(join(dir, 'moved.json'), join(dir, 'base.json'));
    }
  });
});
