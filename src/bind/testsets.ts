/**
 * Reading the testsets a run needs: each selected suite's file (from the working tree, or at its
 * `ref:`) or inline cases, every row given its identities, and the revision checked against the
 * suite's pin. The I/O before planning: what comes out is the `TestsetIndex` `planRun` takes.
 */
import { splitListCells } from '../testsets/split.ts';
import { relative, resolve } from 'node:path';
import { suiteIssueAt } from '../config/config-path.ts';
import type { LoadedConfig, SuiteConfig } from '../config/types.ts';
import type { TestsetIndex } from '../plan/types.ts';
import type { Issue } from '../shared/errors.ts';
import type { IdentityOptions } from '../testsets/history.ts';
import {
  CasePreparer,
  contentId,
  defaultTestsetId,
  prepareCases,
  revisionMatches,
  type PrepareCasesResult,
} from '../testsets/identity.ts';
import { readTestsetInto } from '../testsets/read-file.ts';
import type { Scrub } from '../shared/json-syntax.ts';
import { rowsFromRecords } from '../testsets/rows.ts';
import type { PreparedCase, TestsetInfo } from '../types/index.ts';

/**
 * The testsets of `suites`, read at once, each checked against its `revision:` pin; every
 * problem in every one of them, or the index. With `ignorePin` (`evals run --ignore-pin`), a
 * pin that does not match is not a problem: it is returned in `pinIgnored`, for the run to say.
 * `scrub` removes the run's secrets from what a problem quotes of a file, before it is cut short.
 */
export async function readTestsets(
  config: LoadedConfig,
  suites: readonly SuiteConfig[],
  cwd: string,
  options: { ignorePin?: boolean; scrub?: Scrub } = {},
): Promise<
  | {
      ok: true;
      testsets: TestsetIndex;
      pinIgnored: Issue[];
      /** What the testsets warn about (a row repeated exactly, a metadata-like column), once each. */
      warnings: Issue[];
    }
  | { ok: false; issues: Issue[] }
> {
  const { scrub } = options;
  const read = await Promise.all(
    suites.map((suite) => readPinnedTestset(config, suite, cwd, scrub)),
  );
  const pinIgnored: Issue[] = [];
  for (const [i, r] of read.entries()) {
    if (r.ok || options.ignorePin !== true || !r.issues.every(isPinMismatch)) continue;
    const unpinned = await readSuiteTestset(config, suites[i]!, cwd, scrub);
    if (!unpinned.ok) continue;
    pinIgnored.push(...r.issues);
    read[i] = unpinned;
  }
  // Suites reading one file find its problems each: each problem is told once.
  const issues = uniqueIssues(read.flatMap((r) => (r.ok ? [] : r.issues)));
  if (issues.length > 0) return { ok: false, issues };
  const testsets = new Map(
    read.flatMap((r, i) =>
      r.ok ? [[suites[i]!.id, { cases: r.testset.cases, info: r.testset.info }] as const] : [],
    ),
  );
  const warnings = uniqueIssues(read.flatMap((r) => (r.ok ? (r.testset.warnings ?? []) : [])));
  return { ok: true, testsets, pinIgnored, warnings };
}

/** `issues` without repeats (the same problem at the same place), in their order. */
function uniqueIssues(issues: readonly Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = JSON.stringify([
      issue.code,
      issue.file,
      issue.line,
      issue.col,
      issue.path,
      issue.message,
    ]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isPinMismatch(issue: Issue): boolean {
  return issue.code === 'testset.revision-mismatch';
}

/** A suite's testset, refused when it does not match its `revision:` pin. */
async function readPinnedTestset(
  config: LoadedConfig,
  suite: SuiteConfig,
  cwd: string,
  scrub: Scrub | undefined,
): Promise<{ ok: true; testset: SuiteTestset } | { ok: false; issues: Issue[] }> {
  const read = await readSuiteTestset(config, suite, cwd, scrub);
  if (!read.ok) return read;
  const { testset } = read;
  const pin = suite.testset.revision;
  if (pin === undefined || revisionMatches(pin, testset.revision)) return read;
  const message = testset.location
    ? await explainPinMismatch(pin, testset, testset.location, testset.identity)
    : `the inline cases do not match their pinned revision: pinned ${pin}, current ${shortRevision(testset.revision)} (the cases changed since the pin; run evals testset pin to pin the current ones)`;
  return {
    ok: false,
    issues: [
      {
        ...suiteIssueAt(config, suite)('testset', 'revision'),
        code: 'testset.revision-mismatch',
        message,
      },
    ],
  };
}

/** The testset field a suite scores as its output, when it scores recorded outputs. */
function recordedField(suite: SuiteConfig): string | undefined {
  return suite.target.kind === 'recorded' ? (suite.target.column ?? 'output') : undefined;
}

/**
 * The contentId of a row without its recorded output: what a comparison pairs the cases of a
 * recorded-output suite on, so a changed output is scored as the change in behaviour it is
 * rather than set aside as an edited row (the revision and contentId still cover the output).
 */
function inputIdOf(testsetId: string, data: Record<string, unknown>, field: string): string {
  const { [field]: _output, ...input } = data;
  return contentId(testsetId, input);
}

/** A suite's testset read and identified, before its pin is checked or its tags applied. */
export interface SuiteTestset {
  cases: PreparedCase[];
  revision: string;
  info: Omit<TestsetInfo, 'cases'>;
  identity: IdentityOptions;
  /** The file, for history look-ups; null for inline cases. */
  location: { absPath: string; displayPath: string } | null;
  /** Exact duplicate rows collapsed into one case, shown where the rows are. */
  warnings?: Issue[];
}

/**
 * Reads a suite's testset (from the working tree, or at its `ref:`) and computes identities and
 * the revision. Shared by runs and by `evals testset pin`, which needs no modules loaded.
 * `scrub`: see {@link readTestsets}.
 */
export async function readSuiteTestset(
  config: LoadedConfig,
  suite: SuiteConfig,
  cwd: string,
  scrub?: Scrub,
): Promise<{ ok: true; testset: SuiteTestset } | { ok: false; issues: Issue[] }> {
  const at = suiteIssueAt(config, suite);
  const ts = suite.testset;
  const hash = suite.hash ? { hash: suite.hash } : {};
  let prepared: PrepareCasesResult;
  let path: string | null = null;
  let commit: string | null = null;
  let location: SuiteTestset['location'] = null;
  let testsetId: string;
  // Where problems in the rows are shown: relative to the user's folder, with the ref if any.
  let issueFile: string;
  if (ts.kind === 'file') {
    const abs = resolve(config.dir, ts.path);
    const display = displayPath(cwd, abs);
    location = { absPath: abs, displayPath: display };
    path = toPosix(ts.path);
    testsetId = ts.id ?? defaultTestsetId(ts.path);
    // Each row becomes its case as the file is read: its rows are never all held at once.
    const preparer = new CasePreparer({
      testsetId,
      ...hash,
      file: path,
      ...(scrub !== undefined ? { scrub } : {}),
    });
    const read = await readTestsetInto(
      { absPath: abs, displayPath: display, ...(ts.ref !== undefined ? { ref: ts.ref } : {}) },
      (row) => preparer.add(row),
      scrub,
    );
    if (!read.ok) {
      // A missing file or a git failure is reported where the config names the file or ref.
      const where =
        ts.ref !== undefined && read.issues[0]?.code.startsWith('git.') ? 'ref' : 'path';
      return {
        ok: false,
        // The count of problems left out belongs to no position: it stays without one.
        issues: read.issues.map((i) =>
          i.line === 0 && i.code !== 'testset.too-many-issues'
            ? { ...at('testset', where), code: i.code, message: i.message }
            : i,
        ),
      };
    }
    prepared = preparer.finish();
    commit = read.commit;
    issueFile = ts.ref !== undefined ? `${display}@${ts.ref}` : display;
  } else {
    const converted = rowsFromRecords(ts.records, config.file);
    if (!converted.ok) return { ok: false, issues: converted.issues };
    testsetId = ts.id ?? suite.id;
    issueFile = config.file;
    prepared = prepareCases(converted.rows, {
      testsetId,
      ...hash,
      file: displayPath(config.dir, config.absPath),
      ...(scrub !== undefined ? { scrub } : {}),
    });
  }

  if (!prepared.ok) {
    return { ok: false, issues: prepared.issues.map((i) => ({ ...i, file: issueFile })) };
  }
  // `split:` cuts joined list cells once identity and the revision are fixed on the file's text.
  const split = ts.split;
  const recorded = recordedField(suite);
  const cases =
    split === undefined && recorded === undefined
      ? prepared.cases
      : prepared.cases.map((c) => ({
          ...c,
          ...(recorded !== undefined ? { inputId: inputIdOf(testsetId, c.data, recorded) } : {}),
          ...(split !== undefined ? { data: splitListCells(c.data, split) } : {}),
        }));
  return {
    ok: true,
    testset: {
      cases,
      revision: prepared.revision,
      info: {
        path,
        ref: ts.kind === 'file' ? (ts.ref ?? null) : null,
        commit,
        revision: prepared.revision,
      },
      identity: { testsetId, ...hash },
      location,
      ...(prepared.warnings !== undefined
        ? { warnings: prepared.warnings.map((w) => ({ ...w, file: issueFile })) }
        : {}),
    },
  };
}

/**
 * A pin mismatch says what changed: the pinned revision is looked up in the file's git history
 * and diffed against the current rows, with the command that shows the rows themselves.
 */
async function explainPinMismatch(
  pin: string,
  current: { cases: readonly PreparedCase[]; revision: string },
  location: { absPath: string; displayPath: string },
  identity: IdentityOptions,
): Promise<string> {
  const head = `the testset does not match its pinned revision: pinned ${pin}, current ${shortRevision(current.revision)}`;
  const { findPinOrigin } = await import('../testsets/history.ts');
  const origin = await findPinOrigin(location, identity, pin, current.cases);
  if (origin === null) {
    return `${head}; no commit of ${location.displayPath} has the pinned revision, so the changes cannot be counted (see the rows: evals testset show ${location.displayPath}; pin them: evals testset pin)`;
  }
  const short = origin.commit.slice(0, 10);
  return `${head}: since the pin (commit ${short}, ${origin.date.slice(0, 10)}) ${origin.added} added, ${origin.removed} removed, ${origin.changed} changed (see them: evals testset diff ${location.displayPath}@${short} ${location.displayPath}; pin the current rows: evals testset pin)`;
}

/** A revision as `evals testset pin --check` prints it: its first 12 hex digits, a valid pin. */
function shortRevision(revision: string): string {
  return revision.slice(0, 12);
}

function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return rel && !rel.startsWith('..') ? toPosix(rel) : abs;
}

function toPosix(path: string): string {
  return path.replaceAll('\\', '/').replace(/^\.\//, '');
}
