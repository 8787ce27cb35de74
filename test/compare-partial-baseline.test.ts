/**
 * A comparison with an interrupted side: an artifact cut short has fewer cases than it planned,
 * and the cases it never ran must not read as "added" (or "removed") nor the comparison as a
 * clean one, in the terminal, in `--format md` and in `evals run --baseline`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';
import { renderGfm } from './helpers/gfm.ts';

/** Six rows of recorded output, every one passing `contains`. */
function project(): string {
  const rows = Array.from({ length: 6 }, (_, n) => ({ n, output: `answer ${n}` }));
  return jsonlProject(rows, ['evaluators:', '  - { use: contains, with: { values: [answer] } }']);
}

/**
 * `full.json` (the whole run) and `p.json`: the same run as an interrupt leaves it, its first
 * `kept` cases finished, `interrupted: true`, and the failing `complete` condition.
 */
async function artifacts(dir: string, kept = 2): Promise<void> {
  const result = await runInProcess(['run', '-o', 'full.json'], dir);
  assert.equal(result.code, 0, result.stderr);
  writeInterrupted(dir, 'full.json', 'p.json', kept);
}

describe('comparing with an interrupted artifact', () => {
  it('says BASE was cut short and lists its missing cases as not run, never as added', async () => {
    const dir = project();
    await artifacts(dir);
    const text = await runInProcess(['compare', 'p.json', 'full.json'], dir);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /BASE is incomplete \(interrupted\): s has 2 of 6 planned cases/);
    assert.match(text.stdout, /only on the 2 cases both ran/);
    assert.match(text.stdout, /not run in BASE \(4\)/);
    assert.doesNotMatch(text.stdout, /added \(/);

    const json = JSON.parse(
      (await runInProcess(['compare', 'p.json', 'full.json', '--format', 'json'], dir)).stdout,
    ) as {
      base: { incomplete?: { cases: number; planned: number; shortRuns: unknown[] } };
      head: { incomplete?: unknown };
      runs: { cases: { added: unknown[]; notRunInBase?: unknown[] } }[];
    };
    assert.deepEqual(json.base.incomplete, {
      cases: 2,
      planned: 6,
      shortRuns: [{ suite: 's', params: {}, cases: 2, planned: 6 }],
    });
    assert.equal(json.head.incomplete, undefined);
    assert.equal(json.runs[0]?.cases.added.length, 0);
    assert.equal(json.runs[0]?.cases.notRunInBase?.length, 4);
  });

  it('says so in markdown, which renders on GitHub', async () => {
    const dir = project();
    await artifacts(dir);
    const md = await runInProcess(['compare', 'p.json', 'full.json', '--format', 'md'], dir);
    assert.equal(md.code, 0, md.stderr);
    assert.match(md.stdout, /⚠️ \*\*BASE is incomplete\*\* \(interrupted\): s has 2 of 6/);
    assert.match(md.stdout, /Not run in BASE \(4\)/);
    assert.doesNotMatch(md.stdout, /Added/);
    assert.match(renderGfm(md.stdout), /<strong>BASE is incomplete<\/strong>/);
  });

  it('says HEAD was cut short and lists the cases it did not reach as not run in HEAD', async () => {
    const dir = project();
    await artifacts(dir, 3);
    const text = await runInProcess(['compare', 'full.json', 'p.json'], dir);
    assert.match(text.stdout, /HEAD is incomplete \(interrupted\): s has 3 of 6 planned cases/);
    assert.match(text.stdout, /not run in HEAD \(3\)/);
    assert.doesNotMatch(text.stdout, /removed \(/);
  });

  it('warns in evals run --baseline too', async () => {
    const dir = project();
    await artifacts(dir);
    const run = await runInProcess(['run', '-o', 'again.json', '--baseline', 'p.json'], dir);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /BASE is incomplete/);
    assert.match(run.stdout, /not run in BASE \(4\)/);
  });
});
