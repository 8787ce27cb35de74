/**
 * A partial artifact whose `comparison` block is damaged (a field of the wrong type) was refused
 * by `--resume` as an invalid file, though resuming makes the comparison again over every case
 * and never reads the old one. It is now left out with a warning naming its problems, and the
 * finished artifact holds the comparison made again; anything else damaged is still refused.
 * Without `--baseline` it compares with the baseline the block's `base` still names, checked to
 * be the run it records; when that part is damaged too, it is refused, saying which part: the
 * block was the record of the baseline the run was gated against, and finishing uncompared would
 * let `regressions: block` gate nothing.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { mulberry32 } from '../src/compare/sign-flip.ts';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const ROWS = [{ q: 'a' }, { q: 'b' }, { q: 'c' }, { q: 'd' }];
const FILES = { 'app/answer.mjs': 'export const answer = ({ testCase }) => testCase.q + "!";\n' };
const SUITE = [
  'function: ./app/answer.mjs#answer',
  'evaluators: [ { use: contains, with: { values: ["!"] } } ]',
];

const read = (dir: string, file: string): ResultsArtifact =>
  JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;

/** A project with base.json, and partial.json: interrupted after 2 cases, compared with base. */
async function comparedPartial(
  damage: (artifact: Record<string, unknown>) => void,
): Promise<string> {
  const dir = jsonlProject(ROWS, SUITE, FILES);
  for (const args of [
    ['-o', 'base.json'],
    ['--baseline', 'base.json', '-o', 'full.json'],
  ]) {
    const r = await runInProcess(['run', ...args], dir, {});
    assert.equal(r.code, 0, r.stdout + r.stderr);
  }
  assert.ok(read(dir, 'full.json').comparison, 'the run was compared');
  writeInterrupted(dir, 'full.json', 'partial.json', 2);
  const partial = read(dir, 'partial.json') as unknown as Record<string, unknown>;
  damage(partial);
  writeFileSync(join(dir, 'partial.json'), JSON.stringify(partial, null, 2));
  return dir;
}

const baseOf = (artifact: Record<string, unknown>): Record<string, unknown> =>
  (artifact.comparison as Record<string, unknown>).base as Record<string, unknown>;

const garbleCounts = (artifact: Record<string, unknown>): void => {
  (artifact.comparison as Record<string, unknown>).counts = 'garbled';
};

describe('--resume of a partial whose comparison block is damaged', () => {
  it('leaves it out, says why, and compares again with --baseline', async () => {
    const dir = await comparedPartial(garbleCounts);
    const r = await runInProcess(
      ['run', '--resume', 'partial.json', '--baseline', 'base.json', '-o', 'out.json'],
      dir,
      {},
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /warning: --resume partial\.json: its comparison block is damaged \(\/comparison\/counts: [^\n]*\); it is left out, and the comparison is made again over every case/,
    );
    const out = read(dir, 'out.json');
    assert.equal(out.interrupted, false);
    assert.equal(out.runs[0]?.cases.length, 4);
    assert.equal(typeof out.comparison?.counts, 'object');
    assert.equal((out.comparison?.base as { path?: string } | undefined)?.path, 'base.json');
    assert.deepEqual(validateArtifact(out), []);
  });

  it('without --baseline, and its base.path damaged too, is refused (exit 2): finished uncompared, regressions: block would gate nothing', async () => {
    const dir = await comparedPartial((artifact) => {
      garbleCounts(artifact);
      baseOf(artifact).path = 7;
    });
    const r = await runInProcess(['run', '--resume', 'partial.json', '-o', 'out.json'], dir, {});
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /partial\.json was compared with a baseline, but its comparison block is damaged and no longer says which \(its base\.path, the baseline file, is damaged or missing\): pass --baseline FILE/,
    );
    assert.equal(existsSync(join(dir, 'out.json')), false, 'nothing was run');
  });

  it('without --baseline, compares again with the baseline its damaged block still names', async () => {
    const dir = await comparedPartial(garbleCounts);
    const r = await runInProcess(['run', '--resume', 'partial.json', '-o', 'out.json'], dir, {});
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /comparison is made again over every case with the baseline --baseline names, or without it base\.json, which the damaged block still names \(checked to be the run it records\)/,
    );
    assert.match(r.stderr, /note: comparing with base\.json, the baseline partial\.json records/);
    const out = read(dir, 'out.json');
    assert.equal(out.runs[0]?.cases.length, 4);
    assert.equal((out.comparison?.base as { path?: string } | undefined)?.path, 'base.json');
    assert.equal(out.comparison?.base.startedAt, read(dir, 'base.json').startedAt);
    assert.deepEqual(validateArtifact(out), []);
  });

  it('without --baseline, refuses (exit 2) the file its damaged block names when it now holds another run', async () => {
    const dir = await comparedPartial(garbleCounts);
    const r0 = await runInProcess(['run', '-o', 'base.json'], dir, {});
    assert.equal(r0.code, 0, r0.stdout + r0.stderr);
    const r = await runInProcess(['run', '--resume', 'partial.json', '-o', 'out.json'], dir, {});
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /base\.json is no longer partial\.json's baseline: it holds a run of /);
    assert.equal(existsSync(join(dir, 'out.json')), false, 'nothing was run');
  });

  it('without --baseline, says which part of the base is damaged when the run it held cannot be checked', async () => {
    const dir = await comparedPartial((artifact) => {
      garbleCounts(artifact);
      baseOf(artifact).startedAt = 12;
    });
    const r = await runInProcess(['run', '--resume', 'partial.json', '-o', 'out.json'], dir, {});
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /no longer says which \(it names base\.json, but base\.startedAt, which says which run that file held, is damaged, so the file cannot be checked to be the run the interrupted one compared with\): pass --baseline FILE/,
    );
  });

  it('still refuses a partial damaged elsewhere too', async () => {
    const dir = await comparedPartial((artifact) => {
      garbleCounts(artifact);
      artifact.durationMs = 'slow';
    });
    const r = await runInProcess(['run', '--resume', 'partial.json', '-o', 'out.json'], dir, {});
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /\/durationMs/);
  });

  it('seeded fuzz: any value put anywhere in the block, the run is resumed and compared again', async () => {
    const random = mulberry32(5107);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const values: unknown[] = [null, 'x', -1, 1.5, true, [], {}, [{}], { a: 1 }];
    for (let i = 0; i < 10; i++) {
      const dir = await comparedPartial((artifact) => {
        // A random path down the comparison block, its last step given a random value.
        let node = artifact.comparison as Record<string, unknown>;
        for (let depth = 0; depth < 6; depth++) {
          const keys = Object.keys(node);
          if (keys.length === 0) break;
          const key = pick(keys);
          const next = node[key];
          if (depth > 0 && (typeof next !== 'object' || next === null || random() < 0.3)) {
            node[key] = pick(values);
            return;
          }
          if (typeof next !== 'object' || next === null) break;
          node = next as Record<string, unknown>;
        }
        delete node[pick(Object.keys(node))];
      });
      const r = await runInProcess(
        ['run', '--resume', 'partial.json', '--baseline', 'base.json', '-o', 'out.json'],
        dir,
        {},
      );
      assert.equal(r.code, 0, `seed 5107 case ${i}: ${r.stdout}${r.stderr}`);
      const out = read(dir, 'out.json');
      assert.equal(out.runs[0]?.cases.length, 4, `seed 5107 case ${i}`);
      assert.deepEqual(validateArtifact(out), [], `seed 5107 case ${i}`);
    }
  });
});
