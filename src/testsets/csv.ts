import { CsvError, parse, type Options } from 'csv-parse/sync';
import type { Issue } from '../shared/errors.ts';
import type { TestsetRow } from '../types/index.ts';
import { IssueList, type TestsetParseResult } from './issues.ts';
import { recordLayout, positionInRecord } from './csv-positions.ts';
import type { Scrub } from '../shared/json-syntax.ts';
import { duplicateJsonKeys, duplicateKeyMessage } from './json-keys.ts';
import { inexactJsonNumbers, inexactNumberMessage } from './json-numbers.ts';
import { countLineBreaks, LineCursor } from './line-cursor.ts';
import {
  DATA_DEDUP_KEY,
  META_COLUMNS,
  decodeJsonText,
  isReservedKey,
  NO_META,
  normalizeMeta,
  type RawMeta,
} from './rows.ts';
import { setOwn } from '../shared/own-key.ts';

/**
 * csv-parse settings. Every line break outside quotes ends a record — CRLF, LF and a lone CR
 * alike, even mixed in one file (csv-parse would otherwise pick the first kind it meets and keep
 * the others as text). Empty lines are NOT skipped by the parser: each comes back as a record
 * `['']`, which keeps the physical line count exact (see {@link CsvRowBuilder}). Column counts
 * are checked here so every bad row is reported, not just the first. `relax_quotes` keeps a
 * quote inside an unquoted cell (`5" screen`) as text, which is what a hand-written file means;
 * but it would also keep a quoted cell with an undoubled quote inside (`"say "hi" now"`) as
 * text, quotes and all, so each record comes with its raw text (`raw`) to check such a cell.
 */
export const CSV_OPTIONS: Options = {
  record_delimiter: ['\r\n', '\n', '\r'],
  skip_empty_lines: false,
  relax_column_count: true,
  relax_quotes: true,
  raw: true,
};

/** CRLF and a lone CR: what a line break inside a quoted cell is read as `\n` from. */
const LINE_BREAKS = /\r\n?/g;

/** A record as csv-parse gives it with {@link CSV_OPTIONS}: its cells and its text. */
export interface CsvRecord {
  record: string[];
  raw: string;
}

/** The same settings without `relax_quotes`, to find a malformed quoted cell in a record's text. */
const STRICT_OPTIONS: Options = { ...CSV_OPTIONS, relax_quotes: false, raw: false };

/**
 * Parses CSV text into rows. A header row is required; a leading BOM is ignored; CRLF, LF and CR
 * line ends are accepted, and a line break inside a quoted cell is read as `\n` whichever it is;
 * cells holding a JSON array or object are decoded, every other cell stays a string. Blank
 * lines, and rows whose cells are all empty, are skipped.
 */
export function parseCsv(text: string, file: string): TestsetParseResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let records: CsvRecord[];
  try {
    records = parse(body, CSV_OPTIONS) as unknown as CsvRecord[];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    return { ok: false, issues: [csvSyntaxIssue(error, body, file)] };
  }
  const builder = new CsvRowBuilder(file);
  builder.pushAll(records);
  return builder.finish();
}

/** The issue for a CSV syntax error, positioned in `body` (the text without its BOM). */
export function csvSyntaxIssue(error: CsvError, body: string, file: string): Issue {
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
  /** A data column named `__proto__` needs care to stay a plain key (see setOwn). */
  protoColumn: boolean;
}

/**
 * Turns parsed CSV records into rows. Records can be fed in any number of batches, so the same
 * code serves the streaming reader (`stream-read.ts`).
 *
 * Line numbers: each record is one physical line plus the line breaks inside its quoted cells,
 * the only place a line break can hide (with {@link CSV_OPTIONS} every other break ends a
 * record, blank lines included). Counting those gives the line where each record STARTS,
 * exactly, whatever the line ends. csv-parse's own `info.lines` is not usable for this: it is
 * the line where the record ends, and it counts a CRLF inside a quoted cell as two lines.
 */
export class CsvRowBuilder {
  readonly #issues: IssueList;
  readonly #rows: TestsetRow[] = [];
  /** Where rows go when streaming; without it they are collected for `finish`. */
  readonly #onRow: ((row: TestsetRow) => void) | undefined;
  #plan: ColumnPlan | null = null;
  #headerOk = true;
  #width = 0;
  /** The header's column names, every column's, to tell a header repeated further down. */
  #names: string[] = [];
  #nextLine = 1;
  /** Removes the run's secrets from a cell's key or number a problem quotes, before it is cut. */
  readonly #scrub: Scrub | undefined;

  /**
   * With `onRow`, each row is handed over as soon as it is built and `finish` returns no rows (a
   * streaming reader keeps none); a row handed over may still be followed by issues in later
   * rows, so the caller must wait for `finish` before trusting any of them.
   */
  constructor(file: string, onRow?: (row: TestsetRow) => void, scrub?: Scrub) {
    this.#issues = new IssueList(file);
    this.#onRow = onRow;
    this.#scrub = scrub;
  }

  /** Feeds the next record, in file order, blank records included. */
  push(record: CsvRecord): void {
    this.pushAll([record]);
  }

  /**
   * Feeds records in file order, blank records included. The per-record work is written out in
   * this one loop, not spread over helpers: a 10,000-row file is read once, mostly before the JIT
   * has optimised anything, and every call per cell shows in the timing.
   */
  pushAll(records: readonly CsvRecord[]): void {
    for (const { record, raw: text } of records) {
      const line = this.#nextLine;
      let breaks = 0;
      let blank = true;
      let quoteLed = false;
      for (let i = 0; i < record.length; i++) {
        const cell = record[i] ?? '';
        if (cell.includes('\n') || cell.includes('\r')) {
          breaks += countLineBreaks(cell);
          // A break inside a quoted cell is `\n` whatever the file's line ends: a checkout with
          // core.autocrlf turns it into CRLF, and the rows (content ids, revision) must not
          // change with the platform. Every break outside quotes ends a record, so this is the
          // only place one can hide.
          if (cell.includes('\r')) record[i] = cell.replace(LINE_BREAKS, '\n');
        }
        if (blank && cell.length > 0) {
          const lead = cell.charCodeAt(0);
          blank = lead > 0x20 && lead < 0x7f ? false : cell.trim() === '';
        }
        if (cell.charCodeAt(0) === 0x22) quoteLed = true;
      }
      this.#nextLine = line + 1 + breaks;
      if (blank) continue;
      // A cell that still starts with a quote is either `"""x"" y"` (fine) or a malformed
      // quoted cell kept as text by relax_quotes; only the record's text tells which.
      if (quoteLed && this.#malformedQuote(text, line)) continue;

      const plan = this.#plan;
      if (plan === null) {
        this.#plan = this.#readHeader(record, text, line);
        continue;
      }
      // A broken header makes every row's columns meaningless; its issues say enough.
      if (!this.#headerOk) continue;
      if (record.length !== this.#width) {
        this.#issues.add(
          'testset.csv-columns',
          line,
          0,
          `expected ${this.#width} cells (one per header column), found ${record.length}`,
        );
        continue;
      }

      // `cat a.csv b.csv > all.csv` keeps b's header as a row: a case whose every cell is its
      // column's name. One column is left alone: there, a value may well be the column's name
      // (a `word` list holding "word"), and such a file has no other cell to tell.
      if (this.#width > 1 && record[0]?.trim() === this.#names[0] && this.#repeatsHeader(record)) {
        this.#issues.add(
          'testset.csv-header',
          line,
          1,
          "this row repeats the header (every cell is its column's name), as when CSV files are joined with cat: delete the line; to join CSV files, keep the header of the first only (tail -n +2 b.csv >> a.csv)",
        );
        continue;
      }

      const data: Record<string, unknown> = {};
      const { dataIndex, dataName } = plan;
      let lossy = false;
      for (let i = 0; i < dataIndex.length; i++) {
        const cell = record[dataIndex[i] ?? 0] ?? '';
        const lead = cell.charCodeAt(0);
        // Only a cell starting with a bracket or a space can hold JSON (see decodeJsonText).
        let value: unknown = cell;
        if (lead === 0x5b || lead === 0x7b || lead <= 0x20 || lead >= 0x7f) {
          value = decodeJsonText(cell);
          const at = dataIndex[i] ?? 0;
          if (value !== cell && this.#lossyJson(cell, text, line, at, dataName[i] ?? '')) {
            lossy = true;
          }
        }
        if (plan.protoColumn) setOwn(data, dataName[i] ?? '', value);
        else data[dataName[i] ?? ''] = value;
      }
      if (lossy) continue;
      if (plan.metaIndex.length === 0) {
        this.#emit({ data, line, meta: NO_META });
        continue;
      }
      const raw: RawMeta = {};
      for (let i = 0; i < plan.metaIndex.length; i++) {
        const field = plan.metaField[i];
        if (field !== undefined) raw[field] = record[plan.metaIndex[i] ?? 0];
      }
      const meta = normalizeMeta(raw, line, this.#issues);
      if (meta) this.#emit({ data, line, meta });
    }
  }

  /** Whether every cell of `record` is the name of its column, spaces around it aside. */
  #repeatsHeader(record: readonly string[]): boolean {
    return record.every((cell, i) => cell.trim() === this.#names[i]);
  }

  /** Reports and returns true when `raw` holds a quoted cell with an undoubled quote inside. */
  #malformedQuote(raw: string, line: number): boolean {
    try {
      parse(raw, STRICT_OPTIONS);
      return false;
    } catch (error) {
      if (!(error instanceof CsvError) || error.code !== 'CSV_INVALID_CLOSING_QUOTE') return false;
      // csv-parse says which cell, not where in it: find the quote that closes it too early.
      const stray = recordLayout(raw).strayQuote;
      const at = stray === -1 ? { line, col: 0 } : positionInRecord(raw, line, stray);
      this.#issues.add(
        'testset.csv-syntax',
        at.line,
        at.col,
        'a quoted cell holds a " that is not doubled: inside quotes write each " as "" ("How do I ""reset"" it?"), or leave the cell unquoted',
      );
      return true;
    }
  }

  /**
   * Reports and returns true when the JSON of a cell, decoded, would not be what it says: a key
   * given twice (JSON.parse keeps the last) or a number a double cannot keep. The JSON readers
   * refuse both; a cell must not pass what a file may not.
   */
  #lossyJson(cell: string, raw: string, line: number, column: number, name: string): boolean {
    const problems = [
      ...duplicateJsonKeys(cell).map(
        ({ key }) =>
          ['testset.duplicate-key' as const, duplicateKeyMessage(key, this.#scrub)] as const,
      ),
      ...inexactJsonNumbers(cell, name).map(
        (number) =>
          ['testset.inexact-number' as const, inexactNumberMessage(number, this.#scrub)] as const,
      ),
    ];
    if (problems.length === 0) return false;
    const start = recordLayout(raw).cellStarts[column] ?? 0;
    const at = positionInRecord(raw, line, start);
    for (const [code, message] of problems) {
      this.#issues.add(code, at.line, at.col, `column ${JSON.stringify(name)} (JSON): ${message}`);
    }
    return true;
  }

  #emit(row: TestsetRow): void {
    if (this.#onRow === undefined) this.#rows.push(row);
    else this.#onRow(row);
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

  #readHeader(record: string[], raw: string, line: number): ColumnPlan {
    const plan: ColumnPlan = {
      dataIndex: [],
      dataName: [],
      metaIndex: [],
      metaField: [],
      protoColumn: false,
    };
    const seen = new Map<string, number>();
    this.#width = record.length;
    this.#names = record.map((cell) => cell.trim());
    const foreign = foreignSeparator(record, raw);
    if (foreign !== null) {
      const at = positionInRecord(raw, line, foreign.offset);
      this.#issues.add('testset.csv-header', at.line, at.col, foreign.message);
      this.#headerOk = false;
      return plan;
    }
    // Where a header cell starts, worked out only for a header with a problem.
    const colOf = (index: number): number =>
      positionInRecord(raw, line, recordLayout(raw).cellStarts[index] ?? 0).col;
    record.forEach((cell, index) => {
      // Spaces around a column name are formatting, never part of the name.
      const name = cell.trim();
      if (name === '') {
        this.#issues.add(
          'testset.csv-header',
          line,
          colOf(index),
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
          colOf(index),
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
        if (name === '__proto__') plan.protoColumn = true;
      }
    });
    return plan;
  }
}

/**
 * A header written for another separator, which read with commas would make a testset of one
 * column holding whole lines: Excel's `sep=;` line, or a header of one column that holds a `;`
 * or a tab (Excel's CSV where the decimal mark is a comma, a TSV file). Its message and offset
 * in the header's text; null for a header of commas.
 */
function foreignSeparator(
  record: string[],
  raw: string,
): { offset: number; message: string } | null {
  const hint = /^sep=(.?)\s*$/i.exec(raw);
  if (hint) {
    const other =
      hint[1] === ',' || hint[1] === '' ? '' : ' and save the file with commas between cells';
    return {
      offset: 0,
      message: `the first line ${JSON.stringify(raw.trim())} is Excel's separator line, not a header of column names: delete it${other}`,
    };
  }
  if (record.length !== 1 || raw.charCodeAt(0) === 0x22) return null;
  const offset = raw.search(/[;\t]/);
  if (offset === -1) return null;
  const shown = raw.charAt(offset) === ';' ? '";"' : 'tabs';
  return {
    offset,
    message: `the header is one column, ${JSON.stringify(raw.trim())}: cells of a CSV testset are separated by commas, but this file seems to use ${shown}: save it as comma-separated CSV`,
  };
}
