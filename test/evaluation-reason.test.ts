import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reasonOf } from '../src/report/evaluation-reason.ts';

describe("an evaluation's reason, as the reports show it", () => {
  it('says one character or word, and counts the rest with separators', () => {
    const reason = (metadata: Record<string, unknown>): string | null =>
      reasonOf({ error: null, metadata });
    assert.equal(reason({ length: 1, unit: 'characters' }), 'length 1 character');
    assert.equal(reason({ length: 1, unit: 'words', min: 2 }), 'length 1 word < min 2');
    assert.equal(
      reason({ length: 2799, unit: 'characters', max: 200 }),
      'length 2,799 characters > max 200',
    );
    assert.equal(reason({ length: 0, unit: 'words' }), 'length 0 words');
  });
});
