/**
 * Testset rows read from a stream of text (a file, or a file's text at a git revision), handed
 * over one at a time so the text, the parser's records and the rows are never all in memory at
 * once. Each format has one reader: CSV goes through csv-parse's streaming parser into the same
 * `CsvRowBuilder` as `parseCsv`, JSON Lines through node:readline into the same `JsonlRowReader`
 * as `parseJsonl`, and a JSON file, which is one value, is read whole (`parseJson`). The bytes
 * are decoded as they come by a `Utf8Reader`, which refuses UTF-16, UTF-32 and bytes that are
 * not UTF-8 (see `encoding.ts`).
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { Issue } from '../shared/errors.ts';
import { isFileError, openRegularFile, readRegularFileBytes } from '../shared/regular-file.ts';
import type { TestsetRow } from '../types/index.ts';
import { CSV_OPTIONS, CsvRowBuilder, csvSyntaxIssue, type CsvRecord } from './csv.ts';
import { decodeUtf8, encodingIssue, TestsetEncodingError, Utf8Reader } from './encoding.ts';
import type { TestsetFormat } from './formats.ts';
import type { Scrub } from '../shared/json-syntax.ts';
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

/**
 * Where the rows come from: a file in the working tree, or bytes already read (git), which are
 * checked as a file's are.
 */
export type RowSource = { path: string } | { bytes: Uint8Array };

/**
 * Reads the rows of `source` to `onRow`, in file order. Resolves to the parse result (when it is
 * not ok, the rows already handed over must be dropped). Rejects with a {@link TestsetReadError}
 * when the file cannot be read. A file that is not UTF-8 is one `testset.encoding` issue.
 * `scrub`: what a JSON syntax error quotes of the text, scrubbed before it is cut short.
 */
export async function streamTestsetRows(
  source: RowSource,
  format: TestsetFormat,
  file: string,
  onRow: (row: TestsetRow) => void,
  scrub?: Scrub,
): Promise<StreamResult> {
  try {
    if (format === 'csv') return await csvRows(source, file, onRow, scrub);
    if (format === 'jsonl') return await jsonlRows(source, file, onRow, scrub);
    const parsed = parseJson(await textOf(source), file, scrub);
    if (!parsed.ok) return parsed;
    for (const row of parsed.rows) onRow(row);
    return { ok: true };
  } catch (error) {
    if (error instanceof TestsetEncodingError) {
      // Only now is the line and column of the bad byte worked out, from the bytes again.
      const bytes = 'path' in source ? await bytesOf(source.path) : source.bytes;
      return { ok: false, issues: [encodingIssue(error, bytes, file)] };
    }
    if (!isFileError(error)) throw error;
    throw new TestsetReadError(error.code, error.message);
  }
}

async function bytesOf(path: string): Promise<Uint8Array> {
  try {
    return await readRegularFileBytes(path, MAX_TESTSET_BYTES);
  } catch (error) {
    if (!isFileError(error)) throw error;
    throw new TestsetReadError(error.code, error.message);
  }
}

async function csvRows(
  source: RowSource,
  file: string,
  onRow: (row: TestsetRow) => void,
  scrub: Scrub | undefined,
): Promise<StreamResult> {
  const builder = new CsvRowBuilder(file, onRow, scrub);
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
    const text = await textOf(source);
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
  scrub: Scrub | undefined,
): Promise<StreamResult> {
  const reader = new JsonlRowReader(file, onRow, scrub);
  // readline ends a line at `\r\n`, `\n` or a lone `\r`, as parseJsonl splits its text.
  // Its iteration fails with its input (an encoding error of a later chunk, say).
  const lines = createInterface({ input: textStream(source), crlfDelay: Infinity });
  for await (const line of lines) reader.push(line);
  // A final line break leaves no empty last line here; parseJsonl's split gives one, which it
  // skips as blank, so the rows and their lines are the same either way.
  return reader.finish();
}

/**
 * The source's text as a stream of chunks, decoded as UTF-8 (a leading byte order mark dropped,
 * as the parsers of text drop it); the stream fails with a {@link TestsetEncodingError} at the
 * first chunk that is not UTF-8.
 */
function textStream(source: RowSource): Readable {
  return Readable.from(decodedChunks(source));
}

async function* decodedChunks(source: RowSource): AsyncGenerator<string> {
  const reader = new Utf8Reader();
  for await (const chunk of 'path' in source ? fileChunks(source.path) : [source.bytes]) {
    const text = reader.decode(chunk);
    if (text !== '') yield text;
  }
  const rest = reader.end();
  if (rest !== '') yield rest;
}

/**
 * The bytes of a regular file in chunks, up to the size it had when opened (a FIFO or a device
 * is refused by `openRegularFile` before any read, so nothing can block or run forever).
 */
async function* fileChunks(path: string): AsyncGenerator<Uint8Array> {
  const { handle, size } = await openRegularFile(path, MAX_TESTSET_BYTES);
  try {
    if (size === 0) return;
    const stream = handle.createReadStream({ start: 0, end: size - 1, autoClose: false });
    for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
  } finally {
    await handle.close();
  }
}

/** The source's whole text, decoded as {@link textStream} decodes it. */
async function textOf(source: RowSource): Promise<string> {
  const bytes =
    'path' in source ? await readRegularFileBytes(source.path, MAX_TESTSET_BYTES) : source.bytes;
  return decodeUtf8(bytes);
}
