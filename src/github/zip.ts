/**
 * A small, strict reader of ZIP archives as GitHub serves workflow artifacts: one disk, no
 * ZIP64, no encryption, entries stored (method 0) or deflated (method 8). Everything an archive
 * claims is checked against the bytes (signatures, bounds, sizes, CRC-32), because the archive
 * comes from a download and, for a baseline, from another workflow run: it is untrusted input.
 * Anything outside that subset is refused with a {@link ZipError}, never half-read.
 */
import { inflateRawSync } from 'node:zlib';

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
  constructor(message: string) {
    super(message);
    this.name = 'ZipError';
  }
}

/** Default for {@link ZipLimits.maxTotalBytes}. */
export const MAX_TOTAL_BYTES = 512 * 1024 * 1024;
/** Default for {@link ZipLimits.maxRatio}. */
export const MAX_RATIO = 1000;
/** Entries smaller than this skip the ratio check: tiny highly repetitive files are harmless. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const ZIP64_LOCATOR_SIZE = 20;
/** The EOCD record plus the longest comment it can carry (65,535 bytes). */
const MAX_EOCD_SEARCH = EOCD_SIZE + 0xffff;

const FLAG_ENCRYPTED = 0x0001;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const FLAG_UTF8 = 0x0800;
const METHOD_STORED = 0;
const METHOD_DEFLATED = 8;

/** A central-directory record, before its data is read. */
interface CentralRecord {
  name: string;
  rawName: Buffer;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/**
 * Reads every file of a ZIP archive held in memory, verified: sizes and CRC-32 match what the
 * archive declares, names are relative paths without `..`, and the total inflated size stays
 * within `limits`.
 *
 * @throws {ZipError} when the archive is malformed, truncated, corrupt, or uses a feature
 *   outside the supported subset (ZIP64, encryption, split archives, other compression methods).
 */
export function readZipEntries(buffer: Buffer, limits: ZipLimits = {}): ZipEntry[] {
  const maxTotal = limits.maxTotalBytes ?? MAX_TOTAL_BYTES;
  const maxRatio = limits.maxRatio ?? MAX_RATIO;
  const records = readCentralDirectory(buffer);

  let declaredTotal = 0;
  for (const record of records) {
    declaredTotal += record.size;
    // Checked on the declared sizes before inflating anything, and enforced again while
    // inflating (maxOutputLength), so a lying header cannot make us allocate more.
    if (declaredTotal > maxTotal) {
      throw new ZipError(
        `the archive inflates to more than ${maxTotal} bytes (at entry "${record.name}"); refusing it`,
      );
    }
    if (
      record.size > RATIO_FLOOR_BYTES &&
      record.size > maxRatio * Math.max(1, record.compressedSize)
    ) {
      throw new ZipError(
        `entry "${record.name}" claims ${record.size} bytes from ${record.compressedSize} compressed (over ${maxRatio}:1); refusing a likely zip bomb`,
      );
    }
  }

  const spans = records
    .map((record) => ({ record, ...locateData(buffer, record) }))
    .sort((a, b) => a.record.localOffset - b.record.localOffset);
  // Entries sharing bytes are how "overlapping" zip bombs multiply their output; a real
  // archive never does it.
  for (let index = 1; index < spans.length; index++) {
    const previous = spans[index - 1];
    const current = spans[index];
    if (previous && current && current.record.localOffset < previous.end) {
      throw new ZipError(
        `entries "${previous.record.name}" and "${current.record.name}" overlap; the archive is malformed`,
      );
    }
  }

  const spanOf = new Map(spans.map((span) => [span.record, span]));
  const entries: ZipEntry[] = [];
  for (const record of records) {
    if (record.name.endsWith('/')) continue;
    const span = spanOf.get(record);
    if (!span) throw new Error('readZipEntries: every record has a span');
    const data = inflate(buffer.subarray(span.start, span.end), record);
    const crc = crc32(data);
    if (crc !== record.crc) {
      throw new ZipError(
        `entry "${record.name}" is corrupt: CRC-32 ${hex(crc)} does not match the declared ${hex(record.crc)}`,
      );
    }
    entries.push({ name: record.name, data });
  }
  return entries;
}

/** Finds the End of Central Directory and parses every central-directory record. */
function readCentralDirectory(buffer: Buffer): CentralRecord[] {
  const eocd = findEndOfCentralDirectory(buffer);
  const disk = buffer.readUInt16LE(eocd + 4);
  const centralDisk = buffer.readUInt16LE(eocd + 6);
  const entriesOnDisk = buffer.readUInt16LE(eocd + 8);
  const entries = buffer.readUInt16LE(eocd + 10);
  const centralSize = buffer.readUInt32LE(eocd + 12);
  const centralOffset = buffer.readUInt32LE(eocd + 16);

  const zip64 =
    entries === 0xffff ||
    entriesOnDisk === 0xffff ||
    centralSize === 0xffffffff ||
    centralOffset === 0xffffffff ||
    (eocd >= ZIP64_LOCATOR_SIZE &&
      buffer.readUInt32LE(eocd - ZIP64_LOCATOR_SIZE) === ZIP64_LOCATOR_SIGNATURE);
  if (zip64) throw new ZipError('ZIP64 archives are not supported');
  if (disk !== 0 || centralDisk !== 0 || entriesOnDisk !== entries) {
    throw new ZipError('split (multi-disk) archives are not supported');
  }
  if (centralOffset + centralSize > eocd) {
    throw new ZipError(
      `the central directory (offset ${centralOffset}, ${centralSize} bytes) runs past the end of the archive; the file is truncated or corrupt`,
    );
  }

  const records: CentralRecord[] = [];
  const names = new Set<string>();
  let at = centralOffset;
  const end = centralOffset + centralSize;
  for (let index = 0; index < entries; index++) {
    if (at + CENTRAL_SIZE > end || buffer.readUInt32LE(at) !== CENTRAL_SIGNATURE) {
      throw new ZipError(
        `central directory entry ${index + 1} of ${entries} is missing or malformed`,
      );
    }
    const flags = buffer.readUInt16LE(at + 8);
    const method = buffer.readUInt16LE(at + 10);
    const crc = buffer.readUInt32LE(at + 16);
    const compressedSize = buffer.readUInt32LE(at + 20);
    const size = buffer.readUInt32LE(at + 24);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const startDisk = buffer.readUInt16LE(at + 34);
    const localOffset = buffer.readUInt32LE(at + 42);
    const next = at + CENTRAL_SIZE + nameLength + extraLength + commentLength;
    if (next > end) {
      throw new ZipError(`central directory entry ${index + 1} runs past the directory's end`);
    }
    const rawName = buffer.subarray(at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength);
    const name = decodeName(rawName, flags);

    if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) {
      throw new ZipError(`entry "${name}" is encrypted; encrypted archives are not supported`);
    }
    if (
      compressedSize === 0xffffffff ||
      size === 0xffffffff ||
      localOffset === 0xffffffff ||
      startDisk === 0xffff
    ) {
      throw new ZipError(`entry "${name}" uses ZIP64 fields; ZIP64 archives are not supported`);
    }
    if (startDisk !== 0) {
      throw new ZipError('split (multi-disk) archives are not supported');
    }
    if (method !== METHOD_STORED && method !== METHOD_DEFLATED) {
      throw new ZipError(
        `entry "${name}" uses compression method ${method}; only stored (0) and deflate (8) are supported`,
      );
    }
    if (method === METHOD_STORED && compressedSize !== size) {
      throw new ZipError(
        `entry "${name}" is stored but declares ${compressedSize} compressed and ${size} uncompressed bytes`,
      );
    }
    const problem = unsafeName(name);
    if (problem)
      throw new ZipError(`entry ${JSON.stringify(name)} ${problem}; refusing the archive`);
    if (names.has(name)) throw new ZipError(`entry "${name}" appears twice in the archive`);
    names.add(name);

    records.push({ name, rawName, method, crc, compressedSize, size, localOffset });
    at = next;
  }
  if (at !== end) {
    throw new ZipError(
      `the central directory holds ${end - at} bytes beyond its ${entries} entries; the archive is malformed`,
    );
  }
  return records;
}

/**
 * Offset of the End of Central Directory record: the last signature whose comment length
 * reaches exactly the end of the file, searched at most 65,557 bytes back (the record plus
 * the longest comment). Requiring an exact fit keeps a signature inside a comment from matching.
 */
function findEndOfCentralDirectory(buffer: Buffer): number {
  if (buffer.length < EOCD_SIZE) {
    throw new ZipError(
      `not a ZIP archive: ${buffer.length} bytes is shorter than the smallest archive (22 bytes)`,
    );
  }
  const lowest = Math.max(0, buffer.length - MAX_EOCD_SEARCH);
  for (let at = buffer.length - EOCD_SIZE; at >= lowest; at--) {
    if (buffer.readUInt32LE(at) !== EOCD_SIGNATURE) continue;
    if (at + EOCD_SIZE + buffer.readUInt16LE(at + 20) === buffer.length) return at;
  }
  throw new ZipError(
    'not a ZIP archive, or a truncated one: no End of Central Directory record at its end',
  );
}

/** Checks the local header of `record` and returns where its compressed bytes lie. */
function locateData(buffer: Buffer, record: CentralRecord): { start: number; end: number } {
  const at = record.localOffset;
  if (at + LOCAL_SIZE > buffer.length || buffer.readUInt32LE(at) !== LOCAL_SIGNATURE) {
    throw new ZipError(
      `entry "${record.name}": no local file header at offset ${at}; the archive is truncated or corrupt`,
    );
  }
  const flags = buffer.readUInt16LE(at + 6);
  const method = buffer.readUInt16LE(at + 8);
  const nameLength = buffer.readUInt16LE(at + 26);
  const extraLength = buffer.readUInt16LE(at + 28);
  const nameStart = at + LOCAL_SIZE;
  // Readers that trust the local header and readers that trust the central directory must
  // not see two different archives: the name and the method must agree.
  const localName = buffer.subarray(nameStart, nameStart + nameLength);
  if (method !== record.method || !localName.equals(record.rawName)) {
    throw new ZipError(
      `entry "${record.name}": the local header disagrees with the central directory`,
    );
  }
  if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) {
    throw new ZipError(`entry "${record.name}" is encrypted; encrypted archives are not supported`);
  }
  const start = nameStart + nameLength + extraLength;
  const end = start + record.compressedSize;
  if (end > buffer.length) {
    throw new ZipError(
      `entry "${record.name}" runs past the end of the archive; the file is truncated`,
    );
  }
  return { start, end };
}

/** The entry's bytes, inflated when deflated, exactly `record.size` long. */
function inflate(compressed: Buffer, record: CentralRecord): Buffer {
  if (record.method === METHOD_STORED) return Buffer.from(compressed);
  let data: Buffer;
  try {
    // maxOutputLength stops inflating one byte past the declared size, so a lying size
    // costs at most that much memory.
    data = inflateRawSync(compressed, { maxOutputLength: record.size + 1 });
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ZipError(
        `entry "${record.name}" inflates to more than its declared ${record.size} bytes`,
      );
    }
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ZipError(`entry "${record.name}" is corrupt: ${reason}`);
  }
  if (data.length !== record.size) {
    throw new ZipError(
      `entry "${record.name}" inflates to ${data.length} bytes, not the declared ${record.size}`,
    );
  }
  return data;
}

/** UTF-8 when the archive says so (general-purpose bit 11); otherwise bytes as Latin-1. */
function decodeName(raw: Buffer, flags: number): string {
  if (!(flags & FLAG_UTF8)) {
    // The legacy encoding is CP437; it agrees with Latin-1 on ASCII, which is all a
    // results file name needs, and a non-ASCII legacy name only has to be shown, not matched.
    return raw.toString('latin1');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new ZipError('an entry name is not valid UTF-8 although the archive says it is');
  }
}

/** Why `name` cannot be used as a relative path, or undefined when it can. */
function unsafeName(name: string): string | undefined {
  if (name === '') return 'has an empty name';
  if (name.includes('\0')) return 'contains a NUL character';
  // Backslashes are separators on Windows, so they count as separators here too.
  if (/^[\\/]/.test(name) || /^[A-Za-z]:/.test(name)) return 'is an absolute path';
  if (name.split(/[\\/]/).includes('..')) return 'climbs out of the archive with ".."';
  return undefined;
}

/** CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as ZIP stores it. */
export function crc32(data: Uint8Array): number {
  const table = CRC_TABLE;
  let crc = 0xffffffff;
  // An indexed loop: iterating the bytes with for…of is several times slower on large entries.
  for (let index = 0; index < data.length; index++) {
    crc = (table[(crc ^ (data[index] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const CRC_TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`;
}
