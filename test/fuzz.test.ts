/**
 * A short seeded fuzz run (the long one is `npm run fuzz`): mutated configs and testsets through
 * `evals validate` and `evals run`, in this process for speed and a handful through the built
 * CLI. Every outcome must be exit 0, 1 or 2, with no stack trace and no hang (FUZZ_TIME_LIMIT_MS).
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { fuzzProject } from '../scripts/fuzz-inputs.ts';
import { fuzzChild, fuzzInProcess, type FuzzOutcome } from '../scripts/fuzz-run.ts';

const SEED = 2022;
const BIN = fileURLToPath(new URL('../bin/evals.js', import.meta.url));

function describeFailures(failures: { index: number; outcome: FuzzOutcome }[]): string {
  return failures
    .slice(0, 5)
    .map(
      ({ index, outcome }) =>
        `seed ${SEED} index ${index} (${outcome.command}): ${outcome.problem}\n${outcome.stderr.slice(0, 400)}`,
    )
    .join('\n');
}

describe('fuzzed configs and testsets', () => {
  it('300 projects in process: every outcome is exit 0/1/2, no stack trace, no hang', async () => {
    const failures: { index: number; outcome: FuzzOutcome }[] = [];
    const codes = new Set<number | null>();
    for (let index = 0; index < 300; index++) {
      const outcome = await fuzzInProcess(
        fuzzProject(SEED, index),
        index % 3 === 2 ? 'run' : 'validate',
      );
      codes.add(outcome.code);
      if (outcome.problem !== null) failures.push({ index, outcome });
    }
    assert.deepEqual(failures, [], describeFailures(failures));
    // The mutations reach both sides: some projects stay valid, some are refused.
    assert.ok(codes.has(0) && codes.has(2), `exit codes seen: ${[...codes].join(', ')}`);
  });

  it('6 projects through the built CLI (bin/evals.js): the same holds in a real process', () => {
    const failures: { index: number; outcome: FuzzOutcome }[] = [];
    for (let index = 0; index < 6; index++) {
      const outcome = fuzzChild(
        fuzzProject(SEED + 1, index),
        index % 2 === 0 ? 'validate' : 'run',
        BIN,
      );
      if (outcome.problem !== null) failures.push({ index, outcome });
    }
    assert.deepEqual(failures, [], describeFailures(failures));
  });
});
