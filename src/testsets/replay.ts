import { stat } from 'node:fs/promises';
import { usageError } from '../errors.ts';
import type { PreparedCase, TestsetRow } from '../types.ts';
import type { TestsetFormat } from './formats.ts';
import { testsetRowBatches } from './stream-read.ts';

/** Bytes of a sha256 id (64 hex digits). */
const ID_BYTES = 32;

/** Kept cases a block of {@link KeptCases} holds: blocks of 64 KB of ids. */
const BLOCK = 2048;

/**
 * What a testset's first read leaves of the cases it keeps, for reading them again later
 * ({@link CaseReplay}): each kept case's row position and contentId, and with `hash:` fields its
 * identity, ~70 bytes a case where a held case is ~470. Everything else a case holds comes from
 * its row again. Ids are sha256 hex, stored as their 32 bytes, in fixed blocks: growing never
 * copies, nor frees a block the allocator would have to find a use for.
 */
export class KeptCases {
  readonly #positions: Uint32Array[] = [];
  readonly #contentIds: Buffer[] = [];
  /** With `hash:` fields: each case's identity (unused slots for rows with a dedup id). */
  readonly #ids: Buffer[] | null;
  #count = 0;

  /** `fieldIds`: the identities are hashes of `hash:` fields, so they are kept too. */
  constructor(fieldIds: boolean) {
    this.#ids = fieldIds ? [] : null;
  }

  get count(): number {
    return this.#count;
  }

  /**
   * The next kept case: its row position, contentId, and its identity when that is a hash of
   * `hash:` fields (a dedup id comes back with its row, and a contentId is kept anyway).
   */
  add(position: number, contentId: string, fieldId: string | null): void {
    const block = Math.floor(this.#count / BLOCK);
    const slot = this.#count % BLOCK;
    if (slot === 0) {
      this.#positions.push(new Uint32Array(BLOCK));
      this.#contentIds.push(Buffer.allocUnsafeSlow(BLOCK * ID_BYTES));
      this.#ids?.push(Buffer.allocUnsafeSlow(BLOCK * ID_BYTES));
    }
    this.#positions[block]![slot] = position;
    this.#contentIds[block]!.write(contentId, slot * ID_BYTES, ID_BYTES, 'hex');
    if (fieldId !== null) this.#ids?.[block]!.write(fieldId, slot * ID_BYTES, ID_BYTES, 'hex');
    this.#count++;
  }

  position(i: number): number {
    return this.#positions[Math.floor(i / BLOCK)]![i % BLOCK]!;
  }

  contentId(i: number): string {
    return hexAt(this.#contentIds, i);
  }

  fieldId(i: number): string | null {
    return this.#ids === null ? null : hexAt(this.#ids, i);
  }
}

function hexAt(blocks: readonly Buffer[], i: number): string {
  const at = (i % BLOCK) * ID_BYTES;
  return blocks[Math.floor(i / BLOCK)]!.toString('hex', at, at + ID_BYTES);
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
    while (!(next = await batches.next()).done) {
      const cases: PreparedCase[] = [];
      for (const row of next.value) {
        const made = replay.add(row);
        if (made !== undefined) cases.push(made);
      }
      if (cases.length > 0) yield cases;
    }
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
