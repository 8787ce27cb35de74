/** A testset's rows as read, and the cases prepared from them. */

/** Where a case came from, for annotations and error messages. `file` is relative to the config. */
export interface TestCaseSource {
  file: string;
  line: number;
}

/** Metadata columns of a testset row (`__id__`, `__dedup_id__`, `__flags__`, `__tags__`, `__meta__`). */
export interface RowMeta {
  /** `__id__`: kept for round trips; identity never trusts it. */
  id?: string;
  /** `__dedup_id__` or `data.testcase_dedup_id`: "the same row" across edits. */
  dedupId?: string;
  flags?: unknown;
  tags?: string[];
  meta?: unknown;
}

/** A testset row as read from its file, before identities are computed. */
export interface TestsetRow {
  /** The row's data, metadata columns and `testcase_dedup_id` removed. */
  data: Record<string, unknown>;
  /** 1-based line in the source file (CSV physical line, JSONL line, JSON/YAML node line). */
  line: number;
  /**
   * 1-based column, only where the line alone does not tell the row: inline cases in a flow list
   * that share a line (`cases: [{ a: 1 }, { a: 2 }]`).
   */
  col?: number;
  meta: RowMeta;
}

/** A case ready to run: data plus its identities. */
export interface PreparedCase<TCase = Record<string, unknown>> {
  /** Identity used to match cases across runs: dedup id, else hash of `hash:` fields, else contentId. */
  id: string;
  /** sha256 of canonical JSON of `{ testset, data }`. */
  contentId: string;
  /**
   * Only in a suite scoring outputs recorded in the testset (`output:`, or no function or
   * target): the contentId of the row without its output field. Its output is what the suite
   * scores, so a comparison pairs on this id: a changed output is a change in behaviour, not an
   * edited row.
   */
  inputId?: string;
  source: TestCaseSource | null;
  data: TCase;
  meta: RowMeta;
  /**
   * 0-based position of the row in its testset, before any tag or shard filter. Shard artifacts
   * carry it so `evals merge` can put cases back in testset order.
   */
  index: number;
}

export interface TestsetInfo {
  /** The file relative to the config; `null` for inline cases. */
  path: string | null;
  /** The git revision the file was read at, as written in the config; `null`: the working tree. */
  ref: string | null;
  /** The full commit sha `ref` resolved to; `null` when read from the working tree. */
  commit: string | null;
  revision: string;
  cases: number;
  /**
   * The `evals run --tag` values that narrowed the run's cases, sorted, each once. Present with
   * `--tag`, and in every run of a shard (`[]` without `--tag`), so `evals merge` can tell a shard
   * run without `--tag` from one written by an older evalgate, which recorded no filter.
   */
  tagFilter?: string[];
}
