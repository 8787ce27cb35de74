/**
 * The comparison's text and markdown write a mean as every other report does (formatMean): a
 * mean short of 1 never reads as 1 (0.996, not `1.00`), so a run with a failed case never looks
 * perfect beside one without.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { artifact, run, type CaseSpec } from './helpers/compare-builder.ts';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

/** 250 cases scoring 1, except case 0 in BASE (mean 0.996; HEAD's is 1). */
function specs(missOne: boolean): CaseSpec[] {
  return Array.from({ length: 250 }, (_, i) => ({
    id: `c${i}`,
    scores: { exact: missOne && i === 0 ? 0 : 1 },
  }));
}

let dir = '';

before(() => {
  dir = scratch();
  const write = (name: string, missOne: boolean): void =>
    writeFileSync(join(dir, name), JSON.stringify(artifact([run('s', {}, specs(missOne))])));
  write('base.json', true);
  write('head.json', false);
});

describe('a compared mean just short of 1', () => {
  for (const format of ['text', 'md']) {
    it(`reads 0.996, never 1.00, in --format ${format}`, async () => {
      const compared = await runInProcess(
        ['compare', 'base.json', 'head.json', '--format', format],
        dir,
      );
      assert.equal(compared.code, 0, compared.stderr);
      assert.match(compared.stdout, /0\.996 → 1\.000/);
      assert.doesNotMatch(compared.stdout, /1\.00 → 1\.00/);
    });
  }
});
