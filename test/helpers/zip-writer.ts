/** Builds ZIP archives for tests: valid ones like GitHub's artifact downloads, and forged ones. */
import { crc32, deflateRawSync } from 'node:zlib';

/** One file for {@link writeZip}; the overrides forge what a broken or hostile archive claims. */
export interface TestEntry {
  name: string;
  data: Buffer | string;
  method?: 'stored' | 'deflate';
  /** Sizes and CRC in a trailing data descriptor, as streaming writers (archiver) do. */
  descriptor?: boolean;
  flags?: number;
  crc?: number;
  size?: number;
  compressedSize?: number;
  methodCode?: number;
  /** Only a central record, pointing at this offset: for archives whose entries share bytes. */
  centralOnlyAt?: number;
}

/** Archive-wide choices for {@link writeZip}. */
export interface TestZipOptions {
  comment?: string;
  /**
   * Write the archive as ZIP64: every central record's sizes and offset in a ZIP64 extra
   * field, and a ZIP64 End of Central Directory record with its locator before the EOCD.
   */
  zip64?: boolean;
}

/**
 * A tiny ZIP writer: local headers, data (and descriptors), central directory, EOCD. Just
 * enough of APPNOTE to build the archives the reader must accept and the ones it must refuse.
 */
export function writeZip(entries: TestEntry[], options: TestZipOptions = {}): Buffer {
  const zip64 = options.zip64 ?? false;
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data);
    const deflate = (entry.method ?? 'deflate') === 'deflate';
    const body = deflate ? deflateRawSync(data) : data;
    const name = Buffer.from(entry.name, 'utf8');
    const flags = (entry.flags ?? 0) | 0x0800 | (entry.descriptor ? 0x0008 : 0);
    const method = entry.methodCode ?? (deflate ? 8 : 0);
    const crc = entry.crc ?? crc32(data);
    const size = entry.size ?? data.length;
    const compressed = entry.compressedSize ?? body.length;

    if (entry.centralOnlyAt !== undefined) {
      central.push(
        centralRecord(flags, method, crc, compressed, size, name, entry.centralOnlyAt, zip64),
      );
      continue;
    }
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0x6000, 10);
    local.writeUInt16LE(0x5a21, 12);
    local.writeUInt32LE(entry.descriptor ? 0 : crc, 14);
    local.writeUInt32LE(entry.descriptor ? 0 : compressed, 18);
    local.writeUInt32LE(entry.descriptor ? 0 : size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    parts.push(local, name, body);
    let length = local.length + name.length + body.length;
    if (entry.descriptor) {
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(compressed, 8);
      descriptor.writeUInt32LE(size, 12);
      parts.push(descriptor);
      length += descriptor.length;
    }

    central.push(centralRecord(flags, method, crc, compressed, size, name, offset, zip64));
    offset += length;
  }
  const directory = Buffer.concat(central);
  const comment = Buffer.from(options.comment ?? '');
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(zip64 ? 0xffff : entries.length, 8);
  eocd.writeUInt16LE(zip64 ? 0xffff : entries.length, 10);
  eocd.writeUInt32LE(zip64 ? 0xffffffff : directory.length, 12);
  eocd.writeUInt32LE(zip64 ? 0xffffffff : offset, 16);
  eocd.writeUInt16LE(comment.length, 20);
  const zip64End = zip64 ? zip64EndRecords(entries.length, directory.length, offset) : [];
  return Buffer.concat([...parts, directory, ...zip64End, eocd, comment]);
}

/** The ZIP64 End of Central Directory record and its locator, for a directory at `offset`. */
function zip64EndRecords(count: number, directorySize: number, offset: number): Buffer[] {
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(45, 12);
  record.writeUInt16LE(45, 14);
  record.writeBigUInt64LE(BigInt(count), 24);
  record.writeBigUInt64LE(BigInt(count), 32);
  record.writeBigUInt64LE(BigInt(directorySize), 40);
  record.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directorySize), 8);
  locator.writeUInt32LE(1, 16);
  return [record, locator];
}

function centralRecord(
  flags: number,
  method: number,
  crc: number,
  compressed: number,
  size: number,
  name: Buffer,
  offset: number,
  zip64: boolean,
): Buffer {
  const record = Buffer.alloc(46);
  record.writeUInt32LE(0x02014b50, 0);
  record.writeUInt16LE(0x031e, 4);
  record.writeUInt16LE(20, 6);
  record.writeUInt16LE(flags, 8);
  record.writeUInt16LE(method, 10);
  record.writeUInt16LE(0x6000, 12);
  record.writeUInt16LE(0x5a21, 14);
  record.writeUInt32LE(crc, 16);
  record.writeUInt32LE(zip64 ? 0xffffffff : compressed, 20);
  record.writeUInt32LE(zip64 ? 0xffffffff : size, 24);
  record.writeUInt16LE(name.length, 28);
  record.writeUInt32LE(zip64 ? 0xffffffff : offset, 42);
  if (!zip64) return Buffer.concat([record, name]);
  // The ZIP64 extended information field: the sizes and the offset, in APPNOTE's order.
  const extra = Buffer.alloc(4 + 24);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(24, 2);
  extra.writeBigUInt64LE(BigInt(size), 4);
  extra.writeBigUInt64LE(BigInt(compressed), 12);
  extra.writeBigUInt64LE(BigInt(offset), 20);
  record.writeUInt16LE(extra.length, 30);
  return Buffer.concat([record, name, extra]);
}
