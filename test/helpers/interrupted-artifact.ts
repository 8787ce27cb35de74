/**
 * An interrupted artifact made from a whole one, for tests of what reads results: the run as an
 * interrupt leaves it (its first cases finished, `interrupted: true`, a failing `complete`
 * condition), without having to time a signal.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultsArtifact } from '../../src/types/index.ts';

/**
 * Writes `to` (in `dir`): the one-run artifact `from` as if interrupted after its first `kept`
 * cases, which all passed.
 */
export function writeInterrupted(dir: string, from: string, to: string, kept: number): void {
  const full = JSON.parse(readFileSync(join(dir, from), 'utf8')) as ResultsArtifact;
  const run = full.runs[0];
  assert.ok(run, `${from} has a run`);
  const partial: ResultsArtifact = {
    ...full,
    interrupted: true,
    verdict: 'fail',
    runs: [
      {
        ...run,
        verdict: 'fail',
        cases: run.cases.slice(0, kept),
        summary: { ...run.summary, cases: kept, passed: kept },
        gate: {
          conditions: [
            ...run.gate.conditions,
            {
              name: 'complete',
              expected: `${run.testset.cases} cases`,
              actual: `${kept} finished (interrupted)`,
              passed: false,
            },
          ],
        },
      },
    ],
  };
  writeFileSync(join(dir, to), JSON.stringify(partial));
}
