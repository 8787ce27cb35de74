import { describeValue } from '../shared/errors.ts';
import type { RowMeta, TestsetRow } from '../types/index.ts';
import { IssueList, type TestsetParseResult } from './issues.ts';
import { isRecord } from '../shared/is-record.ts';
import { setOwn } from '../shared/own-key.ts';

/**
 * Agenta's import/export metadata columns and the `RowMeta` field each one fills. They never
 * reach a row's data, so they never change its contentId.
 */
export const META_COLUMNS = {
  __id__: 'id',
  __dedup_id__: 'dedupId',
  __flags__: 'flags',
  __tags__: 'tags',
  __meta__: 'meta',
} as const satisfies Record<string, keyof RowMeta>;

/** A metadata column name. */
export type MetaColumn = keyof typeof META_COLUMNS;

/** The dedup id's JSON-payload form, kept inside `data` by Agenta; moved to `meta.dedupId` here. */
export const DATA_DEDUP_KEY = 'testcase_dedup_id';

/** True for a key that is moved out of a row's data: a metadata column or `testcase_dedup_id`. */
export function isReservedKey(key: string): key is MetaColumn | typeof DATA_DEDUP_KEY {
  return Object.hasOwn(META_COLUMNS, key) || key === DATA_DEDUP_KEY;
}

/** Metadata values as found in a record, before normalisation; `undefined` when absent. */
export interface RawMeta {
  id?: unknown;
  dedupId?: unknown;
  /** `testcase_dedup_id` from the data. */
  dataDedupId?: unknown;
  flags?: unknown;
  tags?: unknown;
  meta?: unknown;
}

/**
 * The metadata of a row that has none: one frozen object shared by every such row. Metadata is
 * only read after a row is built, and a fresh `{}` per row costs 56 bytes of heap that the run
 * keeps for every prepared case (11 MB at 200,000 cases).
 */
export const NO_META: RowMeta = Object.freeze({});

/**
 * Normalises a record's metadata: ids become strings, `__tags__` a string list, text holding a
 * JSON object or array is decoded for `__flags__`/`__meta__`. Empty values (`''`, `null`) are
 * absent, as Agenta drops empty metadata columns. Returns `null` after reporting a problem.
 */
export function normalizeMeta(raw: RawMeta, line: number, issues: IssueList): RowMeta | null {
  const meta: RowMeta = {};
  let ok = true;

  const id = idText(raw.id, '__id__', line, issues);
  if (id === INVALID) ok = false;
  else if (id !== undefined) meta.id = id;

  const dedupId = idText(raw.dedupId, '__dedup_id__', line, issues);
  const dataDedupId = idText(raw.dataDedupId, DATA_DEDUP_KEY, line, issues);
  if (dedupId === INVALID || dataDedupId === INVALID) {
    ok = false;
  } else if (dedupId !== undefined && dataDedupId !== undefined && dedupId !== dataDedupId) {
    // Agenta treats the two as one field in two spellings; two different values have no meaning.
    issues.add(
      'testset.dedup-conflict',
      line,
      0,
      `__dedup_id__ ${JSON.stringify(dedupId)} and ${DATA_DEDUP_KEY} ${JSON.stringify(dataDedupId)} disagree: keep one of them`,
    );
    ok = false;
  } else {
    const dedup = dedupId ?? dataDedupId;
    if (dedup !== undefined) meta.dedupId = dedup;
  }

  const tags = tagList(raw.tags, line, issues);
  if (tags === INVALID) ok = false;
  else if (tags !== undefined) meta.tags = tags;

  const flags = structured(raw.flags);
  if (flags !== undefined) meta.flags = flags;
  const extra = structured(raw.meta);
  if (extra !== undefined) meta.meta = extra;

  if (!ok) return null;
  return Object.keys(meta).length === 0 ? NO_META : meta;
}

/** Returned by the normalisers below after they reported a problem. */
const INVALID = Symbol('invalid');

function isAbsent(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  );
}

/** Ids are compared as text, so a JSON `7` and a CSV `7` are the same dedup id. */
function idText(
  value: unknown,
  name: string,
  line: number,
  issues: IssueList,
): string | undefined | typeof INVALID {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  issues.add(
    'testset.meta',
    line,
    0,
    `${name}: expected a string or a number, found ${describeValue(value)}`,
  );
  return INVALID;
}

const TAG_SEPARATORS = /[,;]/;

function tagList(
  value: unknown,
  line: number,
  issues: IssueList,
): string[] | undefined | typeof INVALID {
  if (isAbsent(value)) return undefined;
  // A CSV cell `["smoke","slow"]` arrives as text: decode it before splitting on commas.
  const decoded = typeof value === 'string' ? decodeJsonText(value) : value;
  let tags: string[];
  if (typeof decoded === 'string') {
    // The common cell holds one tag: skip splitting it.
    if (!TAG_SEPARATORS.test(decoded)) return [decoded.trim()];
    tags = decoded.split(TAG_SEPARATORS);
  } else if (Array.isArray(decoded) && (decoded as unknown[]).every(isTagItem)) {
    // Agenta's tags may be objects ({"split": "test"}), alone or in a list: each key/value
    // pair becomes the tag `split=test`, which `--tag split=test` selects.
    const items = decoded as (string | Record<string, string | number | boolean>)[];
    tags = items.flatMap((tag) => (typeof tag === 'string' ? [tag] : objectTags(tag)));
  } else if (isTagObject(decoded)) {
    tags = objectTags(decoded);
  } else {
    issues.add(
      'testset.meta',
      line,
      0,
      `__tags__: expected a list of strings, an object such as {"split": "test"}, or text such as "smoke, regression", found ${describeValue(value)}`,
    );
    return INVALID;
  }
  const kept: string[] = [];
  for (const tag of tags) {
    const trimmed = tag.trim();
    if (trimmed !== '') kept.push(trimmed);
  }
  return kept.length > 0 ? kept : undefined;
}

/** A tag object's values are scalars: `{"split": "test", "reviewed": true}`. */
function isTagObject(value: unknown): value is Record<string, string | number | boolean> {
  return (
    isRecord(value) &&
    Object.values(value).every(
      (v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
    )
  );
}

function isTagItem(value: unknown): value is string | Record<string, string | number | boolean> {
  return typeof value === 'string' || isTagObject(value);
}

/** `{"split": "test"}` → `["split=test"]`; keys in their order. */
function objectTags(tags: Record<string, string | number | boolean>): string[] {
  return Object.entries(tags).map(([key, value]) => `${key}=${String(value)}`);
}

/** `__flags__` / `__meta__`: JSON text is decoded, anything else is kept as given. */
function structured(value: unknown): unknown {
  if (isAbsent(value)) return undefined;
  return typeof value === 'string' ? decodeJsonText(value) : value;
}

/**
 * Decodes text that holds a JSON array or object (`[…]`, `{…}` once trimmed); any other text,
 * and text that only looks like JSON, is returned unchanged. Numbers are never coerced, so a
 * cell `42` stays the string `"42"`.
 */
export function decodeJsonText(text: string): unknown {
  // Most cells start with a letter or digit: answer those without trimming (one call per cell).
  const lead = text.charCodeAt(0);
  if (lead !== 0x5b && lead !== 0x7b && !isSpace(lead)) return text;
  const trimmed = text.trim();
  if (trimmed.length < 2) return text;
  const first = trimmed.charCodeAt(0);
  const last = trimmed.charCodeAt(trimmed.length - 1);
  const looksLikeJson =
    (first === 0x5b && last === 0x5d) /* [ ] */ || (first === 0x7b && last === 0x7d); /* { } */
  if (!looksLikeJson) return text;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return text;
  }
}

/**
 * True for every character `String.prototype.trim` removes (and for control characters, which
 * only costs the caller a trim): a cheap test before trimming.
 */
export function isSpace(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0xa0 ||
    code === 0xfeff ||
    (code >= 0x1680 && /\s/.test(String.fromCharCode(code)))
  );
}

/**
 * Builds a row from one object (a JSON element, a JSONL line, an inline YAML case): reserved
 * keys move into `meta`, the rest is the data. `fallbackId` fills `__id__` when the object has
 * none (the `id` of an Agenta testcase). Returns `null` after reporting a problem.
 */
export function rowFromObject(
  value: unknown,
  line: number,
  col: number,
  issues: IssueList,
  fallbackId?: unknown,
  fallbackMeta?: { flags?: unknown; tags?: unknown; meta?: unknown },
): TestsetRow | null {
  if (!isRecord(value)) {
    issues.add('testset.row-type', line, col, `expected an object, found ${describeValue(value)}`);
    return null;
  }
  const hasReserved =
    Object.hasOwn(value, '__id__') ||
    Object.hasOwn(value, '__dedup_id__') ||
    Object.hasOwn(value, '__flags__') ||
    Object.hasOwn(value, '__tags__') ||
    Object.hasOwn(value, '__meta__') ||
    Object.hasOwn(value, DATA_DEDUP_KEY);
  if (!hasReserved) {
    // The common case: no copy, the parsed object is the data.
    if (isAbsent(fallbackId) && fallbackMeta === undefined) {
      return { data: value, line, meta: NO_META };
    }
    const meta = normalizeMeta({ ...fallbackMeta, id: fallbackId }, line, issues);
    return meta && { data: value, line, meta };
  }
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (!isReservedKey(key)) setOwn(data, key, value[key]);
  }
  const raw: RawMeta = {
    id: isAbsent(value.__id__) ? fallbackId : value.__id__,
    dedupId: value.__dedup_id__,
    dataDedupId: value[DATA_DEDUP_KEY],
    flags: isAbsent(value.__flags__) ? fallbackMeta?.flags : value.__flags__,
    tags: isAbsent(value.__tags__) ? fallbackMeta?.tags : value.__tags__,
    meta: isAbsent(value.__meta__) ? fallbackMeta?.meta : value.__meta__,
  };
  const meta = normalizeMeta(raw, line, issues);
  return meta && { data, line, meta };
}

/**
 * Rows from already-parsed objects, each with the line it starts on: JSON array elements and the
 * inline `cases:` of a config (whose lines point into the config file). Metadata is handled
 * exactly as for CSV columns.
 */
export function rowsFromRecords(
  records: { value: Record<string, unknown>; line: number; col?: number }[],
  file: string,
): TestsetParseResult {
  const issues = new IssueList(file);
  const rows: TestsetRow[] = [];
  for (const record of records) {
    const col = record.col ?? 0;
    const row = rowFromObject(record.value, record.line, col, issues);
    // Only inline cases that share a line carry a column (see `TestsetRow.col`).
    if (row) rows.push(col > 0 ? { ...row, col } : row);
  }
  return issues.empty ? { ok: true, rows } : { ok: false, issues: issues.toArray() };
}
