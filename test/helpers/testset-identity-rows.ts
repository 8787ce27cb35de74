/** Rows and prepared cases for the testset identity tests (the `capitals` testset). */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTestset, type TestsetFormat } from '../../src/testsets/formats.ts';
import { prepareCases, type PrepareCasesOptions } from '../../src/testsets/identity.ts';
import type { TestsetRow } from '../../src/types/index.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'testsets');

/** The hex sha256 of `text`. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A testset row with `data` read at `line`, carrying `meta`. */
export function row(
  data: Record<string, unknown>,
  line: number,
  meta: TestsetRow['meta'] = {},
): TestsetRow {
  return { data, line, meta };
}

/**
 * `prepareCases` for the `capitals` testset in `testsets/capitals.csv`, asserting it found no
 * issues.
 */
export function prepared(rows: TestsetRow[], options: Partial<PrepareCasesOptions> = {}) {
  const result = prepareCases(rows, {
    testsetId: 'capitals',
    file: 'testsets/capitals.csv',
    ...options,
  });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result;
}

/** The rows of `test/fixtures/testsets/<name>`, read in the format its extension names. */
export function fixtureRows(name: string): TestsetRow[] {
  const format = name.split('.').pop() as TestsetFormat;
  const result = parseTestset(readFileSync(join(fixtures, name), 'utf8'), format, name);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result.rows;
}
