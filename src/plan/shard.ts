/**
 * Sharding: which of n shards a case runs in. Decided by the case's identity alone, so a shard
 * holds the same cases whatever the row order, the grid or the machine, and every grid point
 * and trial of a case lands in the same shard (its results can then be merged per case).
 */
import { hash } from 'node:crypto';
import { quotedValue } from '../shared/shown-value.ts';

/** `--shard 2/4`: the second of four shards. `index` is 1-based. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * The 1-based shard of the case with identity `caseId`: the first 8 hex digits of sha256(id)
 * read as an unsigned 32-bit number, modulo `count`, plus one. sha256 spreads similar ids
 * (`q-1`, `q-2`) evenly, and 32 bits keep the modulo bias negligible for any realistic count.
 */
export function shardOf(caseId: string, count: number): number {
  const head = hash('sha256', caseId, 'hex').slice(0, 8);
  return (Number.parseInt(head, 16) % count) + 1;
}

/** Parses `i/n` as written after `--shard`; a message saying what is wrong otherwise. */
export function parseShard(
  text: string,
): { ok: true; shard: Shard } | { ok: false; message: string } {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const expected = `--shard: expected INDEX/COUNT with 1 ≤ INDEX ≤ COUNT (e.g. 2/4), found ${quotedValue(text)}`;
  if (!match) return { ok: false, message: expected };
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1) {
    return { ok: false, message: expected };
  }
  if (index < 1 || index > count) {
    return {
      ok: false,
      message: `--shard ${text}: the index must be between 1 and ${count} (shards are numbered from 1)`,
    };
  }
  return { ok: true, shard: { index, count } };
}
