/**
 * Testset files read as streams: rows are handed over as the file is read, so a large testset
 * never sits in memory as text, parsed records and rows all at once (200,000 CSV rows took
 * ~130 MB of transient memory that way). CSV lines go through the same `CsvRowBuilder` as
 * `parseCsv`, cut into cells here while their quoted cells are whole and by csv-parse's
 * streaming parser from the first line that is not; JSON Lines are split into lines chunk by chunk and go
 * through the same `JsonlRowReader` as `parseJsonl`. A JSON file is one value, so it is still
 * read whole (`parseJson`).
 *
 * Every message stays what the text parsers say. The one place a stream lacks what they use is
 * a CSV syntax error, whose line:col is computed from the text: then the file is read whole and
 * `parseCsv` reports it, which costs nothing on the happy path.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
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

/**
 * Streams the rows of `absPath` to `onRow`, in file order. Resolves to the parse result (with no
 * rows: they went to `onRow`; when it is not ok, the rows already handed over must be dropped).
 * Rejects with a {@link TestsetReadError} when the file cannot be read.
 */
export async function streamTestsetRows(
  absPath: string,
  format: TestsetFormat,
  file: string,
  onRow: (row: TestsetRow) => void,
): Promise<TestsetParseResult> {
  try {
    if (format === 'csv') return await streamCsv(absPath, file, onRow);
    if (format === 'jsonl') return await streamJsonl(absPath, file, onRow);
    const parsed = parseJson(await readFile(absPath, 'utf8'), file);
    if (parsed.ok) for (const row of parsed.rows) onRow(row);
    return parsed.ok ? { ok: true, rows: [] } : parsed;
  } catch (error) {
    if (error instanceof CsvError || !isErrno(error)) throw error;
    throw new TestsetReadError(error.code, error.message);
  }
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
async function streamCsv(
  absPath: string,
  file: string,
  onRow: (row: TestsetRow) => void,
): Promise<TestsetParseResult> {
  const builder = new CsvRowBuilder(file, onRow);
  const handed = await splitPlainLines(absPath, builder);
  if (handed === null) return builder.finish();
  // `bom: true` drops a leading BOM, as parseCsv does before parsing.
  const parser = parse({ ...CSV_OPTIONS, bom: true });
  let skip = handed;
  let batch: string[][] = [];
  parser.on('data', (record: string[]) => {
    if (skip > 0) {
      skip--;
      return;
    }
    batch.push(record);
    if (batch.length >= RECORD_BATCH) {
      builder.pushAll(batch);
      batch = [];
    }
  });
  try {
    await pipeline(createReadStream(absPath), parser);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // The syntax error's line:col comes from the text (see parseCsv); read it now, once.
    return parseCsv(await readFile(absPath, 'utf8'), file);
  } finally {
    // The finished streams linger until their close events; their listener holds the builder,
    // and through its onRow whatever the caller keeps per row.
    parser.removeAllListeners('data');
  }
  builder.pushAll(batch);
  return builder.finish();
}

/**
 * Feeds `builder` the file's records, one per line cut into its cells, until a line that
 * {@link splitQuotedLine} leaves to csv-parse. Returns null when none did (every record handed
 * over), else how many records were handed over before that line (the records of the current
 * batch are not: csv-parse reads them again).
 */
async function splitPlainLines(absPath: string, builder: CsvRowBuilder): Promise<number | null> {
  let handed = 0;
  /** A line was left to csv-parse: nothing more is handed over from here. */
  let irregular = false;
  let batch: string[][] = [];
  const lines = new LineSplitter((line) => {
    if (irregular) return;
    // `split` is csv-parse's answer for a line without a quote, and the quicker one.
    const cells = line.includes('"') ? splitQuotedLine(line) : line.split(',');
    if (cells === null) {
      irregular = true;
      return;
    }
    batch.push(cells);
    if (batch.length >= RECORD_BATCH) {
      builder.pushAll(batch);
      handed += batch.length;
      batch = [];
    }
  });
  for await (const chunk of createReadStream(absPath, { encoding: 'utf8' })) {
    lines.push(chunk as string);
    if (irregular) return handed;
  }
  // The text after the last line break. After a final break it is an empty line, which csv-parse
  // leaves out; the builder skips it as blank, and it follows every row, so no row's line moves.
  lines.end();
  if (irregular) return handed;
  builder.pushAll(batch);
  return null;
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

async function streamJsonl(
  absPath: string,
  file: string,
  onRow: (row: TestsetRow) => void,
): Promise<TestsetParseResult> {
  const reader = new JsonlRowReader(file, onRow);
  const lines = new LineSplitter((line) => reader.push(line));
  const stream = createReadStream(absPath, { encoding: 'utf8' });
  for await (const chunk of stream) lines.push(chunk as string);
  lines.end();
  return reader.finish();
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
