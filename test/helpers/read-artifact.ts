/** Reading the results artifact that an end-to-end CLI test wrote (`test/cli*.test.ts`). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateArtifact } from '../../src/artifact/schema.ts';
import type { ResultsArtifact } from '../../src/types/index.ts';

/** The artifact at `path`, asserted to match the results schema. */
export function readArtifact(path: string): ResultsArtifact {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  assert.deepEqual(validateArtifact(value), [], 'the artifact matches schemas/results.schema.json');
  return value as ResultsArtifact;
}
