/**
 * The baselines file of an `automatic-battle` evaluator: one recorded answer per case, committed
 * next to the config and updated only on request, like a snapshot test's snapshots.
 *
 * The file's text is pure data here (parse, serialize, case keys); reading it is the small
 * function at the end, writing goes through pipeline/write-file-atomic.ts, and `BaselineStore`
 * holds one run's view of it.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../shared/canonical-json.ts';
import { isRecord } from '../../shared/is-record.ts';
import { describeJsonError, type Scrub } from '../../shared/json-syntax.ts';
import { ownFields, setOwn } from '../../shared/own-key.ts';
import { readRegularFileSync } from '../../shared/regular-file.ts';

/** The most of a baselines file read: beyond any committed snapshot, short of exhausting memory. */
const MAX_BASELINES_BYTES = 1024 * 2 ** 20;

/** The file format this code reads and writes; another version is refused, not guessed at. */
export const BASELINES_VERSION = 1;

/** One case's baseline: the value under test as it was recorded, and when. */
export interface RecordedBaseline {
  output: unknown;
  /** ISO 8601. */
  recordedAt: string;
}

/** Whose baselines a file holds; a file of another suite or evaluator is refused. */
export interface BaselineOwner {
  suite: string;
  evaluator: string;
}

/** The file's content. */
export interface BaselineFile extends BaselineOwner {
  version: typeof BASELINES_VERSION;
  /** By case key (see `baselineCaseKey`). */
  baselines: Record<string, RecordedBaseline>;
}

/** Ids that are safe as path segments (the config's id pattern). */
const SAFE_SEGMENT = /^[A-Za-z0-9][\w.-]*$/;

/**
 * `battles/<suite>/<evaluator>.json`, relative to the config folder; `undefined` when an id
 * (possible from code, not from evals.yaml) would not make a safe file name.
 */
export function defaultBaselinePath(owner: BaselineOwner): string | undefined {
  if (!SAFE_SEGMENT.test(owner.suite) || !SAFE_SEGMENT.test(owner.evaluator)) return undefined;
  return `battles/${owner.suite}/${owner.evaluator}.json`;
}

/**
 * The key of one case at one grid point: sha256 (hex) of the canonical JSON of
 * `{ case, params }`. Evaluators are not told the case's id, and the same case runs once per
 * grid point, so the case's data and the params are what identify it. Editing a case's data
 * therefore gives it a new key (and calls for a new baseline).
 *
 * @throws TypeError when the data cannot be written as JSON (a bigint, a cycle).
 */
export function baselineCaseKey(testCase: unknown, params: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ case: testCase, params }))
    .digest('hex');
}

/** `value` as the JSON the file will hold, or why it cannot be recorded. */
export function recordableValue(
  value: unknown,
): { ok: true; value: unknown } | { ok: false; error: string } {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return { ok: false, error: `it cannot be written as JSON (${(error as Error).message})` };
  }
  if (text === undefined) return { ok: false, error: `${typeof value} cannot be written as JSON` };
  return { ok: true, value: JSON.parse(text) as unknown };
}

/**
 * The file's content from its text, checked: the version, the owner, and every entry's shape.
 * A problem comes back as one sentence for the error that names the file. `scrub` removes the
 * run's secrets from what a JSON syntax error quotes of the text, before it is cut short.
 */
export function parseBaselineFile(
  text: string,
  owner: BaselineOwner,
  scrub?: Scrub,
): { ok: true; file: BaselineFile } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `is not valid JSON (${whereNotJson(text, error, scrub)})` };
  }
  if (!isRecord(data)) {
    return {
      ok: false,
      error: 'is not a JSON object with version, suite, evaluator and baselines',
    };
  }
  if (data.version !== BASELINES_VERSION) {
    return {
      ok: false,
      error: `has format version ${JSON.stringify(data.version) ?? 'none'}; this evalgate reads version ${BASELINES_VERSION}`,
    };
  }
  if (data.suite !== owner.suite || data.evaluator !== owner.evaluator) {
    return {
      ok: false,
      error: `holds the baselines of suite ${JSON.stringify(data.suite)}, evaluator ${JSON.stringify(data.evaluator)}, not of suite "${owner.suite}", evaluator "${owner.evaluator}"`,
    };
  }
  if (!isRecord(data.baselines)) return { ok: false, error: '"baselines" is not an object' };
  const baselines: Record<string, RecordedBaseline> = {};
  for (const [key, entry] of Object.entries(data.baselines)) {
    if (
      !isRecord(entry) ||
      !Object.hasOwn(entry, 'output') ||
      typeof entry.recordedAt !== 'string'
    ) {
      return {
        ok: false,
        error: `baseline "${key}" is not an object with "output" and "recordedAt"`,
      };
    }
    setOwn(baselines, key, { output: entry.output, recordedAt: entry.recordedAt });
  }
  return { ok: true, file: { version: BASELINES_VERSION, ...owner, baselines } };
}

/** A line git leaves where a merge conflicted: a committed file two branches both recorded into. */
const CONFLICT_MARKER = /^(<{7}|={7}|>{7})(?: |$)/m;

/**
 * Where `text` stops being JSON, by line and column, and what was expected there; for a file
 * holding merge conflict markers, also that: the usual cause of a committed file gone bad.
 */
function whereNotJson(text: string, error: unknown, scrub: Scrub | undefined): string {
  const conflict = CONFLICT_MARKER.test(text)
    ? '; it holds git merge conflict markers (<<<<<<<): keep one side of each conflict'
    : '';
  return `${describeJsonError(text, error, scrub)}${conflict}`;
}

/**
 * A copy of JSON data with every object's keys in sorted order; a `__proto__` key of a recorded
 * output stays a key (see own-key.ts).
 */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isRecord(value)) return value;
  return ownFields(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys(value[key])] as const),
  );
}

/**
 * The file's text: indented, keys sorted at every depth, a final newline. Re-recording one case
 * then changes only that case's lines, which keeps review diffs small.
 */
export function serializeBaselineFile(file: BaselineFile): string {
  return `${JSON.stringify(sortedKeys(file), null, 2)}\n`;
}

/**
 * One run's view of a baselines file: the baselines as loaded (battles always use these, so the
 * order in which cases finish changes nothing) and the changes waiting for the run's end.
 *
 * The file may be written when it did not exist (the first run records every case) or when the
 * run was asked to update baselines; otherwise the store refuses every change, so a plain run
 * can never rewrite a committed file.
 */
export class BaselineStore {
  readonly owner: BaselineOwner;
  /** False for a plain run over an existing file. */
  readonly writable: boolean;
  readonly #loaded: Readonly<Record<string, RecordedBaseline>>;
  readonly #pending = new Map<string, RecordedBaseline>();
  readonly #now: () => Date;

  constructor(options: {
    owner: BaselineOwner;
    /** The file as read; `undefined` when it does not exist. */
    existing: BaselineFile | undefined;
    updateBaselines: boolean;
    /** A file that does not exist is not recorded unless `updateBaselines` (a run in CI). */
    noFirstRecording?: boolean;
    now?: () => Date;
  }) {
    this.owner = options.owner;
    this.writable =
      (options.existing === undefined && options.noFirstRecording !== true) ||
      options.updateBaselines;
    this.#loaded = options.existing?.baselines ?? {};
    this.#now = options.now ?? (() => new Date());
  }

  /** The recorded baseline of `key`, as loaded. */
  baseline(key: string): RecordedBaseline | undefined {
    return Object.hasOwn(this.#loaded, key) ? this.#loaded[key] : undefined;
  }

  /**
   * Sets `key`'s baseline for the file written at the end. The first value set for a key in a
   * run is kept: with several trials of one case, the file should not depend on which finished
   * last. Returns false when nothing was set (not writable, or already set this run).
   */
  record(key: string, output: unknown): boolean {
    if (!this.writable || this.#pending.has(key)) return false;
    this.#pending.set(key, { output, recordedAt: this.#now().toISOString() });
    return true;
  }

  /** How many cases this run gave a first baseline (not those whose baseline it replaced). */
  firstRecorded(): number {
    let count = 0;
    for (const key of this.#pending.keys()) if (!Object.hasOwn(this.#loaded, key)) count++;
    return count;
  }

  /** The file to write, or `undefined` when the run changed nothing (then nothing is written). */
  changedFile(): BaselineFile | undefined {
    if (this.#pending.size === 0) return undefined;
    return {
      version: BASELINES_VERSION,
      ...this.owner,
      baselines: { ...this.#loaded, ...Object.fromEntries(this.#pending) },
    };
  }
}

/**
 * Reads and checks the file at `path`; `undefined` when it does not exist. Any other problem is
 * thrown with `shown` (the path as the user knows it) in the message; `scrub`: see
 * {@link parseBaselineFile}.
 */
export function readBaselineFile(
  path: string,
  shown: string,
  owner: BaselineOwner,
  scrub?: Scrub,
): BaselineFile | undefined {
  let text: string;
  try {
    // A FIFO would block and a device never end: refused by what it is, before any read.
    text = readRegularFileSync(path, MAX_BASELINES_BYTES).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(
      `automatic-battle: cannot read the baselines file ${shown}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const parsed = parseBaselineFile(text, owner, scrub);
  if (!parsed.ok) {
    throw new Error(
      `automatic-battle: the baselines file ${shown} ${parsed.error}. Fix it, or delete it to record new baselines.`,
    );
  }
  return parsed.file;
}
