/**
 * `evals report RESULTS --baseline BASE` reads BASE, so neither report it writes may be BASE:
 * `-o BASE` (arguments swapped, or a name reused) replaced the baseline results with an HTML page
 * and said only `HTML report written`. Refused as `-o RESULTS` is (exit 2, nothing written), also
 * through a symbolic link, for `--junit` too.
 */
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch } from './helpers/cli.ts';
import { artifact, run, type CaseSpec } from './helpers/compare-builder.ts';
import { runInProcess } from './helpers/in-process.ts';

const spec = (n: number): CaseSpec => ({ id: `c${n}`, scores: { exact: 1 } });

function project(): { dir: string; base: string } {
  const dir = scratch();
  const cases = [1, 2, 3].map(spec);
  const base = JSON.stringify(artifact([run('qa', {}, cases)]));
  writeFileSync(join(dir, 'base.json'), base);
  writeFileSync(
    join(dir, 'head.json'),
    JSON.stringify(artifact([run('qa', {}, cases)], 'b'.repeat(40))),
  );
  symlinkSync('base.json', join(dir, 'link.json'));
  return { dir, base };
}

describe('evals report never writes over its baseline', () => {
  for (const [name, args] of [
    ['-o BASE', ['-o', 'base.json']],
    ['-o through a link to BASE', ['-o', 'link.json']],
    ['--junit BASE', ['-o', 'report.html', '--junit', 'base.json']],
  ] as const) {
    it(`refuses ${name} (exit 2) and leaves the baseline as it was`, async () => {
      const { dir, base } = project();
      const out = await runInProcess(
        ['report', 'head.json', '--baseline', 'base.json', ...args],
        dir,
      );
      assert.equal(out.code, 2, out.stderr);
      assert.match(out.stderr, /the baseline \(--baseline base\.json\); name another file/);
      assert.equal(readFileSync(join(dir, 'base.json'), 'utf8'), base);
    });
  }
});
