/**
 * `evals run --resume` and `--tag`: a resumption runs the selection of the interrupted run. The
 * `--tag` filter the partial records is used when `--tag` is left out; the same one may be
 * given again; another is refused, naming both, with the partial left as it was. A partial that
 * records none (a run without `--tag`) is not finished with a `--tag` that selects other rows.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

/** Rows 1..8: odd ones tagged `a`, even ones `b`. */
function project(): string {
  const dir = scratch();
  const rows = Array.from({ length: 8 }, (_, i) => `${i + 1},${(i + 1) % 2 === 1 ? 'a' : 'b'}`);
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.csv }',
      '    function: ./fn.mjs#echo',
      '    evaluators:',
      '      - { id: same, use: is-equals, with: { expected: "{{case.n}}" } }',
      '',
    ].join('\n'),
    'rows.csv': `n,__tags__\n${rows.join('\n')}\n`,
    'fn.mjs': 'export const echo = ({ testCase }) => String(testCase.n);\n',
  });
  return dir;
}

const read = (path: string): ResultsArtifact =>
  JSON.parse(readFileSync(path, 'utf8')) as ResultsArtifact;

/** The partial an interrupted `evals run ...tags` leaves: its first case only (part.json). */
async function interrupted(dir: string, tags: string[]): Promise<string> {
  const full = await runCli(['run', ...tags, '-o', 'full.json'], { cwd: dir });
  assert.equal(full.code, 0, full.stderr);
  const artifact = read(join(dir, 'full.json'));
  artifact.runs[0]!.cases = artifact.runs[0]!.cases.slice(0, 1);
  artifact.interrupted = true;
  const text = `${JSON.stringify(artifact, null, 2)}\n`;
  writeFileSync(join(dir, 'part.json'), text);
  return text;
}

/** The `n` of each case of the finished run, in order. */
const rowsOf = (artifact: ResultsArtifact): unknown[] =>
  artifact.runs[0]!.cases.map((c) => Number((c.data as { n: string }).n));

describe('evals run --resume with --tag', () => {
  const dir = project();

  for (const given of [[], ['--tag', 'a']]) {
    it(`finishes a run made with --tag a ${given.length === 0 ? 'without --tag: its own filter' : 'with the same --tag'}`, async () => {
      await interrupted(dir, ['--tag', 'a']);
      const r = await runCli(['run', '--resume', 'part.json', ...given, '-o', 'done.json'], {
        cwd: dir,
      });
      assert.equal(r.code, 0, r.stderr);
      const done = read(join(dir, 'done.json'));
      assert.deepEqual(rowsOf(done), [1, 3, 5, 7]);
      assert.deepEqual(done.runs[0]!.testset.tagFilter, ['a']);
      assert.equal(done.interrupted, false);
    });
  }

  for (const other of [
    ['--tag', 'b'],
    ['--tag', 'a', '--tag', 'b'],
  ]) {
    it(`refuses ${other.join(' ')} for a run made with --tag a, naming both, and leaves the partial`, async () => {
      const text = await interrupted(dir, ['--tag', 'a']);
      const r = await runCli(['run', '--resume', 'part.json', ...other], { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      const thisRun = other.length === 2 ? 'with --tag b' : 'with --tag a --tag b';
      assert.equal(
        r.stderr,
        `error: part.json  suite s: part.json ran with --tag a, this run ${thisRun}; resume with the filters of the interrupted run (leave --tag out to use its own)\n`,
      );
      assert.equal(readFileSync(join(dir, 'part.json'), 'utf8'), text);
    });
  }

  it('refuses a --tag for a run made without one, saying to leave it out', async () => {
    const text = await interrupted(dir, []);
    const r = await runCli(['run', '--resume', 'part.json', '--tag', 'a'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      'error: part.json  suite s: part.json planned 8 cases, this run plans 4 with --tag a; part.json records no --tag filter: it ran without --tag (leave --tag out), or an earlier evalgate wrote it (pass the --tag filters it ran with)\n',
    );
    assert.equal(readFileSync(join(dir, 'part.json'), 'utf8'), text);
    const r2 = await runCli(['run', '--resume', 'part.json', '-o', 'all.json'], { cwd: dir });
    assert.equal(r2.code, 0, r2.stderr);
    assert.deepEqual(rowsOf(read(join(dir, 'all.json'))), [1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
