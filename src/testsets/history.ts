import { join } from 'node:path';
import pLimit from 'p-limit';
import type { PreparedCase } from '../types/index.ts';
import { diffTestsets } from './diff.ts';
import { readFileHistory, type FileCommit, type FileHistory } from './git.ts';
import { parentMissing } from './git-refs.ts';
import { type GitError } from './git-run.ts';
import { prepareCases, revisionMatches, type CaseHash } from './identity.ts';
import { readTestset, type TestsetLocation } from './read-file.ts';
import type { Scrub } from '../shared/json-syntax.ts';

/** How a testset's cases get their identity: the suite's `hash:` and testset id. */
export interface IdentityOptions {
  testsetId: string;
  hash?: CaseHash;
}

/** One version of a testset: its rows prepared, or why they could not be. */
export type TestsetVersion =
  | { ok: true; cases: PreparedCase[]; revision: string; commit: string | null }
  | { ok: false; message: string };

/**
 * Reads and prepares one version (`ref` absent: the working tree). `scrub` removes secrets from
 * what a problem quotes of the file, before it is cut short.
 */
export async function loadVersion(
  location: TestsetLocation,
  identity: IdentityOptions,
  scrub?: Scrub,
): Promise<TestsetVersion> {
  const read = await readTestset(location, scrub);
  if (!read.ok) return { ok: false, message: firstProblem(read.issues) };
  const prepared = prepareCases(read.rows, {
    testsetId: identity.testsetId,
    file: location.displayPath,
    ...(identity.hash ? { hash: identity.hash } : {}),
    ...(scrub !== undefined ? { scrub } : {}),
  });
  if (!prepared.ok) return { ok: false, message: firstProblem(prepared.issues) };
  return { ok: true, cases: prepared.cases, revision: prepared.revision, commit: read.commit };
}

/** The first of `issues`, with its line when it has one (a row's problem, not the file's). */
function firstProblem(issues: readonly { line: number; message: string }[]): string {
  const first = issues[0];
  if (first === undefined) return 'unreadable';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problems)` : '';
  return `${first.line > 0 ? `line ${first.line}: ` : ''}${first.message}${more}`;
}

/**
 * `location` as of commit `c`, under the name the file had there (`c.path`): a version from
 * before a rename is read from its old path, with the identity of the file as it is now.
 */
function atCommit(
  location: Omit<TestsetLocation, 'ref'>,
  history: FileHistory,
  c: FileCommit,
): TestsetLocation {
  if (c.path === history.relPath) return { ...location, ref: c.commit };
  return { absPath: join(history.repo, ...c.path.split('/')), displayPath: c.path, ref: c.commit };
}

/** One commit of `evals testset log`. */
export interface LogEntry {
  commit: string;
  date: string;
  subject: string;
  /** The file's path at the commit, from the repository's top: its old name before a rename. */
  path: string;
  /**
   * Counts against the previous (older) commit that could be read; for the file's first commit,
   * everything is added. `null` when the older version is not at hand: the commit is the
   * boundary of a shallow clone, or older than the commits the log was cut to.
   */
  version:
    | {
        ok: true;
        revision: string;
        rows: number;
        added: number | null;
        removed: number | null;
        changed: number | null;
      }
    | { ok: false; message: string };
}

/** Walking history is one git call per commit; a bound keeps a long history from stalling a run. */
export const HISTORY_LIMIT = 500;

/** Versions read at once while walking history. */
const GIT_CONCURRENCY = 4;

/**
 * The file's history, newest first: for each commit that changed it, the revision, row count
 * and the rows added, removed and changed since the commit before. Across a rename, the versions
 * before it are read under their old name and identified as the file is now, so the rename
 * itself adds, removes and changes no row. `scrub`: see {@link loadVersion}.
 */
export async function testsetLog(
  location: Omit<TestsetLocation, 'ref'>,
  identity: IdentityOptions,
  limit = HISTORY_LIMIT,
  scrub?: Scrub,
): Promise<
  | { ok: true; entries: LogEntry[]; truncated: boolean; shallow: boolean }
  | { ok: false; error: GitError }
> {
  const history = await readFileHistory(location.absPath);
  if (!history.ok) return history;
  const commits = history.value.commits.slice(0, limit);
  // Each version costs a few git processes; a handful at a time keeps a long history from
  // spawning thousands at once.
  const gitSlots = pLimit(GIT_CONCURRENCY);
  const versions = await Promise.all(
    commits.map((c) =>
      gitSlots(() => loadVersion(atCommit(location, history.value, c), identity, scrub)),
    ),
  );
  // Before the oldest commit listed, the file may have had rows this log cannot see: counting
  // from none would call them all added by a commit that added none.
  const truncated = history.value.commits.length > limit;
  const oldest = commits.at(-1);
  const cut =
    truncated || (oldest !== undefined && (await parentMissing(history.value.repo, oldest.commit)));
  const entries = commits.map((c, i): LogEntry => {
    const version = versions[i];
    if (!version?.ok) return { ...c, version: { ok: false, message: version?.message ?? '' } };
    // Against the newest older version that could be read: one that could not has no rows to
    // count from, and counting from none would call every row added.
    const older = versions.slice(i + 1).find((v) => v?.ok === true);
    const base = { ok: true as const, revision: version.revision, rows: version.cases.length };
    if (older === undefined && cut) {
      return { ...c, version: { ...base, added: null, removed: null, changed: null } };
    }
    const diff = diffTestsets(older?.ok ? older.cases : [], version.cases);
    return {
      ...c,
      version: {
        ...base,
        added: diff.added.length,
        removed: diff.removed.length,
        changed: diff.changed.length,
      },
    };
  });
  return { ok: true, entries, truncated, shallow: !truncated && cut };
}

/** Where a pinned revision was committed, and what changed since, for a pin-mismatch message. */
export interface PinOrigin {
  commit: string;
  date: string;
  subject: string;
  added: number;
  removed: number;
  changed: number;
}

/**
 * Searches the file's history (newest first, bounded) for the commit whose version has the
 * pinned revision, and counts what changed between it and `current`. `null` when no commit has
 * it (the pin came from elsewhere, or history is shallow) or git is unavailable.
 */
export async function findPinOrigin(
  location: Omit<TestsetLocation, 'ref'>,
  identity: IdentityOptions,
  pin: string,
  current: readonly PreparedCase[],
  limit = HISTORY_LIMIT,
): Promise<PinOrigin | null> {
  const history = await readFileHistory(location.absPath);
  if (!history.ok) return null;
  for (const c of history.value.commits.slice(0, limit)) {
    const version = await loadVersion(atCommit(location, history.value, c), identity);
    if (version.ok && revisionMatches(pin, version.revision)) {
      const diff = diffTestsets(version.cases, current);
      return {
        ...c,
        added: diff.added.length,
        removed: diff.removed.length,
        changed: diff.changed.length,
      };
    }
  }
  return null;
}
