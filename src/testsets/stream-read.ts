/**
 * Testset rows read from a stream of text (a file, or a file's text at a git revision), handed
 * over one at a time so the text, the parser's records and the rows are never all in memory at
 * once. Each format has one reader: CSV goes through csv-parse's streaming parser into the same
 * `CsvRowBuilder` as `parseCsv`, JSON Lines through node:readline into the same `JsonlRowReader`
 * as `parseJsonl`, and a JSON file, which is one value, is read whole (`parseJson`).
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { Issue } from '../shared/errors.ts';
import { isFileError, openRegularFile, readRegularFile } from '../shared/regular-file.ts';
import type { TestsetRow } from '../types/index.ts';
import { CSV_OPTIONS, CsvRowBuilder, csvSyntaxIssue, type CsvRecord } from './csv.ts';
import type { TestsetFormat } from './formats.ts';
import { parseJson } from './json.ts';
import { JsonlRowReader } from './jsonl.ts';

/**
 * The largest testset file read. CSV and JSON Lines are streamed, but a JSON file is one value
 * and is held whole, and a larger file is more likely a mistake (a log, a device) than a testset.
 */
export const MAX_TESTSET_BYTES = 2 ** 30;

/** A file that could not be read (not a parse problem): its errno code and message. */
export class TestsetReadError extends Error {
  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** What reading gave: no rows (they were handed over), or every problem found. */
export type StreamResult = { ok: true } | { ok: false; issues: Issue[] };

/** Where the rows come from: a file in the working tree, or text already read (git). */
export type RowSource = { path: string } | { text: string };

/**
 * Reads the rows of `source` to `onRow`, in file order. Resolves to the parse result (when it is
 * not ok, the rows already handed over must be dropped). Rejects with a {@link TestsetReadError}
 * when the file cannot be read.
 */
export async function streamTestsetRows(
  source: RowSource,
  format: TestsetFormat,
  file: string,
  onRow: (row: TestsetRow) => void,
): Promise<StreamResult> {
  try {
    if (format === 'csv') return await csvRows(source, file, onRow);
    if (format === 'jsonl') return await jsonlRows(source, file, onRow);
    const parsed = parseJson(await textOf(source), file);
    if (!parsed.ok) return parsed;
    for (const row of parsed.rows) onRow(row);
    return { ok: true };
  } catch (error) {
    if (!isFileError(error)) throw error;
    throw new TestsetReadError(error.code, error.message);
  }
}

async function csvRows(
  source: RowSource,
  file: string,
  onRow: (row: TestsetRow) => void,
): Promise<StreamResult> {
  const builder = new CsvRowBuilder(file, onRow);
  const parser = parse(CSV_OPTIONS);
  const input = textStream(source);
  // `pipe` leaves a read error with the input: hand it to the parser, whose iteration throws it.
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  try {
    await drain(parser, (record: CsvRecord) => builder.push(record));
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // The syntax error's line and column are counted in the text before the byte csv-parse
    // stopped at, so the text is read once more, only on this path.
    const text = withoutBom(await textOf(source));
    return { ok: false, issues: [csvSyntaxIssue(error, text, file)] };
  } finally {
    input.destroy();
  }
  return builder.finish();
}

/**
 * Hands each of `stream`'s objects to `take` as it comes, in order; settles when the stream ends
 * or fails (`take` throwing fails it too). Records are read off in a loop on each `readable`
 * event rather than by `for await`, which would resolve one promise per record (a second of
 * a million-row file).
 */
function drain<T>(stream: Readable, take: (item: T) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.on('readable', () => {
      try {
        const next = (): T | null => stream.read() as T | null;
        for (let item = next(); item !== null; item = next()) take(item);
      } catch (error) {
        stream.destroy(error as Error);
      }
    });
    stream.once('end', resolve);
    stream.once('error', reject);
  });
}

async function jsonlRows(
  source: RowSource,
  file: string,
  onRow: (row: TestsetRow) => void,
): Promise<StreamResult> {
  const reader = new JsonlRowReader(file, onRow);
  // readline ends a line at `\r\n`, `\n` or a lone `\r`, as parseJsonl splits its text.
  const lines = createInterface({ input: textStream(source), crlfDelay: Infinity });
  for await (const line of lines) reader.push(line);
  // A final line break leaves no empty last line here; parseJsonl's split gives one, which it
  // skips as blank, so the rows and their lines are the same either way.
  return reader.finish();
}

/** The source's text as a stream of chunks, without a leading byte order mark (as the parsers of text drop it). */
function textStream(source: RowSource): Readable {
  return Readable.from(withoutLeadingBom(source));
}

async function* withoutLeadingBom(source: RowSource): AsyncGenerator<string> {
  let first = true;
  for await (const chunk of 'path' in source ? fileChunks(source.path) : [source.text]) {
    yield first ? withoutBom(chunk) : chunk;
    first = false;
  }
}

/**
 * The text of a regular file in chunks, up to the size it had when opened (a FIFO or a device
 * is refused by `openRegularFile` before any read, so nothing can block or run forever).
 */
async function* fileChunks(path: string): AsyncGenerator<string> {
  const { handle, size } = await openRegularFile(path, MAX_TESTSET_BYTES);
  try {
    if (size === 0) return;
    const stream = handle.createReadStream({
      encoding: 'utf8',
      start: 0,
      end: size - 1,
      autoClose: false,
    });
    for await (const chunk of stream as AsyncIterable<string>) yield chunk;
  } finally {
    await handle.close();
  }
}

async function textOf(source: RowSource): Promise<string> {
  return 'path' in source ? readRegularFile(source.path, MAX_TESTSET_BYTES) : source.text;
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
