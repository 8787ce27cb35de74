/**
 * A pin written as bare digits (`revision: 000000`) is a number to YAML. `evals run` and
 * `evals testset pin --check` refuse it where it is written, saying to quote it; `evals testset
 * pin`, whose job is to write the pin, rewrites it quoted, even when the digits match.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';

/** A testset whose revision starts with six decimal digits: 573066a29ab5… */
const ROWS = 'q\nrow 5\n';
const CURRENT = '573066a29ab5';

function project(revision: string): string {
  return suiteProject(
    [
      `testset: { path: rows.csv, revision: ${revision} } # the pin`,
      'function: ./fn.mjs#fn',
      'evaluators:',
      '  - { id: ok, use: is-equals, with: { expected: "x" } }',
    ],
    { 'rows.csv': ROWS, 'fn.mjs': 'export const fn = () => "x";\n' },
  );
}

const pinLine = (dir: string): string | undefined =>
  readFileSync(join(dir, 'evals.yaml'), 'utf8').split('\n')[3];

describe('a pin YAML reads as a number', () => {
  it('is refused by run and pin --check at its line and column, saying to quote it or run pin', async () => {
    const dir = project('000000');
    for (const args of [['run'], ['testset', 'pin', '--check']]) {
      const r = await runCli(args, { cwd: dir });
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(
        r.stderr,
        'error: evals.yaml:4:42  suites[0].testset.revision: expected a revision id of 6 to 64 lowercase hex digits in quotes, found 000000 written bare, which YAML reads as the number 0: write it in quotes ("000000"), or run `evals testset pin` to write the current revision quoted\n',
      );
    }
    assert.equal(pinLine(dir), '    testset: { path: rows.csv, revision: 000000 } # the pin');
  });

  for (const [written, why] of [
    ['000000', 'read as 0'],
    ['573066', 'matching the testset: still rewritten, quoted'],
  ] as const) {
    it(`is rewritten by pin (${written}: ${why}), and then runs`, async () => {
      const dir = project(written);
      const pin = await runCli(['testset', 'pin'], { cwd: dir });
      assert.equal(pin.code, 0, pin.stderr);
      assert.equal(
        pin.stdout,
        `pinned s: ${CURRENT} (was ${written}, which YAML read as a number)\nupdated evals.yaml\n`,
      );
      // Twelve digits the new pin has are not all decimal here, so they are written plain.
      assert.equal(pinLine(dir), `    testset: { path: rows.csv, revision: ${CURRENT} } # the pin`);
      const check = await runCli(['testset', 'pin', '--check'], { cwd: dir });
      assert.equal(check.code, 0, check.stderr);
      const run = await runCli(['run', '-o', 'out.json'], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
    });
  }

  it('keeps the length of a long pin written as digits', async () => {
    const dir = project('5730660000000000000000000000000000000000');
    const pin = await runCli(['testset', 'pin'], { cwd: dir });
    assert.equal(pin.code, 0, pin.stderr);
    assert.match(pinLine(dir) ?? '', /revision: 573066a29ab5[0-9a-f]{28} \}/);
  });
});
