/**
 * When evalgate's own JSON checker finds nothing to say about a text (a caller describes a
 * scrubbed copy, which scrubbing may have made valid), the engine's message stands in: without
 * the cut piece of the original text V8 quotes, which may hold part of a key.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explainJsonError } from '../src/shared/json-syntax.ts';

describe('explainJsonError falling back to the engine', () => {
  it("keeps V8's words and drops the piece of text it quotes", () => {
    const original = '{"a": sk-live-0123456789abcdef}';
    let error: unknown;
    try {
      JSON.parse(original);
    } catch (caught) {
      error = caught;
    }
    assert.match(String(error), /sk-live/, 'V8 quotes the text (else this test checks nothing)');
    // A text the checker accepts, as a scrubbed copy may be: the engine's message is all there is.
    const found = explainJsonError('{"a": 1}', error);
    assert.doesNotMatch(found.message, /sk-live|0123/);
    assert.match(found.message, /not valid JSON/);
  });
});
