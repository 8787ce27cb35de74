import type { TestsetRow } from '../types.ts';
import { IssueList, type TestsetParseResult } from './issues.ts';
import { explainJsonError } from './json-syntax.ts';
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
  const issues = new IssueList(file);
  const rows: TestsetRow[] = [];
  const lines = body.split(LINE_BREAK);
  for (let index = 0; index < lines.length; index++) {
    const source = lines[index] ?? '';
    if (source.trim() === '') continue;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      const { offset, message } = explainJsonError(source, error);
      issues.add('testset.json-syntax', line, offset + 1, `invalid JSON: ${message}`);
      continue;
    }
    const col = source.search(/\S/) + 1;
    const row = rowFromObject(value, line, col, issues);
    if (row) rows.push(row);
  }
  return issues.empty ? { ok: true, rows } : { ok: false, issues: issues.toArray() };
}
