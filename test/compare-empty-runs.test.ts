/**
 * Two artifacts whose every run has no case (a suite with `allowEmpty: true`, a filter that
 * selected nothing) are not the wrong pair of files: `evals compare` compares them, says that no
 * case was compared, and exits 0, instead of refusing them (exit 2) as sharing no case.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { artifact, run } from './helpers/compare-builder.ts';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

let dir = '';

before(() => {
  dir = scratch();
  const empty = JSON.stringify(artifact([run('s', {}, [])]));
  writeFileSync(join(dir, 'base.json'), empty);
  writeFileSync(join(dir, 'head.json'), empty);
  const other = artifact([run('s', {}, [{ id: 'c1', scores: { exact: 1 } }])]);
  writeFileSync(join(dir, 'other.json'), JSON.stringify(other));
});

describe('comparing runs that have no case', () => {
  for (const format of ['text', 'md']) {
    it(`compares nothing and exits 0 (--format ${format})`, async () => {
      const compared = await runInProcess(
        ['compare', 'base.json', 'head.json', '--format', format],
        dir,
      );
      assert.equal(compared.code, 0, compared.stdout + compared.stderr);
      assert.match(compared.stdout, /s( ·| ) 0 cases compared/);
      assert.doesNotMatch(compared.stdout + compared.stderr, /no common cases/);
    });
  }

  it('still refuses a run with cases against another that shares none', async () => {
    const compared = await runInProcess(['compare', 'other.json', 'head.json'], dir);
    assert.equal(compared.code, 2);
    assert.match(compared.stderr, /no common cases/);
  });
});
