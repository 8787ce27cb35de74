/**
 * Testset files read as streams: rows are read as they are taken, so a large testset never sits
 * in memory as text, parsed records and rows all at once (200,000 CSV rows took ~130 MB of
 * transient memory that way), and a run can read its cases again, case by case, instead of
 * holding them (see `prepare.ts`). CSV lines go through the same `CsvRowBuilder` as `parseCsv`,
 * cut into cells here while their quoted cells are whole and by csv-parse's streaming parser from
 * the first line that is not; JSON Lines are split into lines chunk by chunk and go through the
 * same `JsonlRowReader` as `parseJsonl`. A JSON file is one value, so it is still read whole
 * (`parseJson`).
 *
 * Every message stays what the text parsers say. The one place a stream lacks what they use is
 * a CSV syntax error, whose line:col is computed from the text: then the file is read whole and
 * `parseCsv` reports it, which costs nothing on the happy path.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { CsvError, parse } from 'csv-parse';
import type { Issue } from '../errors.ts';
import type { TestsetRow } from '../types.ts';
import { CSV_OPTIONS, CsvRowBuilder, parseCsv } from './csv.ts';
import type { TestsetFormat } from './formats.ts';
import type { TestsetParseResult } from './issues.ts';
import { parseJson } from './json.ts';
import { JsonlRowReader } from './jsonl.ts';

/**
 * Records handed to the row builder at once. Few: while a batch fills, the young generation is
 * collected every megabyte or so, and a record alive across two collections is promoted to the
 * old generation, where it stays as garbage until the next full collection. With 1,024 records
 * a batch, a 10,000-case run peaked ~2 MB higher (70.7 vs 68.6 MB, median of 6), at no
 * measurable speed difference.
 */
export const RECORD_BATCH = 32;

/** A file that could not be read (not a parse problem): its errno code and message. */
export class TestsetReadError extends Error {
  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** What streaming a file gave: no rows (they were handed over), or every problem found. */
export type StreamResult = { ok: true } | { ok: false; issues: Issue[] };

/**
 * Streams the rows of `absPath` to `onRow`, in file order. Resolves to the parse result (when it
 * is not ok, the rows already handed over must be dropped). Rejects with a
 * {@link TestsetReadError} when the file cannot be read.
 */
export async function streamTestsetRows(
  absPath: string,
  format: TestsetFormat,
  file: string,
  onRow: (row: TestsetRow) => void,
): Promise<StreamResult> {
  const batches = testsetRowBatches(absPath, format, file);
  try {
    for (;;) {
      const next = await batches.next();
      if (next.done) return next.value.ok ? { ok: true } : next.value;
      for (const row of next.value) onRow(row);
    }
  } catch (error) {
    if (error instanceof CsvError || !isErrno(error)) throw error;
    throw new TestsetReadError(error.code, error.message);
  }
}

/**
 * The rows of `absPath` in file order, a few at a time ({@link RECORD_BATCH}), read as they are
 * pulled: a reader that takes them slowly (a run, case by case) holds the file open at that place
 * with one chunk of it in memory. Returns the parse result, without rows (when it is not ok, the
 * rows already given must be dropped). Throws what reading the file throws (errno errors).
 */
export async function* testsetRowBatches(
  absPath: string,
  format: TestsetFormat,
  file: string,
): AsyncGenerator<TestsetRow[], TestsetParseResult> {
  if (format === 'csv') return yield* csvRowBatches(absPath, file);
  if (format === 'jsonl') return yield* jsonlRowBatches(absPath, file);
  const parsed = parseJson(await readFile(absPath, 'utf8'), file);
  if (!parsed.ok) return parsed;
  if (parsed.rows.length > 0) yield parsed.rows;
  return { ok: true, rows: [] };
}

/**
 * CSV rows, as `parseCsv` reads them. Lines are cut into cells here, at commas, as long as every
 * quoted cell is whole on its line ({@link splitQuotedLine}): with {@link CSV_OPTIONS} (no
 * trimming, no comments, quotes only as written) that is all csv-parse makes of such lines, and
 * most testsets have nothing else (JSON in a cell is quoted, but on one line). Doing it here
 * takes a third of the time (100,000 rows: ~55 instead of ~180 ms) and little of its garbage.
 * From the first other line on (a cell spanning lines, a stray quote), csv-parse reads the file
 * from its start again and the records already handed over are skipped: every line before that
 * one was a complete record, which csv-parse makes the same cells of.
 */
async function* csvRowBatches(
  absPath: string,
  file: string,
): AsyncGenerator<TestsetRow[], TestsetParseResult> {
  let rows: TestsetRow[] = [];
  const builder = new CsvRowBuilder(file, (row) => rows.push(row));
  // Records cut here and handed to the builder; those of the batch being filled are not.
  let handed = 0;
  let records: string[][] = [];
  let irregular = false;
  lines: for await (const lines of lineBatches(absPath)) {
    for (const line of lines) {
      // `split` is csv-parse's answer for a line without a quote, and the quicker one.
      const cells = line.includes('"') ? splitQuotedLine(line) : line.split(',');
      if (cells === null) {
        irregular = true;
        break lines;
      }
      records.push(cells);
      if (records.length < RECORD_BATCH) continue;
      builder.pushAll(records);
      handed += records.length;
      records = [];
      if (rows.length > 0) {
        yield rows;
        rows = [];
      }
    }
  }
  if (irregular) {
    // The records of the unfinished batch are read again by csv-parse, with the rest.
    records = [];
    const source = createReadStream(absPath);
    // `bom: true` drops a leading BOM, as parseCsv does before parsing.
    const parser = parse({ ...CSV_OPTIONS, bom: true });
    // `pipe` leaves a read error with the file stream: hand it to the parser, whose iteration
    // then throws it.
    source.on('error', (error) => parser.destroy(error));
    source.pipe(parser);
    let skip = handed;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        if (skip > 0) {
          skip--;
          continue;
        }
        records.push(record);
        if (records.length < RECORD_BATCH) continue;
        builder.pushAll(records);
        records = [];
        if (rows.length > 0) {
          yield rows;
          rows = [];
        }
      }
    } catch (error) {
      if (!(error instanceof CsvError)) throw error;
      // The syntax error's line:col comes from the text (see parseCsv); read it now, once.
      return parseCsv(await readFile(absPath, 'utf8'), file);
    } finally {
      source.destroy();
    }
  }
  builder.pushAll(records);
  if (rows.length > 0) yield rows;
  return builder.finish();
}

/**
 * The cells of a line holding a double quote, as csv-parse makes them with {@link CSV_OPTIONS},
 * when each quoted cell is whole on the line: the quote opens the cell, a lone quote closes it
 * right before a comma or the line's end, and quotes inside are doubled. Null for any other
 * line (an open quote whose cell goes on past the line break, a quote inside an unquoted cell,
 * text after a closing quote): csv-parse decides what those are.
 */
export function splitQuotedLine(line: string): string[] | null {
  const cells: string[] = [];
  let at = 0;
  for (;;) {
    if (line.charCodeAt(at) === 0x22) {
      let text = '';
      let from = at + 1;
      for (;;) {
        const quote = line.indexOf('"', from);
        if (quote === -1) return null;
        if (line.charCodeAt(quote + 1) !== 0x22) {
          cells.push(text + line.slice(from, quote));
          at = quote + 1;
          break;
        }
        text += line.slice(from, quote + 1);
        from = quote + 2;
      }
      if (at === line.length) return cells;
      if (line.charCodeAt(at) !== 0x2c) return null;
      at++;
    } else {
      const comma = line.indexOf(',', at);
      const cell = comma === -1 ? line.slice(at) : line.slice(at, comma);
      if (cell.includes('"')) return null;
      cells.push(cell);
      if (comma === -1) return cells;
      at = comma + 1;
    }
  }
}

async function* jsonlRowBatches(
  absPath: string,
  file: string,
): AsyncGenerator<TestsetRow[], TestsetParseResult> {
  let rows: TestsetRow[] = [];
  const reader = new JsonlRowReader(file, (row) => rows.push(row));
  for await (const lines of lineBatches(absPath)) {
    for (const line of lines) {
      reader.push(line);
      if (rows.length >= RECORD_BATCH) {
        yield rows;
        rows = [];
      }
    }
  }
  if (rows.length > 0) yield rows;
  return reader.finish();
}

/**
 * Bytes read at a time. A chunk's text and lines live until its last row was handed over, and
 * 64 KB of them (Node's default) outlived two young-generation collections, to be promoted to
 * the old generation and stay there as garbage: 16 KB chunks took a 10,000-case run's peak
 * ~1 MB lower, at the same CPU time for 100,000 rows.
 */
const CHUNK = 16 * 1024;

/**
 * The file's physical lines ({@link LineSplitter}), those of each chunk read at once. Breaking
 * off the iteration closes the file.
 */
async function* lineBatches(absPath: string): AsyncGenerator<string[]> {
  let lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line));
  for await (const chunk of createReadStream(absPath, { encoding: 'utf8', highWaterMark: CHUNK })) {
    splitter.push(chunk as string);
    if (lines.length === 0) continue;
    yield lines;
    lines = [];
  }
  // The text after the last line break. After a final break it is an empty line, which csv-parse
  // leaves out; the builder skips it as blank, and it follows every row, so no row's line moves.
  splitter.end();
  yield lines;
}

/**
 * Cuts text arriving in chunks into physical lines, the way `parseJsonl` splits it: at `\r\n`,
 * `\n` or a lone `\r`, a BOM at the very start dropped. A `\r` ending a chunk is held back until
 * the next chunk shows whether a `\n` follows, so a CRLF split across chunks is one break.
 */
export class LineSplitter {
  readonly #onLine: (line: string) => void;
  #rest = '';
  #started = false;

  constructor(onLine: (line: string) => void) {
    this.#onLine = onLine;
  }

  push(chunk: string): void {
    let text = this.#rest + chunk;
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    // The next LF and CR at or after `start`, each searched again only once passed (searching
    // both afresh per line would rescan the whole chunk for a CR that never comes).
    let lf = text.indexOf('\n');
    let cr = text.indexOf('\r');
    for (;;) {
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      const at = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
      if (at === -1) break;
      if (at === cr && at === text.length - 1) break; // a CR at the end: CRLF or not, see next
      this.#onLine(text.slice(start, at));
      start = at === cr && text.charCodeAt(at + 1) === 0x0a ? at + 2 : at + 1;
    }
    this.#rest = text.slice(start);
  }

  /** The last line (possibly empty, as `split` yields after a final break). */
  end(): void {
    const rest = this.#rest;
    this.#rest = '';
    if (rest.endsWith('\r')) {
      this.#onLine(rest.slice(0, -1));
      this.#onLine('');
    } else this.#onLine(rest);
  }
}

function isErrno(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}
