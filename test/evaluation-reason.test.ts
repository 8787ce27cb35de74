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

  it('compares a distance or a duration with its limit as they stand, not as they round', () => {
    const reason = (metadata: Record<string, unknown>): string | null =>
      reasonOf({ error: null, metadata });
    const levenshtein = { maxLength: 6, expected: 'Paris', actual: 'Pariss' };
    assert.equal(
      reason({ ...levenshtein, distance: 1, maxDistance: 1 }),
      '1 edit ≤ max 1 of 6 characters: expected "Paris", got "Pariss"',
    );
    assert.equal(
      reason({ ...levenshtein, distance: 2, maxDistance: 1 }),
      '2 edits > max 1 of 6 characters: expected "Paris", got "Pariss"',
    );
    assert.equal(reason({ durationMs: 2300.4, maxMs: 2000 }), 'took 2,300 ms > max 2,000 ms');
    assert.equal(reason({ durationMs: 2000.4, maxMs: 2000 }), 'took 2,000.4 ms > max 2,000 ms');
    assert.equal(reason({ durationMs: 1999.96, maxMs: 2000 }), 'took 1,999.96 ms ≤ max 2,000 ms');
    assert.equal(reason({ durationMs: 0.29, maxMs: 0 }), 'took 0.3 ms > max 0 ms');
    assert.equal(reason({ durationMs: 2000, maxMs: 2000 }), 'took 2,000 ms ≤ max 2,000 ms');
  });
});

describe('the reason of a RAG or similarity built-in with nothing to count', () => {
  it('says what was missing rather than 0 of 0', () => {
    const reason = (metadata: Record<string, unknown>): string | null =>
      reasonOf({ error: null, metadata });
    // context-precision, context-recall, the entities: no context retrieved.
    assert.equal(reason({ contexts: 0, relevant: 0, relevantRanks: [] }), 'no context retrieved');
    assert.equal(reason({ contexts: 0, found: 0 }), 'no context retrieved');
    assert.equal(
      reason({ supported: 0, total: 0, noClaims: true, claims: [] }),
      'the answer makes no claim',
    );
    assert.equal(
      reason({ mode: 'f1', precision: 0, recall: 0, responseClaims: 0, noClaims: true }),
      'the response states nothing',
    );
    assert.equal(
      reason({ mode: 'relevant', claims: 0, noisy: 0, contexts: 3 }),
      'the response makes no claim',
    );
    assert.equal(
      reason({ mode: 'relevant', claims: 2, noisy: 0, contexts: 0 }),
      'no context retrieved',
    );
    assert.equal(reason({ cosine: 0.7154 }), 'cosine similarity 0.715');
    assert.equal(reason({ emptyText: 'actual' }), 'the actual text is empty');
  });

  it('keeps the note of a list cut short unquoted', () => {
    const reason = reasonOf({
      error: null,
      metadata: { attributed: 0, total: 22, contexts: 1, notAttributed: ['A.', 'B.', '… 20 more'] },
    });
    assert.equal(
      reason,
      '0 of 22 reference sentences supported by the contexts; unsupported: "A.", "B.", … 20 more',
    );
  });
});
