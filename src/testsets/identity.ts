import { hash as digest } from 'node:crypto';
import { describeValue, type Issue } from '../shared/errors.ts';
import type { PreparedCase, RowMeta, TestsetRow } from '../types/index.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import { duplicateMessage, type IdentityBasis } from './duplicate-message.ts';
import { MissingHashFields } from './hash-fields.ts';
import { MetaLookalikes } from './meta-lookalikes.ts';
import { IssueList } from './issues.ts';
import type { Scrub } from '../shared/json-syntax.ts';

function sha256(text: string): string {
  return digest('sha256', text, 'hex');
}

/**
 * A testcase's content address: sha256 (hex) of `canonicalJson({ testset, data })`. Hashing
 * structured JSON, never concatenated values, keeps `{a:1,b:23}` and `{a:12,b:3}` apart.
 */
export function contentId(testsetId: string, data: Record<string, unknown>): string {
  return contentIdWith(JSON.stringify(testsetId), data);
}

/** {@link contentId} with the testset id already written as JSON, once per testset. */
function contentIdWith(testsetJson: string, data: Record<string, unknown>): string {
  // canonicalJson({ testset, data }) written out: "data" sorts before "testset".
  return sha256(`{"data":${canonicalJson(data)},"testset":${testsetJson}}`);
}

/** A testset revision: sha256 (hex) of the canonical JSON of its ordered contentIds. */
export function computeRevision(contentIds: string[]): string {
  return sha256(canonicalJson(contentIds));
}

/** The fewest hex digits a `revision:` pin may have, as with abbreviated git commits. */
export const MIN_PIN_LENGTH = 6;

const PIN = /^[0-9a-f]+$/i;

/** True when `pin` can be a revision pin: hex, at least {@link MIN_PIN_LENGTH} digits. */
export function isRevisionPin(pin: string): boolean {
  return pin.length >= MIN_PIN_LENGTH && pin.length <= 64 && PIN.test(pin);
}

/** True when `pin` is a case-insensitive prefix of `revision` and a valid pin. */
export function revisionMatches(pin: string, revision: string): boolean {
  return isRevisionPin(pin) && revision.toLowerCase().startsWith(pin.toLowerCase());
}

/**
 * The default testset id of a file: its base name without the extension
 * (`testsets/capitals.csv` → `capitals`). It leaves the format out on purpose: converting a
 * testset between CSV and JSONL keeps its contentIds and its revision.
 */
export function defaultTestsetId(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  const stem = base.replace(/\.[^.]*$/, '');
  return stem === '' ? base : stem;
}

/** How cases are identified: named data fields, or a function of the data. */
export type CaseHash = string[] | ((data: Record<string, unknown>) => string);

/** Options of {@link prepareCases}. */
export interface PrepareCasesOptions {
  /** Scopes contentIds: the same data in two testsets gets two contentIds. */
  testsetId: string;
  /** The rows' source file as shown to users; `null` for cases given in code. */
  file: string | null;
  /** `hash:` fields or `testCaseHash`; absent or empty: dedup id, else contentId. */
  hash?: CaseHash;
  /** Removes the run's secrets from the values a problem quotes, before they are cut short. */
  scrub?: Scrub;
}

/** Prepared cases (one per row, in file order) and the testset's revision, or every problem found. */
export type PrepareCasesResult =
  | {
      ok: true;
      cases: PreparedCase[];
      revision: string;
      /** Exact duplicate rows collapsed into the first (`testset.duplicate-row`), to print. */
      warnings?: Issue[];
    }
  | { ok: false; issues: Issue[] };

/**
 * Computes each row's contentId and identity, rejects duplicate identities, and computes the
 * revision over every row in file order (filters such as tags apply later, to the cases, so a
 * pin covers the whole file).
 *
 * Identity: the row's dedup id when it has one; else the sha256 of the canonical JSON of its
 * `hash` fields (or the hash function's result); else its contentId.
 *
 * A fold over {@link CasePreparer}, which a reader feeds row by row instead.
 */
export function prepareCases(
  rows: readonly TestsetRow[],
  options: PrepareCasesOptions,
): PrepareCasesResult {
  const preparer = new CasePreparer(options);
  for (const row of rows) preparer.add(row);
  return preparer.finish();
}

/**
 * {@link prepareCases} one row at a time, so a testset read from a file never needs its rows in
 * memory as a whole: each row becomes its case as it is read.
 */
export class CasePreparer {
  readonly #testsetJson: string;
  readonly #file: string | null;
  readonly #scrub: Scrub | undefined;
  readonly #identity: Identity;
  readonly #issues: IssueList;
  readonly #cases: PreparedCase[] = [];
  /**
   * The case of each identity seen (its index in `#cases`), to report a duplicate where it first
   * was and to tell an exact duplicate row. One number an identity: this map lives as long as
   * the reading, and anything bigger a row shows in the run's peak memory.
   */
  readonly #firstCase = new Map<string, number>();
  /** The line of each case, by index (inline cases have no `source` to hold it). */
  readonly #lines: number[] = [];
  /** The column of each case that has one (inline cases sharing a line), by index. */
  readonly #cols = new Map<number, number>();
  readonly #warnings: IssueList;
  readonly #missingHash = new MissingHashFields();
  readonly #lookalikes = new MetaLookalikes();

  constructor(options: PrepareCasesOptions) {
    this.#testsetJson = JSON.stringify(options.testsetId);
    this.#file = options.file;
    this.#scrub = options.scrub;
    this.#identity = identityPlan(
      Array.isArray(options.hash) && options.hash.length === 0 ? undefined : options.hash,
    );
    this.#issues = new IssueList(options.file ?? '');
    this.#warnings = new IssueList(options.file ?? '');
  }

  /** The next row, in file order. */
  add(row: TestsetRow): void {
    const col = row.col ?? 0;
    if (nestsTooDeep(row.data)) {
      // Data from code may hold a cycle (a tree node's `parent`), which nests without end.
      const cycle = cycleIn(row.data);
      this.#issues.add(
        'testset.too-deep',
        row.line,
        col,
        cycle !== null
          ? `the row holds a cycle: ${cycle.at} is ${cycle.ancestor} again (a case must be data without cycles; keep such a link out of it, or refer to the other object by an id)`
          : `the row nests arrays and objects more than ${MAX_ROW_NESTING} levels deep: a row may nest at most ${MAX_ROW_NESTING} levels`,
      );
      return;
    }
    this.#lookalikes.check(row.data, row.line, col, this.#warnings);
    const cid = contentIdWith(this.#testsetJson, row.data);
    const id = identityOf(row, cid, this.#identity, this.#issues, this.#missingHash, this.#scrub);
    if (id === null) return;
    const firstIndex = this.#firstCase.get(id);
    if (firstIndex !== undefined) {
      const seen = this.#cases[firstIndex];
      const firstLine = this.#lines[firstIndex] ?? 0;
      const firstCol = this.#cols.get(firstIndex) ?? 0;
      // Content addressing (seed 004): a row with the same content and metadata is the same
      // testcase, so it collapses into the first with a warning. The same identity with other
      // content is two different rows claiming one id: still an error.
      if (
        seen !== undefined &&
        seen.contentId === cid &&
        JSON.stringify(seen.meta) === JSON.stringify(row.meta)
      ) {
        this.#warnings.add(
          'testset.duplicate-row',
          row.line,
          col,
          this.#file === null
            ? `test case ${row.line} repeats test case ${firstLine} exactly: collapsed into one case`
            : `the row at ${rowText(row.line, col)} repeats ${rowText(firstLine, firstCol)} exactly: collapsed into one case`,
        );
        return;
      }
      this.#issues.add(
        'testset.duplicate-id',
        row.line,
        col,
        duplicateMessage(
          id,
          { line: firstLine, col: firstCol, data: seen?.data ?? {}, meta: seen?.meta ?? {} },
          { line: row.line, col, data: row.data, meta: row.meta },
          basisOf(this.#identity),
          this.#file,
          this.#scrub,
        ),
      );
      return;
    }
    this.#firstCase.set(id, this.#cases.length);
    if (col > 0) this.#cols.set(this.#cases.length, col);
    this.#lines.push(row.line);
    // A row with a problem fails the whole result, so in a returned one a case's place is its row's.
    this.#cases.push({
      id,
      contentId: cid,
      source: this.#file === null ? null : { file: this.#file, line: row.line },
      data: row.data,
      meta: row.meta,
      index: this.#cases.length,
    });
  }

  /** The cases and revision, or every problem found. Call once, after the last row. */
  finish(): PrepareCasesResult {
    this.#firstCase.clear();
    this.#lines.length = 0;
    this.#cols.clear();
    this.#missingHash.report(this.#issues);
    if (!this.#issues.empty) return { ok: false, issues: this.#issues.toArray() };
    const revision = computeRevision(this.#cases.map((c) => c.contentId));
    return this.#warnings.empty
      ? { ok: true, cases: this.#cases, revision }
      : { ok: true, cases: this.#cases, revision, warnings: this.#warnings.toArray() };
  }
}

/**
 * The deepest a row's data may nest arrays and objects (the row itself is level 1). Hashing,
 * templates, reports and the artifact all walk the data recursively; real rows nest a few levels.
 */
export const MAX_ROW_NESTING = 500;

/** True when `data` nests deeper than {@link MAX_ROW_NESTING}; walks without recursion. */
function nestsTooDeep(data: Record<string, unknown>): boolean {
  // Most rows are flat (a CSV row always is): nothing to walk.
  let flat = true;
  for (const key in data) {
    const value = data[key];
    if (value !== null && typeof value === 'object') {
      flat = false;
      break;
    }
  }
  if (flat) return false;
  const stack: { value: unknown; depth: number }[] = [{ value: data, depth: 1 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, depth } = next;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_ROW_NESTING) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/**
 * The first cycle in `data`, found depth first: where the walk met an object again (`$.a.b`)
 * and the ancestor it is (`$`); `null` when there is none within {@link MAX_ROW_NESTING}
 * levels. Only called once a row is found too deep, so it costs nothing on the usual path.
 */
function cycleIn(data: Record<string, unknown>): { at: string; ancestor: string } | null {
  // The path from the root: each object, its path, and the children still to visit.
  const path: { value: object; at: string; children: [string, unknown][] }[] = [
    { value: data, at: '$', children: childrenOf(data, '$') },
  ];
  // Objects walked to the end without a cycle: data reached twice is not walked twice.
  const finished = new Set<object>();
  while (path.length > 0) {
    const top = path[path.length - 1]!;
    const next = top.children.pop();
    if (next === undefined) {
      finished.add(top.value);
      path.pop();
      continue;
    }
    const [at, child] = next;
    if (child === null || typeof child !== 'object' || finished.has(child)) continue;
    const ancestor = path.find((p) => p.value === child);
    if (ancestor !== undefined) return { at, ancestor: ancestor.at };
    if (path.length < MAX_ROW_NESTING)
      path.push({ value: child, at, children: childrenOf(child, at) });
  }
  return null;
}

/** The members of an array or object with their paths, last first (they are popped). */
function childrenOf(value: object, at: string): [string, unknown][] {
  const members: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i): [string, unknown] => [`${at}[${i}]`, item])
    : Object.entries(value).map(([key, item]): [string, unknown] => [
        /^[A-Za-z_$][\w$]*$/.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`,
        item,
      ]);
  return members.reverse();
}

/**
 * How a row's identity is computed: its `hash:` fields, each with its key written as JSON, in
 * canonical (sorted, deduplicated) order; a hash function; or nothing (the contentId).
 */
type Identity =
  | { kind: 'content' }
  | { kind: 'fields'; fields: readonly { name: string; key: string }[] }
  | { kind: 'function'; fn: (data: Record<string, unknown>) => string };

function identityPlan(hash: CaseHash | undefined): Identity {
  if (hash === undefined) return { kind: 'content' };
  if (typeof hash === 'function') return { kind: 'function', fn: hash };
  // canonicalJson sorts an object's keys with Array.prototype.sort (index-like keys included),
  // so the picked fields' canonical JSON lists them in this order.
  const names = [...new Set(hash)].sort();
  return { kind: 'fields', fields: names.map((name) => ({ name, key: JSON.stringify(name) })) };
}

function identityOf(
  row: TestsetRow,
  cid: string,
  identity: Identity,
  issues: IssueList,
  missing: MissingHashFields,
  scrub: Scrub | undefined,
): string | null {
  if (row.meta.dedupId !== undefined) return row.meta.dedupId;
  if (identity.kind === 'content') return cid;
  if (identity.kind === 'function') return hashFunctionId(row, identity.fn, issues, scrub);
  missing.hashed(row);

  // canonicalJson of an object holding just the `hash:` fields, written member by member: the
  // same text without building that object for every row.
  let text = '{';
  let complete = true;
  for (const { name, key } of identity.fields) {
    const value = Object.hasOwn(row.data, name) ? row.data[name] : undefined;
    if (value === undefined) {
      missing.lacks(row, name);
      complete = false;
      continue;
    }
    // Dropped, as JSON drops them from objects (data given in code could hold them).
    if (typeof value === 'function' || typeof value === 'symbol') continue;
    text += `${text.length === 1 ? '' : ','}${key}:${canonicalJson(value)}`;
  }
  return complete ? sha256(`${text}}`) : null;
}

function hashFunctionId(
  row: TestsetRow,
  hash: (data: Record<string, unknown>) => string,
  issues: IssueList,
  scrub: Scrub | undefined,
): string | null {
  let result: unknown;
  try {
    result = hash(row.data);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const threw = `the case hash function threw: ${reason}`;
    issues.add('testset.hash-invalid', row.line, row.col ?? 0, threw);
    return null;
  }
  // Numbers are accepted as their text; anything else would stringify to one shared id.
  const id =
    typeof result === 'string' ? result : typeof result === 'number' ? String(result) : null;
  if (id === null || id === '') {
    issues.add(
      'testset.hash-invalid',
      row.line,
      row.col ?? 0,
      `the case hash function returned ${describeValue(result, scrub)}: it must return a non-empty string`,
    );
    return null;
  }
  return id;
}

/** Where a row is, in words: `line 4`, or `line 4, column 21` for a row that shares its line. */
function rowText(line: number, col: number): string {
  return col > 0 ? `line ${line}, column ${col}` : `line ${line}`;
}

/** What a duplicate's message says made two rows one case. */
function basisOf(identity: Identity): IdentityBasis {
  return identity.kind === 'fields'
    ? { kind: 'fields', names: identity.fields.map((field) => field.name) }
    : { kind: identity.kind };
}

/** Whether a row's `__tags__` include one of `tags` (exact, case-sensitive). */
export function hasTagIn(tags: readonly string[]): (meta: RowMeta) => boolean {
  const wanted = new Set(tags);
  return (meta) => meta.tags?.some((tag) => wanted.has(tag)) ?? false;
}
