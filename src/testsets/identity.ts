import { hash as digest } from 'node:crypto';
import { describeValue, type Issue } from '../errors.ts';
import type { PreparedCase, RowMeta, TestsetRow } from '../types.ts';
import { IssueList } from './issues.ts';
import { setDataKey } from './rows.ts';

/**
 * JSON with every object's keys sorted (recursively; arrays keep their order), so equal data
 * always gives the same text whatever order its keys were written in. Keys sort by UTF-16 code
 * units (`Array.prototype.sort`'s order). Follows `JSON.stringify` for the rest: `undefined`,
 * functions and symbols are dropped from objects (`null` in arrays), non-finite numbers are
 * `null`, `toJSON()` is honoured (dates become ISO strings).
 *
 * @throws TypeError for a bigint, a cycle or absurd nesting: such values cannot be testset data.
 */
export function canonicalJson(value: unknown): string {
  // The fast path hands a key-sorted view of the value to the native JSON.stringify (several
  // times faster than writing JSON in JS, which matters at one call per row). Engines always
  // enumerate array-index keys ("0", "42") first, in numeric order, whatever the insertion
  // order, so a value with such a key is written by hand instead.
  const sorted = sortKeys(value, 0);
  const text = sorted === INDEX_KEYS ? write(value, 0) : JSON.stringify(sorted);
  if (text === undefined) throw new TypeError(`cannot write ${typeof value} as JSON`);
  return text;
}

/** Deeper than this is a cycle, or data no testset has; fail clearly before the stack does. */
const MAX_DEPTH = 1000;

/** Returned by {@link sortKeys} for values whose key order native JSON.stringify cannot honour. */
const INDEX_KEYS = Symbol('index keys');

function isIndexLike(key: string): boolean {
  const c = key.charCodeAt(0);
  return c >= 0x30 && c <= 0x39 && /^(?:0|[1-9][0-9]*)$/.test(key);
}

/** `value` with object keys in sorted order: the value itself when already so, else a copy. */
function sortKeys(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) {
    throw new TypeError(`cannot write JSON nested more than ${MAX_DEPTH} levels (or a cycle)`);
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) {
    const toJson = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJson === 'function') return sortKeys(toJson.call(value) as unknown, depth + 1);
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const sorted = sortKeys(item, depth + 1);
      if (sorted === INDEX_KEYS) return INDEX_KEYS;
      if (sorted !== item) {
        copy ??= value.slice();
        copy[i] = sorted;
      }
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let inOrder = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] ?? '';
    if (isIndexLike(key)) return INDEX_KEYS;
    if (i > 0 && (keys[i - 1] ?? '') > key) inOrder = false;
  }
  if (!inOrder) {
    keys.sort();
    const copy: Record<string, unknown> = {};
    for (const key of keys) {
      const sorted = sortKeys(record[key], depth + 1);
      if (sorted === INDEX_KEYS) return INDEX_KEYS;
      setDataKey(copy, key, sorted);
    }
    return copy;
  }
  // Keys already in order (JSON written by a canonical writer): copy only if a child changes.
  let copy: Record<string, unknown> | null = null;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] ?? '';
    const child = record[key];
    const sorted = sortKeys(child, depth + 1);
    if (sorted === INDEX_KEYS) return INDEX_KEYS;
    if (sorted !== child && copy === null) {
      copy = {};
      for (let j = 0; j < i; j++) setDataKey(copy, keys[j] ?? '', record[keys[j] ?? '']);
    }
    if (copy !== null) setDataKey(copy, key, sorted);
  }
  return copy ?? value;
}

/** The exact (slow) writer, for values with array-index keys. */
function write(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('cannot write a bigint as JSON');
    case 'object':
      break;
    default:
      return undefined; // undefined, function, symbol
  }
  if (value === null) return 'null';
  if (depth > MAX_DEPTH) {
    throw new TypeError(`cannot write JSON nested more than ${MAX_DEPTH} levels (or a cycle)`);
  }
  const toJson = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJson === 'function') return write(toJson.call(value) as unknown, depth + 1);
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => write(item, depth + 1) ?? 'null');
    return `[${items.join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = write(record[key], depth + 1);
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
  }
  return `{${members.join(',')}}`;
}

function sha256(text: string): string {
  return digest('sha256', text, 'hex');
}

/**
 * A testcase's content address: sha256 (hex) of `canonicalJson({ testset, data })`. Hashing
 * structured JSON, never concatenated values, keeps `{a:1,b:23}` and `{a:12,b:3}` apart.
 */
export function contentId(testsetId: string, data: Record<string, unknown>): string {
  // Written out rather than canonicalJson({ testset, data }) to skip sorting the wrapper per row.
  return sha256(`{"data":${canonicalJson(data)},"testset":${JSON.stringify(testsetId)}}`);
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
}

/** Prepared cases and the revision of all rows, or every problem found. */
export type PrepareCasesResult =
  { ok: true; cases: PreparedCase[]; revision: string } | { ok: false; issues: Issue[] };

/**
 * Computes each row's contentId and identity, rejects duplicate identities, and computes the
 * revision over every row in file order (before any tag filtering, so a pin covers the file).
 *
 * Identity: the row's dedup id when it has one; else the sha256 of the canonical JSON of its
 * `hash` fields (or the hash function's result); else its contentId.
 */
export function prepareCases(rows: TestsetRow[], options: PrepareCasesOptions): PrepareCasesResult {
  const { testsetId, file } = options;
  const hash = Array.isArray(options.hash) && options.hash.length === 0 ? undefined : options.hash;
  const issues = new IssueList(file ?? '');
  const cases: PreparedCase[] = [];
  const contentIds: string[] = [];
  const firstLine = new Map<string, number>();

  for (const row of rows) {
    const cid = contentId(testsetId, row.data);
    contentIds.push(cid);
    const id = identityOf(row, cid, hash, issues);
    if (id === null) continue;
    const first = firstLine.get(id);
    if (first !== undefined) {
      issues.add('testset.duplicate-id', row.line, 0, duplicateMessage(id, first, row.line, file));
      continue;
    }
    firstLine.set(id, row.line);
    cases.push({
      id,
      contentId: cid,
      source: file === null ? null : { file, line: row.line },
      data: row.data,
      meta: row.meta,
    });
  }
  if (!issues.empty) return { ok: false, issues: issues.toArray() };
  return { ok: true, cases, revision: computeRevision(contentIds) };
}

function identityOf(
  row: TestsetRow,
  cid: string,
  hash: CaseHash | undefined,
  issues: IssueList,
): string | null {
  if (row.meta.dedupId !== undefined) return row.meta.dedupId;
  if (hash === undefined) return cid;
  if (typeof hash === 'function') return hashFunctionId(row, hash, issues);

  const picked: Record<string, unknown> = {};
  let complete = true;
  for (const field of hash) {
    if (!Object.hasOwn(row.data, field) || row.data[field] === undefined) {
      issues.add(
        'testset.hash-field-missing',
        row.line,
        0,
        `hash field ${JSON.stringify(field)} is missing from this row (hash: needs every listed field in every row)`,
      );
      complete = false;
    } else {
      Object.defineProperty(picked, field, { value: row.data[field], enumerable: true });
    }
  }
  return complete ? sha256(canonicalJson(picked)) : null;
}

function hashFunctionId(
  row: TestsetRow,
  hash: (data: Record<string, unknown>) => string,
  issues: IssueList,
): string | null {
  let result: unknown;
  try {
    result = hash(row.data);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    issues.add('testset.hash-invalid', row.line, 0, `the case hash function threw: ${reason}`);
    return null;
  }
  // Numbers are accepted as their text; anything else would stringify to one shared id.
  const id =
    typeof result === 'string' ? result : typeof result === 'number' ? String(result) : null;
  if (id === null || id === '') {
    issues.add(
      'testset.hash-invalid',
      row.line,
      0,
      `the case hash function returned ${describeValue(result)}: it must return a non-empty string`,
    );
    return null;
  }
  return id;
}

/** Full sha256 ids are unreadable in a message; 12 hex digits are as unique in practice. */
function shortId(id: string): string {
  return /^[0-9a-f]{13,}$/i.test(id) ? id.slice(0, 12) : id;
}

function duplicateMessage(id: string, first: number, line: number, file: string | null): string {
  const shown = JSON.stringify(shortId(id));
  return file === null
    ? `duplicate case identity ${shown}: test cases ${first} and ${line} (make the testCaseHash values unique)`
    : `duplicate case identity ${shown}: rows at lines ${first} and ${line} (make __dedup_id__ or the hash: fields unique)`;
}

/**
 * Keeps the cases whose `__tags__` include at least one of `tags` (exact, case-sensitive match).
 * An empty `tags` list keeps every case.
 */
export function filterByTags<T extends { meta: RowMeta }>(cases: T[], tags: string[]): T[] {
  if (tags.length === 0) return [...cases];
  const wanted = new Set(tags);
  return cases.filter((c) => c.meta.tags?.some((tag) => wanted.has(tag)) ?? false);
}
