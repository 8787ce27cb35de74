/**
 * The `--json` form of a testset diff (`evals testset diff --json`): plain data, safe for
 * `JSON.stringify`, with each row's id, contentId, source line and data.
 */
import type { PreparedCase } from '../types/index.ts';
import type { FieldChange, RowChange, TestsetDiff } from '../testsets/diff.ts';

/** One field of a changed row in {@link DiffJson}; `before` or `after` is left out when absent. */
export interface FieldChangeJson {
  field: string;
  before?: unknown;
  after?: unknown;
}

/** A row only on one side, in {@link DiffJson}. `line` is `null` for cases given in code. */
export interface RowJson {
  id: string;
  contentId: string;
  line: number | null;
  data: unknown;
}

/** A row on both sides, in {@link DiffJson}. */
export interface RowChangeJson {
  id: string;
  lines: { before: number | null; after: number | null };
  contentIds: { before: string; after: string };
  fields: FieldChangeJson[];
}

/** The `--json` form of a {@link TestsetDiff}: plain data, safe for `JSON.stringify`. */
export interface DiffJson {
  added: RowJson[];
  removed: RowJson[];
  changed: RowChangeJson[];
  metadataOnly: RowChangeJson[];
  moved: { id: string; lines: { before: number | null; after: number | null } }[];
  unchanged: number;
  reordered: boolean;
  equal: boolean;
}

/**
 * The `--json` form of a diff. Rows carry their id, contentId, source line and data; a field
 * that is absent on one side has no `before` (or `after`) key.
 */
export function renderDiffJson(diff: TestsetDiff): DiffJson {
  const lines = (change: { before: PreparedCase; after: PreparedCase }) => ({
    before: change.before.source?.line ?? null,
    after: change.after.source?.line ?? null,
  });
  const change = (c: RowChange): RowChangeJson => ({
    id: c.after.id,
    lines: lines(c),
    contentIds: { before: c.before.contentId, after: c.after.contentId },
    fields: c.fields.map(fieldJson),
  });
  return {
    added: diff.added.map(rowJson),
    removed: diff.removed.map(rowJson),
    changed: diff.changed.map(change),
    metadataOnly: diff.metadataOnly.map(change),
    moved: diff.moved.map((move) => ({ id: move.after.id, lines: lines(move) })),
    unchanged: diff.unchanged,
    reordered: diff.reordered,
    equal: diff.equal,
  };
}

/** A row as JSON: its id, contentId, source line and data (`evals testset show --json` too). */
export function rowJson(c: PreparedCase): RowJson {
  return { id: c.id, contentId: c.contentId, line: c.source?.line ?? null, data: c.data };
}

function fieldJson(change: FieldChange): FieldChangeJson {
  return {
    field: change.field,
    ...(change.before === undefined ? {} : { before: change.before }),
    ...(change.after === undefined ? {} : { after: change.after }),
  };
}
