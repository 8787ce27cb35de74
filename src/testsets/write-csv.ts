/**
 * The CSV form of a testset for the writer: a header of the data keys and the metadata columns in
 * use, then a line per row, with every loss a CSV file brings reported (a missing key, a number
 * that reads back as text, a row of blank cells that readers skip, a lone surrogate, a carriage
 * return).
 */
import type { TestsetRow } from '../types/index.ts';
import { kindOf, quoteShort, type Scrub } from './json-safe.ts';
import { DATA_DEDUP_KEY, decodeJsonText, isSpace } from './rows.ts';
import { CONTENT, CSV_CONTENT, META_ORDER, type WrittenRow } from './written-row.ts';

/** Reports a problem of row `row` (-1: of the whole testset) at `field`. */
export type RowReport = (row: number, field: string, message: string) => void;

/** Lone surrogates: fine in a JS string, replaced by U+FFFD when the text is saved as UTF-8. */
const LONE_SURROGATE = /\p{Cs}/u;
const NEEDS_QUOTES = /[",\r\n]/;

/** Metadata columns in header order, the dedup id under either of its names (`dedupStyle`). */
const CSV_META_COLUMNS = META_ORDER.flatMap(([column]) =>
  column === '__dedup_id__' ? [column, DATA_DEDUP_KEY] : [column],
);

/** A CSV cell: quoted when it holds a delimiter, a quote, a line break, or edge spaces. */
function csvCell(text: string): string {
  if (text === '') return '';
  const quote =
    NEEDS_QUOTES.test(text) ||
    isSpace(text.charCodeAt(0)) ||
    isSpace(text.charCodeAt(text.length - 1));
  return quote ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The CSV text of `written` (the rows `rows` made JSON-safe): the data keys in first-seen order,
 * then the metadata columns that are non-empty in some row; LF line ends and a final newline. A
 * value a problem quotes short is scrubbed with `scrub` first.
 */
export function csvText(
  rows: TestsetRow[],
  written: WrittenRow[],
  report: RowReport,
  scrub: Scrub,
): string {
  // Data columns in first-seen order; where each first appears, for header problems.
  const firstRow = new Map<string, number>();
  written.forEach((row, index) => {
    for (const key of Object.keys(row.data)) if (!firstRow.has(key)) firstRow.set(key, index);
  });
  const dataColumns = [...firstRow.keys()];

  // Metadata cells per row; a column is written only when some row has something in it.
  const metaCells = written.map((row) => {
    const cells = new Map<string, string>();
    for (const [column, value] of row.meta) cells.set(column, metaCellText(value));
    return cells;
  });
  const metaColumns = CSV_META_COLUMNS.filter((column) =>
    metaCells.some((cells) => (cells.get(column) ?? '') !== ''),
  );

  for (const [key, index] of firstRow) {
    if (key.trim() === '') {
      report(
        index,
        key,
        `field ${JSON.stringify(key)} has a blank name: a CSV header column needs a name`,
      );
    } else if (key.trim() !== key) {
      report(
        index,
        key,
        `field ${JSON.stringify(key)} has spaces around its name: CSV readers trim column names, so it would read back as ${JSON.stringify(key.trim())} in every row`,
      );
    }
    if (LONE_SURROGATE.test(key)) {
      report(index, key, `field name ${JSON.stringify(key)} ${SURROGATE_LOSS}`);
    }
    if (key.includes('\r')) {
      report(index, key, `field name ${JSON.stringify(key)} ${carriageReturnLoss(key, scrub)}`);
    }
  }
  if (rows.length === 0) {
    report(
      -1,
      '',
      'the testset has no rows, so no columns: a CSV file needs a header row, and an empty one reads back as an error',
    );
  }

  const lines: string[] = [];
  lines.push([...dataColumns, ...metaColumns].map(csvCell).join(','));
  written.forEach((row, index) => {
    const original = rows[index]?.data ?? {};
    const cells: string[] = [];
    for (const key of dataColumns) {
      const say = (message: string): void => report(index, key, message);
      const text = dataCellText(key, original, row.data, say, scrub);
      cells.push(text);
    }
    const rowMeta = metaCells[index] ?? new Map<string, string>();
    for (const column of metaColumns) {
      const text = rowMeta.get(column) ?? '';
      if (LONE_SURROGATE.test(text)) report(index, column, `${column} ${SURROGATE_LOSS}`);
      if (text.includes('\r')) {
        report(index, column, `${column} ${carriageReturnLoss(text, scrub)}`);
      }
      cells.push(text);
    }
    if (cells.every((cell) => cell.trim() === '')) {
      report(
        index,
        '',
        'every cell of this row would be empty or blank: CSV readers skip such a row, so it would be lost and the revision would change',
      );
    }
    const header = [...dataColumns, ...metaColumns];
    if (header.length > 1 && cells.every((cell, i) => cell.trim() === header[i]?.trim())) {
      report(
        index,
        '',
        "every cell of this row is its column's name: CSV readers refuse such a row as a repeated header row",
      );
    }
    lines.push(cells.map(csvCell).join(','));
  });
  return `${lines.join('\n')}\n`;
}

/**
 * Why text with a carriage return does not survive a CSV file: the reader takes every line break
 * inside a quoted cell (CRLF, a lone CR) as `\n`, so that a checkout with other line ends reads
 * the same rows.
 */
function carriageReturnLoss(text: string, scrub: Scrub): string {
  // Scrubbed as written, then as it would read back: a secret may hold a line break itself.
  const readBack = scrub(text).replace(/\r\n?/g, '\n');
  return `holds a carriage return (\\r), and ${CSV_CONTENT} ${quoteShort(readBack, scrub)} (a CSV reader takes every line break in a cell as \\n), ${CONTENT}`;
}

const SURROGATE_LOSS =
  'holds a lone surrogate (broken UTF-16), which a UTF-8 CSV file cannot hold: it would be saved as U+FFFD';

/**
 * The text of a data cell, reporting what would not read back: a missing key, a value that is not
 * text, an array or an object, and text the reader would decode as JSON.
 */
function dataCellText(
  key: string,
  original: Record<string, unknown>,
  data: Record<string, unknown>,
  report: (message: string) => void,
  scrub: Scrub,
): string {
  const field = `field ${JSON.stringify(key)}`;
  if (!Object.hasOwn(data, key)) {
    // A key written as undefined was already reported by the JSON check.
    if (!Object.hasOwn(original, key)) {
      report(
        `${field} is missing from this row (other rows have it): ${CSV_CONTENT} the empty string "", ${CONTENT}`,
      );
    }
    return '';
  }
  const value = data[key];
  if (typeof value === 'string') {
    const decoded = decodeJsonText(value);
    if (decoded !== value) {
      report(
        `${field} is the text ${quoteShort(value, scrub)}, which holds JSON: ${CSV_CONTENT} ${Array.isArray(decoded) ? 'an array' : 'an object'}, ${CONTENT}`,
      );
    }
    if (LONE_SURROGATE.test(value)) report(`${field} ${SURROGATE_LOSS}`);
    if (value.includes('\r')) report(`${field} ${carriageReturnLoss(value, scrub)}`);
    return value;
  }
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  // What is left after the JSON check: a number, a boolean or null.
  const text = typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
  report(
    `${field} is ${kindOf(value, scrub)}: ${CSV_CONTENT} the string ${JSON.stringify(text)}, ${CONTENT}`,
  );
  return text;
}

/** A metadata cell: text as it is, anything else as its JSON text (readers decode it back). */
function metaCellText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value) ?? '';
}
