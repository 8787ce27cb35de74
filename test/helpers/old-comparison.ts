/**
 * Artifacts whose `comparison` is in the shape an evalgate before 2026-11-26 wrote, for the tests
 * of what reads them (`resume-old-comparison`, `merge-old-comparison`): a project whose runs are
 * made by the real CLI, and the old block (from that evalgate's own output, a fixture) put in
 * place of a file's comparison.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultsArtifact } from '../../src/types/index.ts';
import { jsonlProject, runInProcess } from './in-process.ts';

/** A comparison as the evalgate of 2026-11-25 wrote it (the fixture is that evalgate's output). */
const OLD_FIXTURE = join(
  import.meta.dirname,
  '..',
  'fixtures',
  'e2e',
  'compared-2026-11-25',
  'head.json',
);

/** The results file `file` of the project `dir`. */
export function readResults(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

/**
 * A project of four rows whose function passes them all, after `evals run` with each of `runs`
 * (its arguments after `run`), each of which must exit 0.
 */
export async function projectAfterRuns(runs: readonly string[][]): Promise<string> {
  const dir = jsonlProject(
    [{ q: 'a' }, { q: 'b' }, { q: 'c' }, { q: 'd' }],
    [
      'function: ./app/answer.mjs#answer',
      'evaluators: [ { use: contains, with: { values: ["!"] } } ]',
    ],
    { 'app/answer.mjs': 'export const answer = ({ testCase }) => testCase.q + "!";\n' },
  );
  for (const args of runs) {
    const r = await runInProcess(['run', ...args], dir, {});
    assert.equal(r.code, 0, r.stdout + r.stderr);
  }
  return dir;
}

/** Replaces the comparison of `dir`/`file` (which must have one) by a block in the old shape. */
export function putOldComparison(dir: string, file: string): void {
  const artifact = readResults(dir, file) as unknown as Record<string, unknown>;
  assert.ok(artifact.comparison, `${file} was compared`);
  artifact.comparison = (
    JSON.parse(readFileSync(OLD_FIXTURE, 'utf8')) as { comparison: unknown }
  ).comparison;
  writeFileSync(join(dir, file), JSON.stringify(artifact, null, 2));
}
