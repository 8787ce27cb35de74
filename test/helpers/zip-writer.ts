/** Builds ZIP archives for tests: valid ones like GitHub's artifact downloads, and forged ones. */
import { deflateRawSync } from 'node:zlib';
import { crc32 } from '../../src/github/zip.ts';

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

/**
 * A tiny ZIP writer: local headers, data (and descriptors), central directory, EOCD. Just
 * enough of APPNOTE to build the archives the reader must accept and the ones it must refuse.
 */
export function writeZip(entries: TestEntry[], options: { comment?: string } = {}): Buffer {
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
      central.push(centralRecord(flags, method, crc, compressed, size, name, entry.centralOnlyAt));
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

    central.push(centralRecord(flags, method, crc, compressed, size, name, offset));
    offset += length;
  }
  const directory = Buffer.concat(central);
  const comment = Buffer.from(options.comment ?? '');
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(directory.length, 12);
  eocd.writeUInt32LE(offset, 16);
  eocd.writeUInt16LE(comment.length, 20);
  return Buffer.concat([...parts, directory, eocd, comment]);
}

function centralRecord(
  flags: number,
  method: number,
  crc: number,
  compressed: number,
  size: number,
  name: Buffer,
  offset: number,
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
  record.writeUInt32LE(compressed, 20);
  record.writeUInt32LE(size, 24);
  record.writeUInt16LE(name.length, 28);
  record.writeUInt32LE(offset, 42);
  return Buffer.concat([record, name]);
}
