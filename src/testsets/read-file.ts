import { readFile } from 'node:fs/promises';
import type { Issue } from '../errors.ts';
import { formatFromPath, parseTestset, TESTSET_EXTENSIONS } from './formats.ts';
import type { TestsetIssueCode, TestsetParseResult } from './issues.ts';

/**
 * Reads and parses a testset file; the one place in `testsets/` that touches the file system.
 * A missing file, an unsupported extension and an unreadable file are each one issue without a
 * position (line 0), so callers can point at the config's `path:` instead.
 */
export async function readTestsetFile(
  absPath: string,
  displayPath: string,
): Promise<TestsetParseResult> {
  const format = formatFromPath(absPath);
  if (format === null) {
    const supported = Object.keys(TESTSET_EXTENSIONS).join(', ');
    return fail(
      'testset.format',
      displayPath,
      `unsupported testset file type ${JSON.stringify(displayPath)}: expected one of ${supported}`,
    );
  }
  let text: string;
  try {
    text = await readFile(absPath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      return fail('testset.not-found', displayPath, `testset file not found: ${displayPath}`);
    }
    const reason = code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    return fail('testset.read', displayPath, `cannot read testset ${displayPath}: ${reason}`);
  }
  return parseTestset(text, format, displayPath);
}

function fail(
  code: TestsetIssueCode,
  file: string,
  message: string,
): { ok: false; issues: Issue[] } {
  return { ok: false, issues: [{ code, file, line: 0, col: 0, path: '', message }] };
}
