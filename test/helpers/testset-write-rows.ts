/** Rows, written text and parsed text for the `serializeTestset` tests. */
import assert from 'node:assert/strict';
import { parseTestset, type TestsetFormat } from '../../src/testsets/formats.ts';
import { serializeTestset, type SerializeOptions } from '../../src/testsets/write.ts';
import type { RowMeta, TestsetRow } from '../../src/types/index.ts';

/** A testset row with `data` and `meta`, read at `line` (2 unless given). */
export function row(data: Record<string, unknown>, meta: RowMeta = {}, line = 2): TestsetRow {
  return { data, line, meta };
}

/** The text, asserting the writer found nothing to report. */
export function text(
  rows: TestsetRow[],
  format: TestsetFormat,
  options?: SerializeOptions,
): string {
  const result = serializeTestset(rows, format, options);
  assert.ok(result.ok, JSON.stringify(result));
  return result.text;
}

/** The rows read back from `source` in `format`, asserting the reader found nothing wrong. */
export function parse(source: string, format: TestsetFormat): TestsetRow[] {
  const result = parseTestset(source, format, `cases.${format}`);
  assert.ok(result.ok, JSON.stringify(result));
  return result.rows;
}
