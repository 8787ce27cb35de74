/** Shared revisions and the golden-edit runner for the `applyPins` tests. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parse, parseDocument } from 'yaml';
import { applyPins, type ApplyPinsOptions, type PinUpdate } from '../../src/config/pin.ts';

/** A full 64-digit revision, as `computeRevision` returns it; pinned as `3f9a1c2b7d4e`. */
export const REV = '3f9a1c2b7d4e'.padEnd(64, '5');
/** A second full 64-digit revision; pinned as `abcdef012345`. */
export const REV2 = 'abcdef012345'.padEnd(64, '6');
/** A full 64-digit revision whose 12-digit pin is all digits (YAML would read it as a number). */
export const DIGITS = '123456789012'.padEnd(64, 'a');

/** One golden edit: the config before, the pins to apply, and the exact config after. */
export interface Golden {
  name: string;
  before: string;
  updates: PinUpdate[];
  options?: ApplyPinsOptions;
  after: string;
}

/** What `applyPins` wrote for a suite: the value now at `suites[i].testset.revision`. */
function pinnedValues(text: string, updates: PinUpdate[]): Map<number, unknown> {
  const data = parse(text, { merge: true }) as { suites: { testset: { revision?: unknown } }[] };
  return new Map(updates.map((u) => [u.suiteIndex, data.suites[u.suiteIndex]?.testset.revision]));
}

/** The input's data with only the pins replaced must equal the output's data. */
function assertOnlyPinsChanged(before: string, after: string, updates: PinUpdate[]): void {
  const doc = parseDocument(after, { merge: true, uniqueKeys: true });
  assert.deepEqual(doc.errors, []);
  const expected = parse(before, { merge: true }) as {
    suites: { testset: Record<string, unknown> }[];
  };
  for (const [index, value] of pinnedValues(after, updates)) {
    const revision = updates.find((u) => u.suiteIndex === index)?.revision ?? '';
    assert.equal(typeof value, 'string', `suites[${index}].testset.revision is a string`);
    assert.ok(revision.startsWith(value as string), `suites[${index}] pin is a prefix`);
    const testset = expected.suites[index]?.testset;
    assert.ok(testset);
    testset.revision = value;
  }
  assert.deepEqual(doc.toJS(), expected);
}

/**
 * Registers one test per golden in the current `describe`: `applyPins` must give exactly the
 * golden output, change nothing but the pins, and change nothing more when run again.
 */
export function goldenTests(goldens: Golden[]): void {
  for (const golden of goldens) {
    it(golden.name, () => {
      const first = applyPins(golden.before, golden.updates, golden.options);
      assert.deepEqual(first, { ok: true, text: golden.after });
      assertOnlyPinsChanged(golden.before, golden.after, golden.updates);

      // Idempotent: the same pins again change nothing.
      const second = applyPins(golden.after, golden.updates, golden.options);
      assert.deepEqual(second, { ok: true, text: golden.after });
    });
  }
}
