/** Reading the results artifact that an end-to-end CLI test wrote (`test/cli*.test.ts`). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateArtifact } from '../../src/artifact/schema.ts';
import type { GateCondition, ResultsArtifact } from '../../src/types/index.ts';

/** The artifact at `path`, asserted to match the results schema. */
export function readArtifact(path: string): ResultsArtifact {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  assert.deepEqual(validateArtifact(value), [], 'the artifact matches schemas/results.schema.json');
  return value as ResultsArtifact;
}

/**
 * The condition `name` of the first run's gate in the artifact at `path`, read as written (not
 * validated: a test of one rule reads only it); undefined when the gate has no such condition.
 */
export function gateCondition(path: string, name: string): GateCondition | undefined {
  const artifact = JSON.parse(readFileSync(path, 'utf8')) as ResultsArtifact;
  return artifact.runs[0]?.gate.conditions.find((c) => c.name === name);
}
