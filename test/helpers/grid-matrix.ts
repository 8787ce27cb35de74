/**
 * The grid matrix of a run's terminal summary, read back from its output: tests that put wide
 * (CJK) grid values in it check that its columns line up by display width.
 */
import assert from 'node:assert/strict';
import { textWidth } from '../../src/shared/text-table.ts';

/**
 * Asserts that `output` holds the matrix of grid key `key` with `values` as its rows, in order,
 * and that its verdict column starts at one display column on every line.
 */
export function assertMatrixLinesUp(output: string, key: string, values: readonly string[]): void {
  const lines = output.split('\n');
  const header = lines.findIndex((line) => new RegExp(`^ +${key} +verdict`).test(line));
  const table = lines.slice(header, header + 1 + values.length);
  assert.deepEqual(
    table.map((line) => line.trim().split(/ {2,}/)[0]),
    [key, ...values],
    output,
  );
  // A CJK character takes two columns: measured as one, the verdict column would wander.
  const verdictAt = table.map((line) => textWidth(line.slice(0, line.search(/verdict|PASS|FAIL/))));
  assert.equal(new Set(verdictAt).size, 1, table.join('\n'));
}
