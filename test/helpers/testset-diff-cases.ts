/** Prepared capitals cases for the testset diff and table tests. */
import assert from 'node:assert/strict';
import { parseTestset } from '../../src/testsets/formats.ts';
import { prepareCases, type PrepareCasesOptions } from '../../src/testsets/identity.ts';
import type { PreparedCase, RowMeta, TestsetRow } from '../../src/types/index.ts';

/** The testset file every prepared case names as its source. */
export const FILE = 'testsets/capitals.csv';

/** `prepareCases` for the `capitals` testset in {@link FILE}, asserting it found no issues. */
export function prepare(rows: TestsetRow[], options: Partial<PrepareCasesOptions> = {}) {
  const result = prepareCases(rows, { testsetId: 'capitals', file: FILE, ...options });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result;
}

/** Parses CSV text and prepares its rows as {@link prepare} does, asserting both succeed. */
export function fromCsv(text: string, options: Partial<PrepareCasesOptions> = {}) {
  const parsed = parseTestset(text, 'csv', FILE);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
  return prepare(parsed.rows, options);
}

/** Rows on consecutive lines from 2, as a CSV with a header would have them. */
export function rows(...specs: [Record<string, unknown>, RowMeta?][]): TestsetRow[] {
  return specs.map(([data, meta], index) => ({ data, line: index + 2, meta: meta ?? {} }));
}

/** The prepared cases of {@link rows} built from `specs`. */
export function cases(...specs: [Record<string, unknown>, RowMeta?][]): PreparedCase[] {
  return prepare(rows(...specs)).cases;
}

/** Matches ANSI color escape sequences. */
// eslint-disable-next-line no-control-regex
export const ANSI = /\x1b\[[0-9;]*m/g;
