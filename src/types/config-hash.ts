/**
 * What an artifact records of the config that wrote it, beside `configHash`, so that
 * `evals run --resume` and `evals merge` can name what changed between two configs. Part of the
 * results artifact (schemaVersion 1), re-exported by `types/index.ts`; apart only to keep that
 * file readable.
 */

/**
 * The input of a configHash that covers files (pipeline/config-files-hash.ts): the hash of the
 * config's data as written (with the non-secret environment values it refers to), and the
 * sha256 of each covered file by kind, keyed by its path from the config's folder (`null`: the
 * file could not be read). configHash is the sha256 of the canonical JSON of this object.
 */
export interface ConfigHashParts {
  config: string;
  promptFiles?: Record<string, string | null>;
  modules?: Record<string, string | null>;
  scripts?: Record<string, string | null>;
}

/**
 * The config's data hash broken down (config/config-data-parts.ts), so a refusal can name the
 * suite, the top-level key or the environment variable that changed. Not part of configHash:
 * the data hash cannot be recomputed from it, so it is trusted only when `of` is that hash.
 */
export interface ConfigDataParts {
  /** The data hash this breaks down: `configHashParts.config`, or `configHash` without files. */
  of: string;
  /** sha256 (hex) of the canonical JSON of each top-level key's value but `suites`'. */
  keys: Record<string, string>;
  /** Each suite in the config's order: its id, and the sha256 of each of its keys' values. */
  suites: { id: string; keys: Record<string, string> }[];
  /**
   * Each environment variable the config refers to whose value is no secret: the sha256 of its
   * value, `null` when unset. Absent when it refers to none.
   */
  env?: Record<string, string | null>;
}
