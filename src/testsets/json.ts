import { describeValue } from '../shared/errors.ts';
import type { TestsetRow } from '../types/index.ts';
import { IssueList, type TestsetParseResult } from './issues.ts';
import { duplicateJsonKeys, duplicateKeyMessage, stringEnd } from './json-keys.ts';
import { inexactJsonNumbers, inexactNumberMessage } from './json-numbers.ts';
import { explainJsonError, type Scrub } from '../shared/json-syntax.ts';
import { LineCursor } from './line-cursor.ts';
import { isRecord } from '../shared/is-record.ts';
import { rowFromObject } from './rows.ts';

/**
 * Parses a JSON testset, in any of these shapes:
 *
 * - an array of row objects;
 * - Agenta's export `{ "testcases": [ { "id", "data": {…}, "flags", "tags", "meta" }, … ] }`:
 *   each testcase's `data` is the row, and `id`, `flags`, `tags`, `meta` fill `__id__`,
 *   `__flags__`, `__tags__`, `__meta__` where the data has none;
 * - Autoblocks dataset items `[ { "id", "splits": [...], "data": {…} }, … ]` (an array whose
 *   every element has an object `data` and only testcase keys): `splits` are tags;
 * - Judgment's `{ "examples": [ … ] }`: each example is a row (or, with an object `data`, a
 *   testcase as above, `example_id` its id).
 *
 * Each row's line is the line of its object's opening `{`. `scrub` removes the run's secrets from
 * what a syntax error quotes of the text, before it is cut short (see `locateJsonError`).
 */
export function parseJson(text: string, file: string, scrub?: Scrub): TestsetParseResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const { offset, message } = explainJsonError(body, error, scrub);
    const { line, col } = new LineCursor(body).positionAt(offset);
    return {
      ok: false,
      issues: [
        {
          code: 'testset.json-syntax',
          file,
          line,
          col,
          path: '',
          message: `invalid JSON: ${message}`,
        },
      ],
    };
  }

  const issues = new IssueList(file);
  const cursor = new LineCursor(body);
  const rows: TestsetRow[] = [];
  const duplicates = duplicateJsonKeys(body);
  for (const { offset, key } of duplicates) {
    const { line, col } = cursor.positionAt(offset);
    issues.add('testset.duplicate-key', line, col, duplicateKeyMessage(key, scrub));
  }
  const inexact = inexactJsonNumbers(body);
  for (const number of inexact) {
    const { line, col } = cursor.positionAt(number.offset);
    issues.add('testset.inexact-number', line, col, inexactNumberMessage(number, scrub));
  }
  if (duplicates.length > 0 || inexact.length > 0) return { ok: false, issues: issues.toArray() };

  const at = (offsets: number[], index: number) => cursor.positionAt(offsets[index] ?? 0);
  if (Array.isArray(value)) {
    const offsets = arrayElementOffsets(body, 'root');
    checkOffsets(offsets, value);
    const items = value.length > 0 && value.every(isDatasetItem);
    value.forEach((element, index) => {
      const { line, col } = at(offsets, index);
      const row = items
        ? testcaseRow(element, line, col, issues)
        : rowFromObject(element, line, col, issues);
      if (row) rows.push(row);
    });
  } else if (isRecord(value) && Array.isArray(value.testcases)) {
    const testcases: unknown[] = value.testcases;
    const offsets = arrayElementOffsets(body, 'testcases');
    checkOffsets(offsets, testcases);
    testcases.forEach((testcase, index) => {
      const { line, col } = at(offsets, index);
      const row = testcaseRow(testcase, line, col, issues);
      if (row) rows.push(row);
    });
  } else if (isRecord(value) && Array.isArray(value.examples)) {
    const examples: unknown[] = value.examples;
    const offsets = arrayElementOffsets(body, 'examples');
    checkOffsets(offsets, examples);
    examples.forEach((example, index) => {
      const { line, col } = at(offsets, index);
      const row =
        isRecord(example) && isRecord(example.data)
          ? testcaseRow(example, line, col, issues)
          : rowFromObject(example, line, col, issues);
      if (row) rows.push(row);
    });
  } else {
    const { line, col } = cursor.positionAt(body.search(/\S/));
    issues.add(
      'testset.json-shape',
      line,
      col,
      `expected an array of row objects, or an object with a "testcases" or "examples" array, found ${describeValue(value)}`,
    );
  }
  return issues.empty ? { ok: true, rows } : { ok: false, issues: issues.toArray() };
}

/** The keys a testcase wrapper may have beside its `data` (Agenta, Autoblocks, Judgment). */
const TESTCASE_KEYS = new Set([
  'id',
  'data',
  'flags',
  'tags',
  'meta',
  'splits',
  'testset_id',
  'example_id',
  'created_at',
]);

/** An Autoblocks dataset item: an object `data` and nothing but testcase keys. */
function isDatasetItem(value: unknown): boolean {
  return (
    isRecord(value) && isRecord(value.data) && Object.keys(value).every((k) => TESTCASE_KEYS.has(k))
  );
}

/** The row of a testcase wrapper: its `data`, with `id`, `flags`, `tags` (or `splits`), `meta`. */
function testcaseRow(
  testcase: unknown,
  line: number,
  col: number,
  issues: IssueList,
): TestsetRow | null {
  if (!isRecord(testcase) || !isRecord(testcase.data)) {
    issues.add(
      'testset.row-type',
      line,
      col,
      `expected a testcase object with a "data" object, found ${describeValue(testcase)}`,
    );
    return null;
  }
  const { flags, meta } = testcase;
  const tags = testcase.tags ?? testcase.splits;
  const extra =
    flags !== undefined || tags !== undefined || meta !== undefined
      ? { flags, tags, meta }
      : undefined;
  const id = testcase.id ?? testcase.example_id;
  return rowFromObject(testcase.data, line, col, issues, id, extra);
}

/** The scanner and JSON.parse read the same text; disagreeing means a bug in the scanner. */
function checkOffsets(offsets: number[], elements: unknown[]): void {
  if (offsets.length !== elements.length) {
    throw new Error(
      `testset JSON scanner found ${offsets.length} array elements where JSON.parse found ${elements.length}`,
    );
  }
}

const QUOTE = 0x22;
const COLON_AHEAD = /[ \t\r\n]*:/y;

/**
 * Start offsets of the elements of the rows array in text that `JSON.parse` accepted: the
 * top-level array (`root`), or the array under the top-level key `testcases`. JSON.parse keeps no
 * positions and the yaml package (which does) is far slower on large files, so this scanner only
 * tracks strings, escapes and nesting depth — enough to see where each element begins.
 */
export function arrayElementOffsets(
  text: string,
  target: 'root' | 'testcases' | 'examples',
): number[] {
  const targetDepth = target === 'root' ? 1 : 2;
  let offsets: number[] = [];
  let depth = 0;
  let inTarget = false;
  let expectElement = false;
  let lastRootKey: string | null = null;

  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x3a /* : */) continue;

    if (inTarget && depth === targetDepth) {
      if (c === 0x2c /* , */) {
        expectElement = true;
        continue;
      }
      if (expectElement && c !== 0x5d /* ] */) {
        offsets.push(i);
        expectElement = false;
      }
    }

    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (target !== 'root' && depth === 1) {
        // In the root object a string followed by ':' is a key; remember it to find the target.
        COLON_AHEAD.lastIndex = end + 1;
        lastRootKey = COLON_AHEAD.test(text)
          ? (JSON.parse(text.slice(i, end + 1)) as string)
          : null;
      }
      i = end;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      const isTarget =
        c === 0x5b && depth === targetDepth && (target === 'root' || lastRootKey === target);
      if (isTarget) {
        // A repeated target key: JSON.parse keeps the last one, and so does this.
        offsets = [];
        inTarget = true;
        expectElement = true;
      }
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      if (inTarget && depth === targetDepth) inTarget = false;
      depth--;
    }
  }
  return offsets;
}
