import { stat } from 'node:fs/promises';
import { usageError } from '../errors.ts';
import type { PreparedCase, TestsetRow } from '../types.ts';
import type { TestsetFormat } from './formats.ts';
import { testsetRowBatches } from './stream-read.ts';

/** Bytes of a sha256 id (64 hex digits). */
const ID_BYTES = 32;

/** Ids a block of an {@link IdColumn} holds: blocks of 64 KB. */
const BLOCK = 2048;

/** Ids hex-coded at once (a divisor of {@link BLOCK}, so a run never straddles two blocks). */
const RUN = 64;

/** Where a row with a dedup id has no field hash to keep. */
const NO_ID = '0'.repeat(ID_BYTES * 2);

/**
 * sha256 ids (64 hex digits) kept as their 32 bytes, in fixed blocks (growing never copies, nor
 * frees a block the allocator would have to find a use for). They are hex-coded {@link RUN} at
 * a time, written as one joined text and read back as one text cut into slices: one call per
 * id each way cost ~40 ms of a 100,000-case run.
 */
class IdColumn {
  readonly #blocks: Buffer[] = [];
  #pending: string[] = [];
  #written = 0;
  /** The run last decoded, and where it starts. */
  #run = '';
  #runStart = -1;

  push(id: string): void {
    this.#pending.push(id);
    if (this.#pending.length === RUN) this.flush();
  }

  /** Writes the ids not written yet; done before any is read. */
  flush(): void {
    const count = this.#pending.length;
    if (count === 0) return;
    const slot = this.#written % BLOCK;
    if (slot === 0) this.#blocks.push(Buffer.allocUnsafeSlow(BLOCK * ID_BYTES));
    this.#blocks[this.#blocks.length - 1]!.write(this.#pending.join(''), slot * ID_BYTES, 'hex');
    this.#pending = [];
    this.#written += count;
  }

  get(i: number): string {
    const start = i - (i % RUN);
    if (start !== this.#runStart) {
      const at = (start % BLOCK) * ID_BYTES;
      const end = Math.min(start + RUN, this.#written);
      const block = this.#blocks[Math.floor(start / BLOCK)]!;
      this.#run = block.toString('hex', at, at + (end - start) * ID_BYTES);
      this.#runStart = start;
    }
    const from = (i - start) * ID_BYTES * 2;
    return this.#run.slice(from, from + ID_BYTES * 2);
  }
}

/**
 * What a testset's first read leaves of the cases it keeps, for reading them again later
 * ({@link CaseReplay}): each kept case's row position and contentId, and with `hash:` fields its
 * identity, ~70 bytes a case where a held case is ~470. Everything else a case holds comes from
 * its row again. `seal` once the last case was added, before any is read.
 */
export class KeptCases {
  readonly #positions: Uint32Array[] = [];
  readonly #contentIds = new IdColumn();
  /** With `hash:` fields: each case's identity (a placeholder for rows with a dedup id). */
  readonly #ids: IdColumn | null;
  #count = 0;

  /** `fieldIds`: the identities are hashes of `hash:` fields, so they are kept too. */
  constructor(fieldIds: boolean) {
    this.#ids = fieldIds ? new IdColumn() : null;
  }

  get count(): number {
    return this.#count;
  }

  /**
   * The next kept case: its row position, contentId, and its identity when that is a hash of
   * `hash:` fields (a dedup id comes back with its row, and a contentId is kept anyway).
   */
  add(position: number, contentId: string, fieldId: string | null): void {
    const slot = this.#count % BLOCK;
    if (slot === 0) this.#positions.push(new Uint32Array(BLOCK));
    this.#positions[this.#positions.length - 1]![slot] = position;
    this.#contentIds.push(contentId);
    this.#ids?.push(fieldId ?? NO_ID);
    this.#count++;
  }

  /** After the last `add`: the ids are all written. */
  seal(): void {
    this.#contentIds.flush();
    this.#ids?.flush();
  }

  position(i: number): number {
    return this.#positions[Math.floor(i / BLOCK)]![i % BLOCK]!;
  }

  contentId(i: number): string {
    return this.#contentIds.get(i);
  }

  fieldId(i: number): string | null {
    return this.#ids === null ? null : this.#ids.get(i);
  }
}

/**
 * A testset's kept cases made again from its rows, read a second time in the same order: the
 * cases {@link KeptCases} recorded, equal to those the first read would have held (when the file
 * did not change in between; `complete` tells part of that, the caller checks the rest).
 */
export class CaseReplay {
  readonly #kept: KeptCases;
  readonly #file: string | null;
  /** Rows seen: the next row's position. */
  #row = 0;
  /** Kept cases made: the next one's place in `#kept`. */
  #next = 0;

  constructor(kept: KeptCases, file: string | null) {
    this.#kept = kept;
    this.#file = file;
  }

  /** The next row's case, or undefined when the first read did not keep its row. */
  add(row: TestsetRow): PreparedCase | undefined {
    const position = this.#row++;
    const k = this.#next;
    if (k >= this.#kept.count || this.#kept.position(k) !== position) return undefined;
    this.#next++;
    const contentId = this.#kept.contentId(k);
    // The identity as the first read found it: dedup id, else hash of `hash:` fields, else contentId.
    const id = row.meta.dedupId ?? this.#kept.fieldId(k) ?? contentId;
    const source = this.#file === null ? null : { file: this.#file, line: row.line };
    return { id, contentId, source, data: row.data, meta: row.meta, index: position };
  }

  /** Whether the rows gave every kept case, and `rows` rows in all (as the first read did). */
  complete(rows: number): boolean {
    return this.#next === this.#kept.count && this.#row === rows;
  }
}

/**
 * Cases given to the engine at once. The engine reads the next batch while the workers take
 * the second half of one (`case-cursor.ts`), so they seldom wait, and a batch is short-lived:
 * batches of 256 outlived two young-generation collections and were promoted as garbage
 * (~175 KB every other collection; a 10,000-case run peaked ~2 MB higher, 68.4 vs 66.4 MB).
 */
const REPLAY_BATCH = 32;

/** What identifies a file's content well enough to notice it changed: stat's, to the nanosecond. */
export interface FileStamp {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
}

export async function fileStamp(absPath: string): Promise<FileStamp | null> {
  try {
    const s = await stat(absPath, { bigint: true });
    return { dev: s.dev, ino: s.ino, size: s.size, mtimeNs: s.mtimeNs };
  } catch {
    return null;
  }
}

/** A testset file whose kept cases are read again ({@link replayCases}), as first read. */
export interface ReplaySource {
  absPath: string;
  displayPath: string;
  format: TestsetFormat;
  /** The cases' `source.file`. */
  file: string;
  kept: KeptCases;
  /** Rows the first read found. */
  rows: number;
  /** The file as the first read found it. */
  stamp: FileStamp;
}

/**
 * The kept cases of a testset, read again from its file a batch at a time (the rows of a few
 * lines each): equal to the cases the first read would have held. A file that changed since,
 * or that cannot be read any more, is a usage error (`testset.changed`): the run cannot go on
 * with cases other than the ones its revision was computed from, so the run stops.
 */
export async function* replayCases(source: ReplaySource): AsyncGenerator<PreparedCase[]> {
  const changed = (how: string) =>
    usageError(
      'testset.changed',
      `${source.displayPath} ${how} since the run read it first (each run reads its cases again as it goes, to hold only a few in memory); run again with the file left as it is`,
      source.displayPath,
    );
  const unchanged = async (): Promise<void> => {
    const now = await fileStamp(source.absPath);
    if (now === null) throw changed('went away');
    const was = source.stamp;
    if (
      now.dev !== was.dev ||
      now.ino !== was.ino ||
      now.size !== was.size ||
      now.mtimeNs !== was.mtimeNs
    ) {
      throw changed('changed');
    }
  };
  await unchanged();
  const replay = new CaseReplay(source.kept, source.file);
  const batches = testsetRowBatches(source.absPath, source.format, source.displayPath);
  let next: IteratorResult<TestsetRow[], unknown>;
  try {
    let cases: PreparedCase[] = [];
    while (!(next = await batches.next()).done) {
      for (const row of next.value) {
        const made = replay.add(row);
        if (made !== undefined) cases.push(made);
      }
      if (cases.length >= REPLAY_BATCH) {
        yield cases;
        cases = [];
      }
    }
    if (cases.length > 0) yield cases;
  } catch (error) {
    // The file was there a moment ago: a read failing now means it changed under the run.
    const errno =
      error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
    if (errno) throw changed('could no longer be read');
    throw error;
  } finally {
    await batches.return(undefined as never);
  }
  const result = next.value as { ok: boolean };
  if (!result.ok || !replay.complete(source.rows)) throw changed('changed');
  await unchanged();
}
