/**
 * What changed between two versions of a testset, row by row. Rows are matched by identity
 * (`PreparedCase.id`), so what counts as an edit depends on how the testset identifies its rows:
 * with a dedup id or `hash:` fields an edited row keeps its identity and shows as changed; with
 * content identity (neither) the identity *is* the content, so the same edit is one row removed
 * and one added. Pure: prepared cases in, a model out (render.ts turns it into text or JSON).
 */
import type { PreparedCase, RowMeta } from '../types/index.ts';
import { canonicalJson } from '../shared/canonical-json.ts';

/** One field that differs between the two versions of a row. */
export interface FieldChange {
  /**
   * A data key, or a metadata column name (`__tags__`, `__flags__`, `__meta__`, `__id__`,
   * `__dedup_id__`). The readers never leave those names in a row's data, so they cannot clash.
   */
  field: string;
  /** The value in the older version; `undefined` when the field is absent there. */
  before: unknown;
  /** The value in the newer version; `undefined` when the field is absent there. */
  after: unknown;
}

/** A row present in both versions, with what differs. */
export interface RowChange {
  before: PreparedCase;
  after: PreparedCase;
  /** Data fields first (sorted by key), then metadata fields. */
  fields: FieldChange[];
}

/** A row present in both versions at another relative position. */
export interface RowMove {
  before: PreparedCase;
  after: PreparedCase;
}

/** The row-level difference between two versions of a testset. */
export interface TestsetDiff {
  /** Rows only in the newer version, in its order. */
  added: PreparedCase[];
  /** Rows only in the older version, in its order. */
  removed: PreparedCase[];
  /**
   * Same identity, different contentId, in the newer version's order. `fields` lists the data
   * keys whose canonical JSON differs, then any metadata that changed too. It can hold no data
   * field when the data is identical and the contentId still differs: the two sides were
   * prepared with different testset ids.
   */
  changed: RowChange[];
  /**
   * Same identity and contentId, different metadata (tags, flags, meta, `__id__`), in the newer
   * version's order. Metadata is not part of the contentId, so these edits keep the revision.
   */
  metadataOnly: RowChange[];
  /** Rows in both versions with the same contentId and metadata. */
  unchanged: number;
  /**
   * Rows in both versions that changed position relative to the others, in the newer version's
   * order: every common row outside one longest run kept in order (so moving one row lists that
   * row, not everything between its old and new place). Includes changed rows that also moved.
   */
  moved: RowMove[];
  /** The rows present in both versions are not in the same relative order (`moved` is not empty). */
  reordered: boolean;
  /**
   * Both versions have the same revision: the same contentIds in the same order. True when
   * nothing is added, removed, changed or reordered; metadata-only edits keep it true, and so
   * does a renamed dedup id (one row removed and one added with the same content), since
   * neither changes what a `revision:` pin covers.
   */
  equal: boolean;
}

/**
 * Compares two versions of a testset. Each side's ids must be unique, as `prepareCases`
 * guarantees. Pass every row of each file (before tag filtering) for `equal` to mean "same
 * revision".
 */
export function diffTestsets(
  before: readonly PreparedCase[],
  after: readonly PreparedCase[],
): TestsetDiff {
  const beforeById = new Map<string, { row: PreparedCase; index: number }>();
  before.forEach((row, index) => beforeById.set(row.id, { row, index }));
  const afterIds = new Set(after.map((row) => row.id));

  const added: PreparedCase[] = [];
  const changed: RowChange[] = [];
  const metadataOnly: RowChange[] = [];
  const common: RowMove[] = [];
  // Positions in `before` of the common rows, in `after` order: sorted means nothing moved.
  const beforeIndexes: number[] = [];
  let unchanged = 0;

  for (const next of after) {
    const match = beforeById.get(next.id);
    if (match === undefined) {
      added.push(next);
      continue;
    }
    const previous = match.row;
    common.push({ before: previous, after: next });
    beforeIndexes.push(match.index);
    const metaFields = metadataChanges(previous.meta, next.meta);
    if (previous.contentId !== next.contentId) {
      const fields = [...dataChanges(previous.data, next.data), ...metaFields];
      changed.push({ before: previous, after: next, fields });
    } else if (metaFields.length > 0) {
      metadataOnly.push({ before: previous, after: next, fields: metaFields });
    } else {
      unchanged++;
    }
  }

  const removed = before.filter((row) => !afterIds.has(row.id));
  const kept = new Set(longestIncreasingRun(beforeIndexes));
  const moved = common.filter((_, position) => !kept.has(position));

  return {
    added,
    removed,
    changed,
    metadataOnly,
    unchanged,
    moved,
    reordered: moved.length > 0,
    equal: sameContentIds(before, after),
  };
}

/** The revision is a hash of the ordered contentIds: comparing them says whether it is the same. */
function sameContentIds(before: readonly PreparedCase[], after: readonly PreparedCase[]): boolean {
  return (
    before.length === after.length &&
    before.every((row, index) => row.contentId === after[index]?.contentId)
  );
}

/** Marks an absent value; `canonicalJson` has no text for `undefined`. */
const ABSENT = Symbol('absent');

/**
 * A value's comparison key. An `undefined` value counts as absent, as it does for the contentId
 * (canonical JSON drops it), so the fields listed are exactly those that changed the contentId.
 */
function comparable(value: unknown): string | typeof ABSENT {
  return value === undefined ? ABSENT : canonicalJson(value);
}

function valueOf(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The data keys whose values differ, sorted by key (code units, as canonical JSON sorts). */
function dataChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): FieldChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changes: FieldChange[] = [];
  for (const field of keys) {
    const previous = valueOf(before, field);
    const next = valueOf(after, field);
    if (comparable(previous) !== comparable(next)) {
      changes.push({ field, before: previous, after: next });
    }
  }
  return changes;
}

/**
 * The metadata columns compared, under their column names, most often edited first. Tags are
 * compared as written (order included): the diff reports what changed in the file.
 */
const META_FIELDS: readonly [string, keyof RowMeta][] = [
  ['__tags__', 'tags'],
  ['__flags__', 'flags'],
  ['__meta__', 'meta'],
  ['__id__', 'id'],
  ['__dedup_id__', 'dedupId'],
];

const META_FIELD_NAMES: ReadonlySet<string> = new Set(META_FIELDS.map(([field]) => field));

/** True when a {@link FieldChange} is about metadata (`__tags__`, …) rather than data. */
export function isMetadataField(field: string): boolean {
  return META_FIELD_NAMES.has(field);
}

function metadataChanges(before: RowMeta, after: RowMeta): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, key] of META_FIELDS) {
    const previous = before[key];
    const next = after[key];
    if (comparable(previous) !== comparable(next)) {
      changes.push({ field, before: previous, after: next });
    }
  }
  return changes;
}

/**
 * Positions (into `values`) of one longest strictly increasing subsequence, ascending. Patience
 * sorting, O(n log n): a 100,000-row testset diffs without a quadratic pass.
 */
function longestIncreasingRun(values: readonly number[]): number[] {
  // tails[k]: position of the smallest value ending an increasing run of length k + 1.
  const tails: number[] = [];
  const previous: number[] = new Array<number>(values.length).fill(-1);
  values.forEach((value, position) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((values[tails[middle] ?? 0] ?? 0) < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[position] = tails[low - 1] ?? -1;
    tails[low] = position;
  });
  const run: number[] = [];
  for (let position = tails.at(-1) ?? -1; position !== -1; position = previous[position] ?? -1) {
    run.push(position);
  }
  return run.reverse();
}
