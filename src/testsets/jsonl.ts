import type { TestsetRow } from '../types/index.ts';
import { IssueList, type TestsetParseResult } from './issues.ts';
import { duplicateJsonKeys, duplicateKeyMessage } from './json-keys.ts';
import { inexactJsonNumbers, inexactNumberMessage } from './json-numbers.ts';
import { explainJsonError, type Scrub } from '../shared/json-syntax.ts';
import { rowFromObject } from './rows.ts';

/** JSON text cannot hold a raw line break, so every break ends a record. */
const LINE_BREAK = /\r\n|\n|\r/;

/**
 * Parses JSON Lines (`.jsonl`, `.ndjson`): one JSON object per line, blank lines skipped. A
 * row's line is its line number; a line that is not JSON, or not an object, is reported at that
 * line, and the remaining lines are still checked.
 */
export function parseJsonl(text: string, file: string): TestsetParseResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const reader = new JsonlRowReader(file);
  for (const source of body.split(LINE_BREAK)) reader.push(source);
  return reader.finish();
}

/**
 * The rows of JSON Lines fed one physical line at a time (without its line break, BOM removed),
 * so `parseJsonl` and the streaming reader (`stream-read.ts`) share one definition. With
 * `onRow`, rows are handed over as they are read and `finish` returns none (see CsvRowBuilder).
 * `scrub` removes the run's secrets from what a syntax error quotes of a line, before it is cut
 * short (see `locateJsonError`).
 */
export class JsonlRowReader {
  readonly #issues: IssueList;
  readonly #rows: TestsetRow[] = [];
  readonly #onRow: ((row: TestsetRow) => void) | undefined;
  readonly #scrub: Scrub | undefined;
  #line = 0;

  constructor(file: string, onRow?: (row: TestsetRow) => void, scrub?: Scrub) {
    this.#issues = new IssueList(file);
    this.#onRow = onRow;
    this.#scrub = scrub;
  }

  /** The next physical line. */
  push(source: string): void {
    const line = ++this.#line;
    if (source.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      const { offset, message } = explainJsonError(source, error, this.#scrub);
      this.#issues.add('testset.json-syntax', line, offset + 1, `invalid JSON: ${message}`);
      return;
    }
    const duplicates = duplicateJsonKeys(source);
    for (const { offset, key } of duplicates) {
      this.#issues.add(
        'testset.duplicate-key',
        line,
        offset + 1,
        duplicateKeyMessage(key, this.#scrub),
      );
    }
    const inexact = inexactJsonNumbers(source);
    for (const number of inexact) {
      const message = inexactNumberMessage(number, this.#scrub);
      this.#issues.add('testset.inexact-number', line, number.offset + 1, message);
    }
    if (duplicates.length > 0 || inexact.length > 0) return;
    const col = source.search(/\S/) + 1;
    const row = rowFromObject(value, line, col, this.#issues);
    if (!row) return;
    if (this.#onRow === undefined) this.#rows.push(row);
    else this.#onRow(row);
  }

  /** Every row (none when streaming), or every problem found. */
  finish(): TestsetParseResult {
    return this.#issues.empty
      ? { ok: true, rows: this.#rows }
      : { ok: false, issues: this.#issues.toArray() };
  }
}
