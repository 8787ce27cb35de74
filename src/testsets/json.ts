import { describeValue } from '../shared/errors.ts';
import type { TestsetRow } from '../types/index.ts';
import { IssueList, type TestsetParseResult } from './issues.ts';
import { explainJsonError } from './json-syntax.ts';
import { LineCursor } from './line-cursor.ts';
import { isRecord } from '../shared/is-record.ts';
import { rowFromObject } from './rows.ts';

/**
 * Parses a JSON testset: an array of row objects, or Agenta's export shape
 * `{ "testcases": [ { "data": {…}, "id": "…" }, … ] }`, where each testcase's `data` is the row
 * and its `id` fills `__id__` when the data has none (other testcase keys are ignored). Each row's
 * line is the line of its object's opening `{`.
 */
export function parseJson(text: string, file: string): TestsetParseResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const { offset, message } = explainJsonError(body, error);
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

  if (Array.isArray(value)) {
    const offsets = arrayElementOffsets(body, 'root');
    checkOffsets(offsets, value);
    value.forEach((element, index) => {
      const { line, col } = cursor.positionAt(offsets[index] ?? 0);
      const row = rowFromObject(element, line, col, issues);
      if (row) rows.push(row);
    });
  } else if (isRecord(value) && Array.isArray(value.testcases)) {
    const testcases: unknown[] = value.testcases;
    const offsets = arrayElementOffsets(body, 'testcases');
    checkOffsets(offsets, testcases);
    testcases.forEach((testcase, index) => {
      const { line, col } = cursor.positionAt(offsets[index] ?? 0);
      if (!isRecord(testcase) || !isRecord(testcase.data)) {
        issues.add(
          'testset.row-type',
          line,
          col,
          `expected a testcase object with a "data" object, found ${describeValue(testcase)}`,
        );
        return;
      }
      const row = rowFromObject(testcase.data, line, col, issues, testcase.id);
      if (row) rows.push(row);
    });
  } else {
    const { line, col } = cursor.positionAt(body.search(/\S/));
    issues.add(
      'testset.json-shape',
      line,
      col,
      `expected an array of row objects or an object with a "testcases" array, found ${describeValue(value)}`,
    );
  }
  return issues.empty ? { ok: true, rows } : { ok: false, issues: issues.toArray() };
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
const BACKSLASH = 0x5c;
const COLON_AHEAD = /[ \t\r\n]*:/y;

/**
 * Start offsets of the elements of the rows array in text that `JSON.parse` accepted: the
 * top-level array (`root`), or the array under the top-level key `testcases`. JSON.parse keeps no
 * positions and the yaml package (which does) is far slower on large files, so this scanner only
 * tracks strings, escapes and nesting depth — enough to see where each element begins.
 */
export function arrayElementOffsets(text: string, target: 'root' | 'testcases'): number[] {
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
      if (target === 'testcases' && depth === 1) {
        // In the root object a string followed by ':' is a key; remember it to find "testcases".
        COLON_AHEAD.lastIndex = end + 1;
        lastRootKey = COLON_AHEAD.test(text)
          ? (JSON.parse(text.slice(i, end + 1)) as string)
          : null;
      }
      i = end;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      const isTarget =
        c === 0x5b && depth === targetDepth && (target === 'root' || lastRootKey === 'testcases');
      if (isTarget) {
        // A repeated "testcases" key: JSON.parse keeps the last one, and so does this.
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

/** Offset of the closing quote of the string whose opening quote is at `start`. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    if (end === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}
