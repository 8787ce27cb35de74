import pLimit from 'p-limit';
import type { PreparedCase } from '../types/index.ts';
import { diffTestsets } from './diff.ts';
import { fileHistory } from './git.ts';
import { type GitError } from './git-run.ts';
import { prepareCases, revisionMatches, type CaseHash } from './identity.ts';
import { readTestset, type TestsetLocation } from './read-file.ts';

/** How a testset's cases get their identity: the suite's `hash:` and testset id. */
export interface IdentityOptions {
  testsetId: string;
  hash?: CaseHash;
}

/** One version of a testset: its rows prepared, or why they could not be. */
export type TestsetVersion =
  | { ok: true; cases: PreparedCase[]; revision: string; commit: string | null }
  | { ok: false; message: string };

/** Reads and prepares one version (`ref` absent: the working tree). */
export async function loadVersion(
  location: TestsetLocation,
  identity: IdentityOptions,
): Promise<TestsetVersion> {
  const read = await readTestset(location);
  if (!read.ok) return { ok: false, message: read.issues[0]?.message ?? 'unreadable' };
  const prepared = prepareCases(read.rows, {
    testsetId: identity.testsetId,
    file: location.displayPath,
    ...(identity.hash ? { hash: identity.hash } : {}),
  });
  if (!prepared.ok) return { ok: false, message: prepared.issues[0]?.message ?? 'invalid rows' };
  return { ok: true, cases: prepared.cases, revision: prepared.revision, commit: read.commit };
}

/** One commit of `evals testset log`. */
export interface LogEntry {
  commit: string;
  date: string;
  subject: string;
  /** Counts against the previous (older) commit; for the oldest, everything is added. */
  version:
    | { ok: true; revision: string; rows: number; added: number; removed: number; changed: number }
    | { ok: false; message: string };
}

/** Walking history is one git call per commit; a bound keeps a long history from stalling a run. */
export const HISTORY_LIMIT = 500;

/** Versions read at once while walking history. */
const GIT_CONCURRENCY = 4;

/**
 * The file's history, newest first: for each commit that changed it, the revision, row count
 * and the rows added, removed and changed since the commit before.
 */
export async function testsetLog(
  location: Omit<TestsetLocation, 'ref'>,
  identity: IdentityOptions,
  limit = HISTORY_LIMIT,
): Promise<{ ok: true; entries: LogEntry[]; truncated: boolean } | { ok: false; error: GitError }> {
  const history = await fileHistory(location.absPath);
  if (!history.ok) return history;
  const commits = history.value.slice(0, limit);
  // Each version costs a few git processes; a handful at a time keeps a long history from
  // spawning thousands at once.
  const gitSlots = pLimit(GIT_CONCURRENCY);
  const versions = await Promise.all(
    commits.map((c) => gitSlots(() => loadVersion({ ...location, ref: c.commit }, identity))),
  );
  const entries = commits.map((c, i): LogEntry => {
    const version = versions[i];
    if (!version?.ok) return { ...c, version: { ok: false, message: version?.message ?? '' } };
    const older = versions[i + 1];
    const diff = diffTestsets(older?.ok ? older.cases : [], version.cases);
    return {
      ...c,
      version: {
        ok: true,
        revision: version.revision,
        rows: version.cases.length,
        added: diff.added.length,
        removed: diff.removed.length,
        changed: diff.changed.length,
      },
    };
  });
  return { ok: true, entries, truncated: history.value.length > limit };
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
  const history = await fileHistory(location.absPath);
  if (!history.ok) return null;
  for (const c of history.value.slice(0, limit)) {
    const version = await loadVersion({ ...location, ref: c.commit }, identity);
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
