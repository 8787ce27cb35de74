/** Prepared cases for engine-level tests: ids `c0`, `c1`, … and a source line per row. */
import type { PreparedCase } from '../../src/types.ts';

export function preparedCases(rows: Record<string, unknown>[]): PreparedCase[] {
  return rows.map((data, i) => ({
    id: `c${i}`,
    contentId: `content-${i}`,
    source: { file: 'cases.jsonl', line: i + 1 },
    data,
    meta: {},
  }));
}
