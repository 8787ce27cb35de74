import { CsvError, parse, type Options } from 'csv-parse/sync';
import type { Issue } from '../errors.ts';
import type { TestsetRow } from '../types.ts';
import { IssueList, type TestsetParseResult } from './issues.ts';
import { countLineBreaks, LineCursor } from './line-cursor.ts';
import {
  DATA_DEDUP_KEY,
  META_COLUMNS,
  decodeJsonText,
  isReservedKey,
  isSpace,
  normalizeMeta,
  setDataKey,
  type RawMeta,
} from './rows.ts';

/**
 * csv-parse settings. Empty lines are NOT skipped by the parser: each comes back as a record
 * `['']`, which keeps the physical line count exact (see {@link CsvRowBuilder}). Column counts are
 * checked here so every bad row is reported, not just the first. `relax_quotes` keeps a quote
 * inside an unquoted cell (`5" screen`) as text, which is what a hand-written file means.
 */
const CSV_OPTIONS: Options = {
  skip_empty_lines: false,
  relax_column_count: true,
  relax_quotes: true,
};

/**
 * Parses CSV text into rows. A header row is required; a leading BOM is ignored; CRLF, LF and CR
 * line ends are accepted; cells holding a JSON array or object are decoded, every other cell
 * stays a string. Blank lines, and rows whose cells are all empty, are skipped.
 */
export function parseCsv(text: string, file: string): TestsetParseResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let records: string[][];
  try {
    records = parse(body, CSV_OPTIONS);
  } catch (error) {
    if (error instanceof CsvError)
      return { ok: false, issues: [csvSyntaxIssue(error, body, file)] };
    throw error;
  }
  const builder = new CsvRowBuilder(file);
  for (const record of records) builder.push(record);
  return builder.finish();
}

function csvSyntaxIssue(error: CsvError, body: string, file: string): Issue {
  // csv-parse reports a UTF-8 byte offset (where the failing field starts); its own "at line N"
  // counts the line where parsing stopped, which for an unclosed quote is the end of the file.
  const bytes = typeof error.bytes === 'number' ? error.bytes : 0;
  let offset = Buffer.from(body, 'utf8').subarray(0, bytes).toString('utf8').length;
  let message = `invalid CSV: ${error.message}`;
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
    // The offset is the end of the last complete cell; the culprit is the next quote.
    const quote = body.indexOf('"', offset);
    if (quote !== -1) offset = quote;
    message = 'a quoted cell that starts here is never closed (a missing or stray " character)';
  }
  const { line, col } = new LineCursor(body).positionAt(offset);
  return { code: 'testset.csv-syntax', file, line, col, path: '', message };
}

/** Where a header column's cells go. */
interface ColumnPlan {
  /** Indexes and names of the data columns. */
  dataIndex: number[];
  dataName: string[];
  /** Indexes of metadata columns and the `RawMeta` field each fills. */
  metaIndex: number[];
  metaField: (keyof RawMeta)[];
}

/**
 * Turns parsed CSV records into rows, one record at a time, so the same code serves a streaming
 * parser later.
 *
 * Line numbers: each record is one physical line plus the line breaks inside its quoted cells
 * (the only place a line break can hide; every other break ends a record, blank lines included).
 * Counting those gives the line where each record STARTS, exactly, with CRLF, LF or CR files.
 * csv-parse's own `info.lines` is not usable for this: it is the line where the record ends and
 * counts a CRLF inside a quoted cell as two lines.
 */
export class CsvRowBuilder {
  readonly #issues: IssueList;
  readonly #rows: TestsetRow[] = [];
  #plan: ColumnPlan | null = null;
  #headerOk = true;
  #width = 0;
  #nextLine = 1;

  constructor(file: string) {
    this.#issues = new IssueList(file);
  }

  /** Feeds the next record, in file order, blank records included. */
  push(record: string[]): void {
    const line = this.#nextLine;
    const lastIndex = record.length - 1;
    let breaks = 0;
    for (let i = 0; i <= lastIndex; i++) {
      const cell = record[i] ?? '';
      if (cell.includes('\n') || cell.includes('\r')) {
        // A trailing CR on the last cell is half of a CRLF record end when csv-parse chose LF.
        breaks += countLineBreaks(cell, i === lastIndex);
      }
    }
    this.#nextLine = line + 1 + breaks;

    if (isBlank(record)) return;
    if (this.#plan === null) {
      this.#plan = this.#readHeader(record, line);
      return;
    }
    // A broken header makes every row's columns meaningless; its issues say enough.
    if (!this.#headerOk) return;
    if (record.length !== this.#width) {
      this.#issues.add(
        'testset.csv-columns',
        line,
        0,
        `expected ${this.#width} cells (one per header column), found ${record.length}`,
      );
      return;
    }
    const row = this.#buildRow(this.#plan, record, line);
    if (row) this.#rows.push(row);
  }

  /** Every row, or every problem found. */
  finish(): TestsetParseResult {
    if (this.#plan === null) {
      this.#issues.add(
        'testset.csv-header',
        1,
        0,
        'the file is empty: a CSV testset starts with a header row of column names',
      );
    }
    return this.#issues.empty
      ? { ok: true, rows: this.#rows }
      : { ok: false, issues: this.#issues.toArray() };
  }

  #readHeader(record: string[], line: number): ColumnPlan {
    const plan: ColumnPlan = { dataIndex: [], dataName: [], metaIndex: [], metaField: [] };
    const seen = new Map<string, number>();
    this.#width = record.length;
    record.forEach((cell, index) => {
      // Spaces around a column name are formatting, never part of the name.
      const name = cell.trim();
      if (name === '') {
        this.#issues.add(
          'testset.csv-header',
          line,
          0,
          `column ${index + 1} of the header has no name: every column needs one`,
        );
        this.#headerOk = false;
        return;
      }
      const first = seen.get(name);
      if (first !== undefined) {
        this.#issues.add(
          'testset.csv-header',
          line,
          0,
          `column name ${JSON.stringify(name)} appears twice in the header (columns ${first + 1} and ${index + 1})`,
        );
        this.#headerOk = false;
        return;
      }
      seen.set(name, index);
      if (isReservedKey(name)) {
        plan.metaIndex.push(index);
        plan.metaField.push(name === DATA_DEDUP_KEY ? 'dataDedupId' : META_COLUMNS[name]);
      } else {
        plan.dataIndex.push(index);
        plan.dataName.push(name);
      }
    });
    return plan;
  }

  #buildRow(plan: ColumnPlan, record: string[], line: number): TestsetRow | null {
    const data: Record<string, unknown> = {};
    const { dataIndex, dataName } = plan;
    for (let i = 0; i < dataIndex.length; i++) {
      setDataKey(data, dataName[i] ?? '', decodeJsonText(record[dataIndex[i] ?? 0] ?? ''));
    }
    if (plan.metaIndex.length === 0) return { data, line, meta: {} };
    const raw: RawMeta = {};
    for (let i = 0; i < plan.metaIndex.length; i++) {
      const field = plan.metaField[i];
      if (field !== undefined) raw[field] = record[plan.metaIndex[i] ?? 0];
    }
    const meta = normalizeMeta(raw, line, this.#issues);
    return meta && { data, line, meta };
  }
}

function isBlank(record: string[]): boolean {
  for (const cell of record) {
    // Typical cells start with a visible character: no need to trim them.
    if (cell.length > 0 && !isSpace(cell.charCodeAt(0))) return false;
    if (cell.trim() !== '') return false;
  }
  return true;
}
