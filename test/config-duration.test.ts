/** Durations: what `parseDuration` accepts, and that the schema accepts exactly the same. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { parseDuration } from '../src/config/load.ts';
import { evalsSchema } from '../src/config/schema-check.ts';

const table: [text: string, ms: number | null][] = [
  ['500ms', 500],
  ['30s', 30_000],
  ['2m', 120_000],
  ['1h', 3_600_000],
  ['1.5s', 1_500],
  ['0.25m', 15_000],
  ['0s', 0],
  ['90s', 90_000],
  ['1.0005s', 1_001],
  // A bare number has no unit: 30 seconds or 30 milliseconds would both be guesses.
  ['30', null],
  ['1.5', null],
  ['', null],
  [' 30s', null],
  ['30 s', null],
  ['30sec', null],
  ['30S', null],
  ['-1s', null],
  ['.5s', null],
  ['1e3ms', null],
  ['1m30s', null],
  ['none', null],
];

describe('parseDuration', () => {
  for (const [text, ms] of table) {
    it(`${JSON.stringify(text)} → ${String(ms)}`, () => {
      assert.equal(parseDuration(text), ms);
    });
  }
});

describe('the schema agrees with parseDuration', () => {
  const definitions = evalsSchema.definitions as Record<string, { pattern: string }>;
  const duration = new RegExp(definitions.duration?.pattern ?? '^$');
  const timeout = new RegExp(definitions.timeout?.pattern ?? '^$');
  for (const [text, ms] of table) {
    it(JSON.stringify(text), () => {
      assert.equal(duration.test(text), ms !== null);
      assert.equal(timeout.test(text), ms !== null || text === 'none');
    });
  }

  it('is a valid pattern for ajv', () => {
    const ajv = new Ajv();
    assert.ok(ajv.validate({ type: 'string', pattern: definitions.duration?.pattern }, '30s'));
  });
});
