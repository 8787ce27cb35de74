/**
 * Reads workflow-artifact ZIP archives through yauzl. For `baseline: auto` the archive comes
 * from another workflow run, so it is untrusted: yauzl checks structure, bounds, names and
 * sizes, and the caps it leaves to its caller live here. A zip bomb must not exhaust the
 * runner's memory: at most 512 MiB inflated in total (counting the bytes actually inflated,
 * not only those claimed) and 1,000:1 per entry over 1 MiB. CRC-32 is checked (yauzl does
 * not); encryption, methods other than stored and deflate, duplicate names, entries sharing
 * bytes and local headers disagreeing with the central directory are refused as a
 * {@link ZipError}.
 */
import { crc32 } from 'node:zlib';
import { fromBufferPromise } from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';

/** One file of an archive; directories are not returned. */
export interface ZipEntry {
  /** The path inside the archive, `/`-separated, e.g. `evals-results.json` or `out/a.json`. */
  name: string;
  data: Buffer;
}

/** Limits that keep a hostile archive (a zip bomb) from exhausting memory. */
export interface ZipLimits {
  /** Most bytes all entries may inflate to together; default 512 MiB. */
  maxTotalBytes?: number;
  /**
   * Highest uncompressed:compressed ratio accepted for an entry over 1 MiB; default 1,000.
   * Deflate cannot exceed about 1,032:1, so a higher claim is a lie, and real JSON stays far below.
   */
  maxRatio?: number;
}

/** Thrown for any archive {@link readZipEntries} will not read; `message` says what is wrong. */
export class ZipError extends Error {
  /** Stable code to branch on. */
  readonly code = 'zip.invalid';
  override readonly name = 'ZipError';
}

/** Default for {@link ZipLimits.maxTotalBytes}. */
export const MAX_TOTAL_BYTES = 512 * 1024 * 1024;
/** Default for {@link ZipLimits.maxRatio}. */
export const MAX_RATIO = 1000;
/** Entries smaller than this skip the ratio check: tiny highly repetitive files are harmless. */
const RATIO_FLOOR_BYTES = 1024 * 1024;
const INVALID = 'invalid or unsupported ZIP archive: ';

/**
 * Reads every file of a ZIP archive held in memory, whole or not at all: names relative
 * without `..`, sizes and CRC-32 as declared, the total within `limits`. ZIP64 is read.
 * @throws {ZipError} when the archive is malformed, truncated, corrupt, over a limit, split
 *   over disks, encrypted, or compressed by another method than stored or deflate.
 */
export async function readZipEntries(buffer: Buffer, limits: ZipLimits = {}): Promise<ZipEntry[]> {
  const maxTotal = limits.maxTotalBytes ?? MAX_TOTAL_BYTES;
  // Backslashes become `/` (strictFileNames: false) so an archive zipped on Windows still
  // reads; yauzl refuses absolute and `..` names after that, so nothing unsafe gets through.
  const zipfile = await fromLibrary(INVALID, () =>
    fromBufferPromise(buffer, { validateEntrySizes: true, strictFileNames: false }),
  );
  try {
    const records = await readCentralDirectory(zipfile, maxTotal, limits.maxRatio ?? MAX_RATIO);
    await checkLayout(zipfile, records);
    const inflated = { bytes: 0, max: maxTotal };
    const entries: ZipEntry[] = [];
    for (const record of records) {
      if (record.fileName.endsWith('/')) continue;
      entries.push({ name: record.fileName, data: await inflate(zipfile, record, inflated) });
    }
    return entries;
  } finally {
    zipfile.close();
  }
}

/**
 * Every central-directory record, refusing what this reader does not support and, before
 * anything is inflated, sizes over the limits as the archive declares them.
 */
async function readCentralDirectory(
  zipfile: ZipFile,
  maxTotal: number,
  maxRatio: number,
): Promise<Entry[]> {
  const records: Entry[] = [];
  const names = new Set<string>();
  let declaredTotal = 0;
  await fromLibrary(INVALID, async () => {
    for await (const record of zipfile.eachEntry()) {
      const { fileName: name, uncompressedSize: size, compressedSize: compressed } = record;
      if (record.isEncrypted()) {
        throw new ZipError(`entry "${name}" is encrypted; encrypted archives are not supported`);
      }
      const method = record.compressionMethod;
      if (method !== 0 && method !== 8) {
        throw new ZipError(
          `entry "${name}" uses compression method ${method}; only stored (0) and deflate (8) are supported`,
        );
      }
      if (names.has(name)) throw new ZipError(`entry "${name}" appears twice in the archive`);
      names.add(name);
      declaredTotal += size;
      if (declaredTotal > maxTotal) throw overTotal(maxTotal, name);
      if (size > RATIO_FLOOR_BYTES && size > maxRatio * Math.max(1, compressed)) {
        throw new ZipError(
          `entry "${name}" claims ${size} bytes from ${compressed} compressed (over ${maxRatio}:1); refusing a likely zip bomb`,
        );
      }
      records.push(record);
    }
  });
  return records;
}

/**
 * Checks each local header against its central record, and that no two entries share bytes
 * (how some zip bombs multiply their output; a real archive never does it).
 */
async function checkLayout(zipfile: ZipFile, records: Entry[]): Promise<void> {
  const spans: { name: string; start: number; end: number }[] = [];
  for (const record of records) {
    const name = record.fileName;
    const local = await fromLibrary(`entry "${name}" cannot be read: `, () =>
      zipfile.readLocalFileHeaderPromise(record),
    );
    const sameName = local.fileName.equals(record.fileNameRaw);
    if (!sameName || local.compressionMethod !== record.compressionMethod) {
      throw new ZipError(`entry "${name}": the local header disagrees with the central directory`);
    }
    const start = record.relativeOffsetOfLocalHeader;
    spans.push({ name, start, end: local.fileDataStart + record.compressedSize });
  }
  spans.sort((a, b) => a.start - b.start);
  for (const [index, current] of spans.entries()) {
    const previous = spans[index - 1];
    if (previous && current.start < previous.end) {
      throw new ZipError(
        `entries "${previous.name}" and "${current.name}" overlap; the archive is malformed`,
      );
    }
  }
}

/**
 * The entry's bytes, CRC-checked. yauzl stops once past the declared size (validateEntrySizes);
 * the bytes are also added to `inflated`, and inflating stops once that passes its maximum.
 */
async function inflate(
  zipfile: ZipFile,
  record: Entry,
  inflated: { bytes: number; max: number },
): Promise<Buffer> {
  const name = record.fileName;
  const data = await fromLibrary(`entry "${name}" is corrupt: `, async () => {
    const stream = await zipfile.openReadStreamPromise(record);
    const chunks: Buffer[] = [];
    // Leaving the loop early (the throw) destroys the stream, which stops the inflater.
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      inflated.bytes += chunk.length;
      if (inflated.bytes > inflated.max) throw overTotal(inflated.max, name);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  });
  const crc = crc32(data);
  if (crc !== record.crc32) {
    const hex = (value: number): string => `0x${value.toString(16).padStart(8, '0')}`;
    throw new ZipError(
      `entry "${name}" is corrupt: CRC-32 ${hex(crc)} does not match the declared ${hex(record.crc32)}`,
    );
  }
  return data;
}

/** Runs a yauzl call; its rejections (plain Errors saying what is wrong) become ZipErrors. */
async function fromLibrary<T>(context: string, call: () => Promise<T>): Promise<T> {
  return call().catch((cause: unknown) => {
    if (cause instanceof ZipError) throw cause;
    throw new ZipError(context + (cause instanceof Error ? cause.message : String(cause)));
  });
}

function overTotal(maxTotal: number, name: string): ZipError {
  return new ZipError(
    `the archive inflates to more than ${maxTotal} bytes (at entry "${name}"); refusing it`,
  );
}
