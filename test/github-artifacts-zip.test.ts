/**
 * readZipEntries, the reader of downloaded artifacts: archives from other writers, stored and
 * deflated entries, ZIP64; and what it refuses: corruption, truncation, names that climb out,
 * encryption, split archives, duplicate or overlapping entries, and zip bombs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readZipEntries, ZipError } from '../src/github/artifact-zip.ts';
import { PYTHON_ZIP, RESULTS } from './helpers/github-artifact-fixtures.ts';
import { writeZip } from './helpers/zip-writer.ts';

/**
 * Asserts `read` rejects with a ZipError (code zip.invalid) whose message matches `pattern`;
 * returns the message.
 */
async function assertRefused(read: () => Promise<unknown>, pattern: RegExp): Promise<string> {
  let message = '';
  await assert.rejects(read, (error: unknown) => {
    assert.ok(error instanceof ZipError, `expected a ZipError, got ${String(error)}`);
    assert.equal(error.code, 'zip.invalid');
    assert.match(error.message, pattern);
    message = error.message;
    return true;
  });
  return message;
}

describe('readZipEntries', () => {
  it('reads an archive written by another implementation', async () => {
    const entries = await readZipEntries(PYTHON_ZIP);
    assert.deepEqual(
      entries.map((entry) => entry.name),
      ['evals-results.json', 'pr.txt'],
    );
    assert.equal(entries[0]?.data.toString('utf8'), RESULTS);
    assert.equal(entries[1]?.data.toString('utf8'), `7 ${'c'.repeat(40)}\n`);
  });

  it('reads stored and deflated entries, data descriptors, nested paths and a comment; skips directories', async () => {
    const big = 'abc'.repeat(10_000);
    const zip = writeZip(
      [
        { name: 'a.txt', data: 'stored text', method: 'stored' },
        { name: 'out/', data: '', method: 'stored' },
        { name: 'out/b.json', data: big, descriptor: true },
        { name: 'empty.txt', data: '' },
        { name: 'é.txt', data: 'unicode name' },
      ],
      { comment: 'made by a test' },
    );
    const entries = await readZipEntries(zip);
    assert.deepEqual(
      entries.map((entry) => [entry.name, entry.data.length]),
      [
        ['a.txt', 11],
        ['out/b.json', 30_000],
        ['empty.txt', 0],
        ['é.txt', 12],
      ],
    );
    assert.equal(entries[1]?.data.toString(), big);
  });

  it('refuses a corrupt CRC, a corrupted deflate stream and a lying size', async () => {
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 'r.json', data: '{}', crc: 0x12345678 }])),
      /entry "r\.json" is corrupt: CRC-32 0x[0-9a-f]{8} does not match the declared 0x12345678/,
    );
    const flipped = writeZip([{ name: 'r.json', data: RESULTS, method: 'stored' }]);
    flipped.writeUInt8(flipped.readUInt8(40) ^ 0xff, 40);
    await assertRefused(() => readZipEntries(flipped), /CRC-32/);
    const garbage = writeZip([{ name: 'r.json', data: RESULTS }]);
    garbage.fill(0xff, 30 + 6, 30 + 16);
    await assertRefused(() => readZipEntries(garbage), /entry "r\.json" is corrupt: /);
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 'r.json', data: RESULTS, size: 10 }])),
      /entry "r\.json" is corrupt: too many bytes in the stream\. expected 10\. got at least \d+/,
    );
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 'r.json', data: 'abc', size: 30 }])),
      /entry "r\.json" is corrupt: not enough bytes in the stream\. expected 30\. got only 3$/,
    );
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 'r.json', data: 'abc', size: 30, method: 'stored' }])),
      /compressed\/uncompressed size mismatch for stored file: 3 != 30/,
    );
  });

  it('refuses truncated archives and things that are not archives', async () => {
    const zip = writeZip([
      { name: 'a.json', data: RESULTS },
      { name: 'b.json', data: RESULTS },
    ]);
    const noEnd =
      /^invalid or unsupported ZIP archive: End of central directory record signature not found\. Either not a zip file, or file is truncated\.$/;
    for (const cut of [1, 10, 30, zip.length - 40]) {
      await assertRefused(() => readZipEntries(zip.subarray(0, zip.length - cut)), noEnd);
    }
    // The directory intact but the data gone: the offsets point past the end.
    const headless = zip.subarray(60);
    await assertRefused(
      () => readZipEntries(headless),
      /^invalid or unsupported ZIP archive: invalid central directory file header signature: 0x[0-9a-f]+$/,
    );
    await assertRefused(() => readZipEntries(Buffer.alloc(0)), noEnd);
    await assertRefused(() => readZipEntries(Buffer.from(RESULTS)), noEnd);
    // Bytes after the end record, or its signature inside the comment, make the end ambiguous
    // (two readers could find two different archives): refused, where the old reader
    // accepted the second.
    const ambiguous =
      /Invalid comment length\. Expected: \d+\. Found: \d+\. Are there extra bytes at the end of the file\? Or is the end of central dir signature/;
    await assertRefused(() => readZipEntries(Buffer.concat([zip, Buffer.from('xx')])), ambiguous);
    const signed = writeZip([{ name: 'a.json', data: RESULTS }], {
      comment: 'made by a test; PK\x05\x06 inside the comment',
    });
    await assertRefused(() => readZipEntries(signed), ambiguous);
  });

  it('refuses names that climb out of the archive or are absolute', async () => {
    for (const name of [
      '../evil.json',
      'a/../../evil.json',
      'a\\..\\..\\evil.json',
      '..',
      '/etc/passwd',
      '\\windows\\evil',
      'C:\\evil.json',
      'c:evil.json',
    ]) {
      await assertRefused(
        () => readZipEntries(writeZip([{ name, data: 'x' }])),
        /^invalid or unsupported ZIP archive: (invalid relative path|absolute path): /,
      );
    }
    // Dots inside a name are fine, and a backslash is read as the separator it is on Windows.
    const fine = await readZipEntries(
      writeZip([
        { name: 'a..b/..c.json', data: 'x' },
        { name: 'sub\\r.json', data: 'y' },
      ]),
    );
    assert.deepEqual(
      fine.map((entry) => entry.name),
      ['a..b/..c.json', 'sub/r.json'],
    );
  });

  it('reads a ZIP64 archive', async () => {
    const zip = writeZip(
      [
        { name: 'dir/', data: '', method: 'stored' },
        { name: 'dir/evals-results.json', data: RESULTS },
        { name: 'pr.txt', data: '7', method: 'stored', descriptor: true },
      ],
      { zip64: true },
    );
    const entries = await readZipEntries(zip);
    assert.deepEqual(
      entries.map((entry) => [entry.name, entry.data.toString()]),
      [
        ['dir/evals-results.json', RESULTS],
        ['pr.txt', '7'],
      ],
    );
  });

  it('refuses encryption, other methods, forged ZIP64 markers, split archives and duplicate names', async () => {
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 's.json', data: 'x', flags: 0x0001 }])),
      /^entry "s\.json" is encrypted; encrypted archives are not supported$/,
    );
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 's.json', data: 'x', flags: 0x0041 }])),
      /strong encryption is not supported/,
    );
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 's.json', data: 'x', methodCode: 12 }])),
      /^entry "s\.json" uses compression method 12; only stored \(0\) and deflate \(8\) are supported$/,
    );
    // A ZIP64 marker without its ZIP64 field is taken at its word: 4 GiB, over the limit.
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 's.json', data: 'x', size: 0xffffffff }])),
      /^the archive inflates to more than 536870912 bytes \(at entry "s\.json"\); refusing it$/,
    );
    // The 65,535 entries a ZIP64 marker in the end record claims, without the ZIP64 records.
    const zip64 = writeZip([{ name: 's.json', data: 'x' }]);
    zip64.writeUInt16LE(0xffff, zip64.length - 22 + 10);
    await assertRefused(
      () => readZipEntries(zip64),
      /^invalid or unsupported ZIP archive: unexpected EOF$/,
    );
    const split = writeZip([{ name: 's.json', data: 'x' }]);
    split.writeUInt16LE(1, split.length - 22 + 4);
    await assertRefused(
      () => readZipEntries(split),
      /^invalid or unsupported ZIP archive: multi-disk zip files are not supported: found disk number: 1$/,
    );
    await assertRefused(
      () =>
        readZipEntries(
          writeZip([
            { name: 'd.json', data: 'x' },
            { name: 'd.json', data: 'y' },
          ]),
        ),
      /^entry "d\.json" appears twice in the archive$/,
    );
  });

  it('refuses zip bombs: an absurd ratio, or more than the total limit', async () => {
    const zeros = Buffer.alloc(4 * 1024 * 1024);
    await assertRefused(
      () => readZipEntries(writeZip([{ name: 'bomb.json', data: zeros }])),
      /over 1000:1.*zip bomb/,
    );
    const twice = writeZip([
      { name: 'a.json', data: RESULTS },
      { name: 'b.json', data: RESULTS },
    ]);
    assert.equal((await readZipEntries(twice, { maxTotalBytes: 2 * RESULTS.length })).length, 2);
    await assertRefused(
      () => readZipEntries(twice, { maxTotalBytes: 2 * RESULTS.length - 1 }),
      /inflates to more than \d+ bytes \(at entry "b\.json"\)/,
    );
  });

  it('stops inflating an entry that claims a small size as soon as it inflates past it', async () => {
    // 64 MiB of zeros deflate to 64 KiB; claiming 1 MiB keeps the entry under the ratio check
    // and the total limit, so only counting the inflated bytes catches it.
    const claimed = 1024 * 1024;
    const bomb = writeZip([
      { name: 'bomb.json', data: Buffer.alloc(64 * 1024 * 1024), size: claimed },
    ]);
    const message = await assertRefused(
      () => readZipEntries(bomb),
      /^entry "bomb\.json" is corrupt: too many bytes in the stream\. expected 1048576\. got at least \d+$/,
    );
    const inflated = Number(/got at least (\d+)$/.exec(message)?.[1]);
    assert.ok(
      inflated < 2 * claimed,
      `stopped after ${inflated} bytes, not near the claimed ${claimed}`,
    );
  });

  it('refuses entries that share bytes, and a central record disagreeing with its local header', async () => {
    // b's complete local record hidden inside a's data: the "overlapping files" zip bomb.
    const inner = writeZip([{ name: 'b.json', data: 'bbbb', method: 'stored' }]);
    const innerLocal = inner.subarray(0, 30 + 'b.json'.length + 4);
    const overlapping = writeZip([
      { name: 'a.json', data: innerLocal, method: 'stored' },
      { name: 'b.json', data: 'bbbb', method: 'stored', centralOnlyAt: 30 + 'a.json'.length },
    ]);
    await assertRefused(
      () => readZipEntries(overlapping),
      /entries "a\.json" and "b\.json" overlap/,
    );

    const renamed = writeZip([{ name: 'a.json', data: 'x', method: 'stored' }]);
    renamed.write('z', 30);
    await assertRefused(
      () => readZipEntries(renamed),
      /local header disagrees with the central directory/,
    );
  });
});
