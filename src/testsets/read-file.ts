import { stat } from 'node:fs/promises';
import type { Issue } from '../shared/errors.ts';
import type { TestsetRow } from '../types/index.ts';
import { formatFromPath, TESTSET_EXTENSIONS } from './formats.ts';
import type { GitErrorCode } from './git-run.ts';
import type { TestsetIssueCode } from './issues.ts';
import { streamTestsetRows, TestsetReadError, type RowSource } from './stream-read.ts';
import type { Scrub } from '../shared/json-syntax.ts';
import { unreadableReason } from '../shared/unreadable.ts';

/** Where a testset is: a file, optionally as of a git revision. */
export interface TestsetLocation {
  absPath: string;
  /** The path as shown to the user (relative to where they stand, or to the config). */
  displayPath: string;
  /** A branch, tag or sha to read the file at instead of the working tree. */
  ref?: string;
}

export type TestsetSourceResult =
  | {
      ok: true;
      rows: TestsetRow[];
      /** The sha `ref` resolved to; null for the working tree. */ commit: string | null;
    }
  | { ok: false; issues: Issue[] };

/**
 * Reads a testset from the working tree, or as of `ref` through git (never touching the working
 * tree). Issues in a file read at a ref are shown as `path@ref:line:col`, so the user knows
 * which version is at fault; git failures (unknown ref, shallow clone, …) carry their fix.
 * `scrub`: see `streamTestsetRows`.
 */
export async function readTestset(
  location: TestsetLocation,
  scrub?: Scrub,
): Promise<TestsetSourceResult> {
  const rows: TestsetRow[] = [];
  const read = await readTestsetInto(location, (row) => rows.push(row), scrub);
  return read.ok ? { ok: true, rows, commit: read.commit } : read;
}

/**
 * {@link readTestset} handing each row to `onRow` as it is read, without collecting them (see
 * `stream-read.ts`), so only what `onRow` keeps stays in memory. When the result is not ok, the
 * rows already handed over are to be dropped. A file at a `ref` comes from git as bytes. `scrub`:
 * see `streamTestsetRows`.
 */
export async function readTestsetInto(
  location: TestsetLocation,
  onRow: (row: TestsetRow) => void,
  scrub?: Scrub,
): Promise<{ ok: true; commit: string | null } | { ok: false; issues: Issue[] }> {
  const { absPath, displayPath, ref } = location;
  const format = formatFromPath(absPath);
  // A folder is not a file of the wrong type: say what it is, as for `a-folder.csv`.
  if (format === null && ref === undefined && (await isFolder(absPath))) {
    return readFailure('EISDIR', '', displayPath);
  }
  if (format === null) return unsupported(displayPath);
  let source: RowSource = { path: absPath };
  let shown = displayPath;
  let commit: string | null = null;
  if (ref !== undefined) {
    shown = `${displayPath}@${ref}`;
    // git is only needed for ref:, so its module loads only then.
    const { readBytesAtRef } = await import('./git.ts');
    const got = await readBytesAtRef(absPath, ref);
    if (!got.ok) return fail(got.error.code, shown, got.error.message);
    source = { bytes: got.value.bytes };
    commit = got.value.commit;
  }
  try {
    const read = await streamTestsetRows(source, format, shown, onRow, scrub);
    return read.ok ? { ok: true, commit } : read;
  } catch (error) {
    if (!(error instanceof TestsetReadError)) throw error;
    return readFailure(error.code, error.message, displayPath);
  }
}

/** A file that could not be read, by its errno code. */
function readFailure(
  code: string | undefined,
  message: string,
  displayPath: string,
): { ok: false; issues: Issue[] } {
  if (code === 'ENOENT') {
    return fail('testset.not-found', displayPath, `testset file not found: ${displayPath}`);
  }
  const reason = unreadableReason({ code }) ?? message;
  return fail('testset.read', displayPath, `cannot read testset ${displayPath}: ${reason}`);
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

function unsupported(displayPath: string): { ok: false; issues: Issue[] } {
  const supported = Object.keys(TESTSET_EXTENSIONS).join(', ');
  return fail(
    'testset.format',
    displayPath,
    `unsupported testset file type ${JSON.stringify(displayPath)}: expected one of ${supported}`,
  );
}

function fail(
  code: TestsetIssueCode | GitErrorCode,
  file: string,
  message: string,
): { ok: false; issues: Issue[] } {
  return { ok: false, issues: [{ code, file, line: 0, col: 0, path: '', message }] };
}
