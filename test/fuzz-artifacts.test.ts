/**
 * Seeded fuzz of the commands that read results artifacts (`show`, `compare`, `merge`, `report`,
 * `override`, `run --baseline`, `run --resume`): artifacts a real run wrote, damaged as files get
 * damaged (scripts/fuzz-artifacts.ts), in this process for speed and a handful through the built
 * CLI. Every outcome must be exit 0, 1 or 2, with no stack trace and no hang (FUZZ_TIME_LIMIT_MS).
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import { artifactBases, fuzzArtifactCase, type ArtifactBases } from '../scripts/fuzz-artifacts.ts';
import { fuzzChild, fuzzInProcess, type FuzzOutcome } from '../scripts/fuzz-run.ts';

const SEED = 4031;
const BIN = fileURLToPath(new URL('../bin/evals.js', import.meta.url));

function describeFailures(failures: { index: number; outcome: FuzzOutcome }[]): string {
  return failures
    .map(
      ({ index, outcome }) =>
        `seed ${SEED} index ${index} (${outcome.command}): ${outcome.problem}\n${outcome.stderr.slice(0, 400)}`,
    )
    .join('\n');
}

describe('fuzzed results artifacts', () => {
  let bases: ArtifactBases;
  before(async () => {
    bases = await artifactBases();
  });

  it('240 damaged artifacts in process: every outcome is exit 0/1/2, no stack trace, no hang', async () => {
    const failures: { index: number; outcome: FuzzOutcome }[] = [];
    const codes = new Set<number | null>();
    for (let index = 0; index < 240; index++) {
      const { project, argv } = fuzzArtifactCase(SEED, index, bases);
      const outcome = await fuzzInProcess(project, argv);
      codes.add(outcome.code);
      if (outcome.problem !== null) failures.push({ index, outcome });
    }
    assert.deepEqual(failures, [], describeFailures(failures));
    // The damage reaches both sides: some artifacts are still read, some are refused.
    assert.ok(
      codes.has(2) && (codes.has(0) || codes.has(1)),
      `exit codes seen: ${[...codes].join(', ')}`,
    );
  });

  it('6 damaged artifacts through the built CLI (bin/evals.js): the same holds in a real process', () => {
    const failures: { index: number; outcome: FuzzOutcome }[] = [];
    for (let index = 0; index < 6; index++) {
      const { project, argv } = fuzzArtifactCase(SEED + 1, index, bases);
      const outcome = fuzzChild(project, argv, BIN);
      if (outcome.problem !== null) failures.push({ index, outcome });
    }
    assert.deepEqual(failures, [], describeFailures(failures));
  });
});
