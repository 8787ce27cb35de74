/**
 * An interrupted artifact made from a whole one, for tests of what reads results: a run as an
 * interrupt leaves it (its first cases finished, `interrupted: true`, a failing `complete`
 * condition), without having to time a signal.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultsArtifact } from '../../src/types/index.ts';

/**
 * Writes `to` (in `dir`): the artifact `from` as if interrupted after the first `kept` cases of
 * its run number `run` (the first by default), which all passed; its other runs stay whole. With
 * `kept` at the run's every case, the interrupt came after the last case: the artifact is marked
 * `interrupted` while no run lacks a case.
 */
export function writeInterrupted(
  dir: string,
  from: string,
  to: string,
  kept: number,
  run = 0,
): void {
  const full = JSON.parse(readFileSync(join(dir, from), 'utf8')) as ResultsArtifact;
  const cut = full.runs[run];
  assert.ok(cut, `${from} has a run ${run}`);
  const short = kept < cut.testset.cases;
  const partial: ResultsArtifact = {
    ...full,
    interrupted: true,
    verdict: 'fail',
    runs: full.runs.map((whole, index) =>
      index !== run
        ? whole
        : {
            ...whole,
            verdict: short ? 'fail' : whole.verdict,
            cases: whole.cases.slice(0, kept),
            summary: { ...whole.summary, cases: kept, passed: kept },
            gate: {
              conditions: [
                ...whole.gate.conditions,
                ...(short
                  ? [
                      {
                        name: 'complete',
                        expected: `${whole.testset.cases} cases`,
                        actual: `${kept} finished (interrupted)`,
                        passed: false,
                      },
                    ]
                  : []),
              ],
            },
          },
    ),
  };
  writeFileSync(join(dir, to), JSON.stringify(partial));
}
