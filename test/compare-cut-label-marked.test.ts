/**
 * A label the comparison keeps short (a reduced case keeps only the start of it) is marked as cut
 * wherever it is listed: a label of combining letters (`é` written as `e` and an accent, as
 * macOS and some keyboards write it) takes half as many columns as code units, so a cut by code
 * units could leave exactly 40 columns (or fewer), which the lists then showed with no `…`, as
 * if it were the whole label. A removed case, named from BASE's reduced case, and the markdown
 * form (cut at 50 columns) are checked too.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch } from './helpers/cli.ts';
import { artifact, run, type CaseSpec } from './helpers/compare-builder.ts';
import { runInProcess } from './helpers/in-process.ts';
import type { ResultsArtifact } from '../src/types/index.ts';

const id = (n: number): string => `${n}`.repeat(64).slice(0, 64);

/** 60 `é` as `e` + U+0301 (120 code units, 60 columns), then a word. */
const DECOMPOSED = `${'e\u0301'.repeat(60)} combining`;

const spec = (n: number, score: number): CaseSpec => ({ id: id(n), scores: { exact: score } });

function labelled(result: ResultsArtifact): ResultsArtifact {
  for (const r of result.runs) {
    for (const c of r.cases)
      c.data = {
        question: c.id === id(1) || c.id === id(3) ? DECOMPOSED : `q ${c.id.slice(0, 4)}`,
      };
  }
  return result;
}

function project(): string {
  const dir = scratch();
  // 1 newly failing, 3 removed (BASE only), 5-8 unchanged.
  const same = [5, 6, 7, 8].map((n) => spec(n, 1));
  const base = artifact([run('qa', {}, [spec(1, 1), spec(3, 1), ...same])]);
  const head = artifact([run('qa', {}, [spec(1, 0), ...same])], 'b'.repeat(40));
  writeFileSync(join(dir, 'base.json'), JSON.stringify(labelled(base)));
  writeFileSync(join(dir, 'head.json'), JSON.stringify(labelled(head)));
  return dir;
}

/** The quoted labels of the lines that name case `n`. */
function labelsOf(text: string, n: number): string[] {
  return text
    .split('\n')
    .filter((line) => line.includes(id(n).slice(0, 11)))
    .map((line) => /e\u0301[^"|]*/u.exec(line)?.[0] ?? '');
}

describe('evals compare marks a label it cut, also one of combining letters', () => {
  it('in text: the newly failing and the removed case end their label with …', async () => {
    const out = await runInProcess(['compare', 'base.json', 'head.json'], project());
    assert.equal(out.code, 0, out.stderr);
    for (const n of [1, 3]) {
      const labels = labelsOf(out.stdout, n);
      assert.ok(labels.length > 0, `case ${n} is listed:\n${out.stdout}`);
      for (const label of labels) assert.match(label, /…$/, `case ${n}: ${label}`);
    }
  });

  it('in markdown: the label is cut at 50 columns with …', async () => {
    const out = await runInProcess(
      ['compare', 'base.json', 'head.json', '--format', 'md'],
      project(),
    );
    assert.equal(out.code, 0, out.stderr);
    for (const n of [1, 3]) {
      const labels = labelsOf(out.stdout, n);
      assert.ok(labels.length > 0, `case ${n} is listed:\n${out.stdout}`);
      for (const label of labels) {
        assert.equal(label.trim(), `${'e\u0301'.repeat(49)}…`, `case ${n}`);
      }
    }
  });
});
