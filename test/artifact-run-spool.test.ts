import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BatchWriter } from '../src/artifact/batch-writer.ts';
import { readAt, writeAll } from '../src/artifact/fd-io.ts';
import {
  copyLines,
  newRunSpool,
  sortByKey,
  spooledLines,
  type RunSpool,
} from '../src/artifact/run-spool.ts';

const work = await mkdtemp(join(tmpdir(), 'evalgate-run-spool-test-'));
after(() => rm(work, { recursive: true, force: true }));

/**
 * A closed run spool whose file holds `lines` (each a spooled case line, `…,\n`) in the order
 * given, recorded at the case positions in `positions` (the same order).
 */
function spoolOf(name: string, size: number, lines: string[], positions: number[]): RunSpool {
  const spool = newRunSpool(0, size);
  spool.path = join(work, name);
  let offset = 0;
  lines.forEach((line, i) => {
    const position = positions[i]!;
    spool.offsets[position] = offset;
    spool.lengths[position] = Buffer.byteLength(line);
    offset += Buffer.byteLength(line);
  });
  writeFileSync(spool.path, lines.join(''));
  spool.recorded = lines.length;
  spool.written = offset;
  return spool;
}

describe('fd-io', () => {
  it('writeAll writes every byte and readAt reads up to the end of the file', () => {
    const path = join(work, 'fd-io.bin');
    const bytes = Buffer.from('0123456789ü');
    const out = openSync(path, 'w');
    assert.equal(writeAll(out, bytes), bytes.length);
    closeSync(out);
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(64);
      assert.equal(readAt(fd, buffer, 4), bytes.length - 4);
      assert.equal(buffer.toString('utf8', 0, bytes.length - 4), '456789ü');
    } finally {
      closeSync(fd);
    }
  });
});

describe('run spool', () => {
  it('starts with no case recorded', () => {
    const spool = newRunSpool(3, 2);
    assert.equal(spool.run, 3);
    assert.equal(spool.size, 2);
    assert.deepEqual([...spool.offsets], [-1, -1]);
    assert.equal(spool.recorded, 0);
    assert.equal(spool.path, null);
  });

  it('reads lines back in testset order, skipping cases that never finished', () => {
    const spool = spoolOf('order.jsonl', 4, ['{"c":2},\n', '{"c":0},\n', '{"c":3},\n'], [2, 0, 3]);
    assert.deepEqual([...spooledLines(spool)], ['{"c":0},\n', '{"c":2},\n', '{"c":3},\n']);
  });

  it('reads a line longer than the read window', () => {
    const long = `{"text":"${'x'.repeat((1 << 20) + 10)}"},\n`;
    const spool = spoolOf('long.jsonl', 2, ['{"c":0},\n', long], [0, 1]);
    assert.deepEqual([...spooledLines(spool)], ['{"c":0},\n', long]);
  });

  it('reads nothing from a spool without a file', () => {
    assert.deepEqual([...spooledLines(newRunSpool(0, 2))], []);
  });

  it('sorts a keyed run by key, ties in arrival order, unused slots last', () => {
    const spool = spoolOf('keyed.jsonl', 4, ['a,\n', 'b,\n', 'c,\n'], [0, 1, 2]);
    spool.keys = Float64Array.from([7, 2, 7, 0]);
    sortByKey(spool);
    assert.equal(spool.keys, null);
    assert.deepEqual([...spooledLines(spool)], ['b,\n', 'a,\n', 'c,\n']);
    assert.equal(spool.offsets[3], -1);
  });

  it('copies the lines into the output, the last without its comma', async () => {
    const spool = spoolOf('copy.jsonl', 4, ['{"c":1},\n', '{"c":0},\n', '{"c":3},\n'], [1, 0, 3]);
    const path = join(work, 'copy-out.json');
    const file = await open(path, 'w');
    try {
      const out = new BatchWriter(file);
      out.text('[\n');
      copyLines(spool, out);
      out.text(']\n');
      out.flush();
    } finally {
      await file.close();
    }
    assert.equal(readFileSync(path, 'utf8'), '[\n{"c":0},\n{"c":1},\n{"c":3}\n]\n');
  });
});

describe('batch writer', () => {
  it('keeps the order of text, bytes and copies, whatever their size', async () => {
    const source = join(work, 'batch-source.txt');
    writeFileSync(source, 'abcdef');
    const big = 'é'.repeat(200_000); // more than the batch holds once encoded
    const path = join(work, 'batch-out.txt');
    const file = await open(path, 'w');
    const fd = openSync(source, 'r');
    try {
      const out = new BatchWriter(file);
      out.text('<');
      out.text(big);
      out.bytes(Buffer.from('|'));
      out.copyFrom(fd, 1, 4);
      out.bytes(Buffer.alloc(300_000, 0x2e));
      out.text('>');
      out.flush();
    } finally {
      closeSync(fd);
      await file.close();
    }
    assert.equal(readFileSync(path, 'utf8'), `<${big}|bcde${'.'.repeat(300_000)}>`);
  });

  it('refuses to copy past the end of the file', async () => {
    const source = join(work, 'batch-short.txt');
    writeFileSync(source, 'abc');
    const file = await open(join(work, 'batch-short-out.txt'), 'w');
    const fd = openSync(source, 'r');
    try {
      const out = new BatchWriter(file);
      assert.throws(() => out.copyFrom(fd, 1, 5), /shorter than recorded/);
    } finally {
      closeSync(fd);
      await file.close();
    }
  });
});
