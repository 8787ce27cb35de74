import { parseCsv } from './csv.ts';
import type { TestsetParseResult } from './issues.ts';
import { parseJson } from './json.ts';
import { parseJsonl } from './jsonl.ts';

/** A testset file format. */
export type TestsetFormat = 'csv' | 'json' | 'jsonl';

/** File extensions read as testsets, and their formats. */
export const TESTSET_EXTENSIONS: Readonly<Record<string, TestsetFormat>> = {
  '.csv': 'csv',
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
};

/** The format a path's extension names (case-insensitive), or `null` when it is not supported. */
export function formatFromPath(path: string): TestsetFormat | null {
  const match = /\.[^./\\]+$/.exec(path);
  if (!match) return null;
  return TESTSET_EXTENSIONS[match[0].toLowerCase()] ?? null;
}

const PARSERS: Record<TestsetFormat, (text: string, file: string) => TestsetParseResult> = {
  csv: parseCsv,
  json: parseJson,
  jsonl: parseJsonl,
};

/**
 * Parses a testset's text. Pure: `file` is only the display path put into issues (callers keep
 * it as the rows' source file).
 */
export function parseTestset(
  text: string,
  format: TestsetFormat,
  file: string,
): TestsetParseResult {
  return PARSERS[format](text, file);
}
