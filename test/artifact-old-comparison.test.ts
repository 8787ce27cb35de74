/**
 * An artifact whose `comparison` an evalgate before 2026-11-26 recorded, in the shape it had
 * then (a bootstrap interval and McNemar per row, settings with `iterations`, no `family`),
 * within schemaVersion 1: written by that evalgate itself (test/fixtures/e2e/compared-2026-11-25,
 * see its README). It was refused whole (exit 2) by every reader since the comparison is
 * checked field by field; the comparison is only a record, so it is now left out with a note,
 * and the file is read as a baseline, by `evals show`, `evals report` and `evals compare`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { runCli, scratch } from './helpers/cli.ts';

let dir: string;
before(() => {
  dir = scratch('compared-2026-11-25');
});

const NOTE =
  /^note: head\.json: its comparison with a baseline, recorded by evalgate 0\.1\.0 in the shape used before 2026-11-26, was ignored \(this evalgate does not read that shape\); its results are read as usual, and evals compare BASE head\.json compares them again$/m;

describe('a comparison recorded before 2026-11-26', () => {
  it('is in the old shape (the fixture is what that evalgate wrote)', () => {
    const head = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as {
      schemaVersion: number;
      comparison: { settings: Record<string, unknown> } & Record<string, unknown>;
    };
    assert.equal(head.schemaVersion, 1);
    assert.deepEqual(Object.keys(head.comparison.settings).sort(), [
      'confidence',
      'iterations',
      'minPaired',
      'seed',
    ]);
    assert.equal('family' in head.comparison, false);
  });

  for (const argv of [
    ['show', 'head.json'],
    ['report', 'head.json', '-o', 'head.html'],
    ['compare', 'base.json', 'head.json'],
  ]) {
    it(`is ignored with a note by evals ${argv[0]}, which reads the rest`, async () => {
      const result = await runCli(argv, { cwd: dir });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stderr, NOTE);
      assert.doesNotMatch(result.stderr, /error|missing property/);
    });
  }

  it('is ignored in a baseline, which is compared afresh from its cases', async () => {
    const result = await runCli(['run', '-o', 'new.json', '--baseline', 'head.json'], { cwd: dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stderr, NOTE);
    const written = JSON.parse(readFileSync(join(dir, 'new.json'), 'utf8')) as {
      comparison?: { family?: unknown; runs: unknown[] };
    };
    assert.ok(written.comparison?.family, 'the new run is compared with the baseline');
    assert.equal(written.comparison.runs.length, 1);
  });
});
