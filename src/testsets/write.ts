/**
 * Writing testsets: rows to CSV, JSON or JSONL text that reads back as the same rows, or the list
 * of what would not.
 */
import type { TestsetRow } from '../types/index.ts';
import type { TestsetFormat } from './formats.ts';
import { DATA_DEDUP_KEY } from './rows.ts';
import { csvText } from './write-csv.ts';
import { writtenRow, type WrittenRow } from './written-row.ts';

/** Options of {@link serializeTestset}. */
export interface SerializeOptions {
  /**
   * How a row's dedup id is written: `column` as `__dedup_id__` (Agenta's CSV column), `data` as
   * `testcase_dedup_id` (Agenta's JSON-payload key). Readers accept both. Default: `column` for
   * CSV, `data` for JSON and JSONL.
   */
  dedupStyle?: 'column' | 'data';
  /**
   * Removes secrets from what the problems say (`evals testset convert` passes the run's
   * scrubber): their fields and messages, and first a value a message quotes cut short, since a
   * secret cut at the `..."` would keep its first characters, which no scrub of the finished
   * message recognises. Default: none. The text written is never scrubbed: it is the testset.
   */
  scrub?: (text: string) => string;
}

/** Something in a row that the target format would not give back as it is. */
export interface SerializeProblem {
  /** 0-based index of the row in the list given; -1 for a problem of the whole testset. */
  row: number;
  /** The row's source line (`TestsetRow.line`); 0 for a problem of the whole testset. */
  line: number;
  /** The data key or metadata column concerned (as written); '' for the whole row or file. */
  field: string;
  /** What the value is and what it would read back as. */
  message: string;
}

/**
 * The testset's text, or the problems that stop it from reading back unchanged. `text` is there
 * in both cases: on failure it is what the writer produced anyway (each problem says what it
 * changes), for a caller that chooses to accept those changes; most callers should refuse.
 */
export type SerializeResult =
  { ok: true; text: string } | { ok: false; problems: SerializeProblem[]; text: string };

/**
 * Text of `rows` in `format`, such that `parseTestset(text, format)` gives rows with the same
 * data and metadata, in the same order (the revision is over the ordered content ids), hence the
 * same content ids, case ids and revision. Source lines are not kept: they belong to the file
 * the rows were read from.
 *
 * - CSV: a header of the data keys in first-seen order, then the metadata columns that are
 *   non-empty in some row (`__id__`, `__dedup_id__`, `__flags__`, `__tags__`, `__meta__`); arrays
 *   and objects as their JSON text; LF line ends and a final newline. Only strings, arrays and
 *   objects survive a CSV cell, and every row must have every key: anything else is a problem.
 * - JSON: an array of row objects, 2-space indented. JSONL: one compact object per line. Each
 *   object is the row's data followed by its metadata keys, present ones only.
 *
 * Problems are collected, never thrown: values JSON cannot hold, data keys readers would take for
 * metadata, metadata readers would normalise (untrimmed ids and tags, empty values), and the CSV
 * losses above.
 */
export function serializeTestset(
  rows: TestsetRow[],
  format: TestsetFormat,
  options: SerializeOptions = {},
): SerializeResult {
  const style = options.dedupStyle ?? (format === 'csv' ? 'column' : 'data');
  const scrub = options.scrub ?? ((text: string): string => text);
  const dedupColumn = style === 'data' ? DATA_DEDUP_KEY : '__dedup_id__';
  const problems: SerializeProblem[] = [];
  const report = (row: number, field: string, message: string): void => {
    problems.push({
      row,
      line: rows[row]?.line ?? 0,
      field: scrub(field),
      message: scrub(message),
    });
  };
  const written = rows.map((row, index) =>
    writtenRow(row, format, dedupColumn, (field, message) => report(index, field, message), scrub),
  );

  let text: string;
  if (format === 'csv') {
    text = csvText(rows, written, report, scrub);
  } else if (format === 'json') {
    text = `${JSON.stringify(written.map(rowObject), null, 2)}\n`;
  } else {
    text = written.map((row) => `${JSON.stringify(rowObject(row))}\n`).join('');
  }
  if (problems.length === 0) return { ok: true, text };
  // Header problems are found after the row checks; list everything in file order.
  problems.sort((a, b) => a.row - b.row);
  return { ok: false, problems, text };
}

/** The JSON/JSONL object of a row: its data, then its metadata keys. */
function rowObject(row: WrittenRow): Record<string, unknown> {
  // Spreading defines properties, so a `__proto__` data key stays a plain key.
  const object: Record<string, unknown> = { ...row.data };
  for (const [column, value] of row.meta) object[column] = value;
  return object;
}
