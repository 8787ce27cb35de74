/**
 * The matching RAG built-ins (context-precision, context-recall) and the approximate matching
 * under them, on small examples computed by hand.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { averagePrecision } from '../src/evaluators/judges/context-precision.ts';
import {
  approximateFind,
  matchItems,
  splitSentences,
} from '../src/evaluators/judges/rag-shared.ts';
import { OptionError } from '../src/evaluators/options.ts';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import { server } from './helpers/judge-server.ts';
import { evaluate, useRagServer } from './helpers/rag-evaluators.ts';

useRagServer();

void describe('approximate matching', () => {
  void it('finds a needle inside a longer text, costing only the edits', () => {
    const context = 'As everyone knows, Paris is the capital of France, and more.';
    assert.deepEqual(approximateFind('paris IS the   capital', context), {
      similarity: 1,
      exact: true,
    });
    // One substitution (o for a) over 30 characters.
    const typo = approximateFind('Paris is the capitol of France', context);
    assert.ok(Math.abs(typo.similarity - (1 - 1 / 30)) < 1e-12);
    // "abcd" against "xxabxdxx": the best stretch "abxd" needs one substitution.
    assert.equal(approximateFind('abcd', 'xxabxdxx').similarity, 0.75);
    assert.equal(approximateFind('abc', 'xyz').similarity, 0);
    assert.equal(approximateFind('', 'anything').similarity, 1);
  });

  void it('counts only exact occurrences past the cell budget', () => {
    assert.deepEqual(approximateFind('abcd', 'xxabxdxx', 10), { similarity: 0, exact: false });
    assert.deepEqual(approximateFind('abcd', 'xxabcdxx', 10), { similarity: 1, exact: true });
  });

  void it('shares one cell budget between all pairs of an evaluation', () => {
    // 4 × 8 = 32 cells per pair: the first pair fits in 40, the second no longer does.
    const spent = matchItems(['abcd', 'abcd'], ['xxabxdxx'], 40);
    assert.deepEqual(spent.similarities, [[0.75], [0]]);
    assert.equal(spent.exact, false);
    const ample = matchItems(['abcd', 'wxyz'], ['xxabxdxx', 'abcd'], 1000);
    assert.deepEqual(ample.similarities, [
      [0.75, 1],
      [0.25, 0],
    ]);
    assert.equal(ample.exact, true);
  });

  void it('splits a reference into sentences and lines', () => {
    assert.deepEqual(splitSentences('It costs 2.5 euros. It opens at 9!\n- Closed on Monday\n\n'), [
      'It costs 2.5 euros.',
      'It opens at 9!',
      '- Closed on Monday',
    ]);
  });

  void it('computes average precision over ranks', () => {
    assert.equal(averagePrecision([]), 0);
    assert.equal(averagePrecision([false, false]), 0);
    assert.equal(averagePrecision([true, false, true]), (1 + 2 / 3) / 2);
    assert.equal(averagePrecision([false, true, true]), (1 / 2 + 2 / 3) / 2);
  });
});

const REFERENCE = 'Paris is the capital of France. The Eiffel Tower was completed in 1889.';
const RELEVANT_A =
  'Paris is the capital and largest city of France; Paris is the capital of France.';
const RELEVANT_B = 'Built for the World Fair, the Eiffel Tower was completed in 1889 by Eiffel.';
const OFF_TOPIC = 'Photosynthesis turns light into chemical energy in plants.';

void describe('context-precision', () => {
  void it('is the average precision of the retrieval order', async () => {
    const late = await evaluate(
      'context-precision',
      { reference: REFERENCE },
      {},
      { contexts: [OFF_TOPIC, RELEVANT_A, RELEVANT_B] },
    );
    assert.equal(late.score, (1 / 2 + 2 / 3) / 2);
    assert.equal(late.metadata?.contexts, 3);
    assert.equal(late.metadata?.relevant, 2);
    assert.deepEqual(late.metadata?.relevantRanks, [2, 3]);
    assert.equal(late.metadata?.referenceSentences, 2);
    const similarities = late.metadata?.similarities as number[];
    // Context 2 quotes sentence 1 verbatim; context 3 has sentence 2 but for its final period
    // (one edit over 39 characters).
    assert.deepEqual(similarities.slice(1), [1, Math.round((1 - 1 / 39) * 1000) / 1000]);
    assert.ok((similarities[0] ?? 1) < 0.7);

    const early = await evaluate(
      'context-precision',
      { reference: REFERENCE },
      {},
      { contexts: [RELEVANT_A, OFF_TOPIC, RELEVANT_B] },
    );
    assert.equal(early.score, (1 + 2 / 3) / 2);
    assert.equal(server.requests.length, 0);
  });

  void it("defaults to the case's reference, else expected, and the case's contexts", async () => {
    const fromReference = await evaluate(
      'context-precision',
      {},
      { reference: REFERENCE, expected: OFF_TOPIC, contexts: [RELEVANT_B] },
      'the answer',
    );
    assert.equal(fromReference.score, 1);
    const fromExpected = await evaluate(
      'context-precision',
      {},
      { expected: REFERENCE, contexts: [OFF_TOPIC] },
      'the answer',
    );
    assert.equal(fromExpected.score, 0);
  });

  void it('matches expected contexts whole, with a templated minSimilarity from a CSV cell', async () => {
    const options = {
      expectedContexts: ['Paris is the capitol of France'],
      minSimilarity: '{{case.min}}',
      contexts: '{{case.retrieved}}',
    };
    const retrieved = [OFF_TOPIC, RELEVANT_A];
    const lenient = await evaluate('context-precision', options, { min: '0.9', retrieved }, null);
    assert.equal(lenient.score, 1 / 2);
    assert.equal(lenient.metadata?.expectedContexts, 1);
    assert.equal(lenient.metadata?.minSimilarity, 0.9);
    const strict = await evaluate('context-precision', options, { min: '1', retrieved }, null);
    assert.equal(strict.score, 0);
  });

  void it('scores no retrieved contexts 0', async () => {
    const evaluation = await evaluate(
      'context-precision',
      { reference: REFERENCE },
      {},
      {
        contexts: [],
      },
    );
    assert.equal(evaluation.score, 0);
    assert.equal(evaluation.metadata?.contexts, 0);
  });

  void it('refuses an empty reference, a bad minSimilarity and both reference kinds', async () => {
    await assert.rejects(
      evaluate('context-precision', { reference: ' \n ' }, {}, { contexts: ['x'] }),
      (error) => error instanceof OptionError && /no text to look for/.test(error.message),
    );
    await assert.rejects(
      evaluate('context-precision', { reference: 'a', minSimilarity: 1.5 }, {}, { contexts: [] }),
      (error) => error instanceof OptionError && /minSimilarity/.test(error.message),
    );
    await assert.rejects(
      evaluate('context-precision', {}, {}, { contexts: ['x'] }),
      (error) => error instanceof OptionError && /no reference/.test(error.message),
    );
    assert.deepEqual(
      builtinEvaluators['context-precision'].validate?.({ reference: 'a', expectedContexts: [] }),
      [
        {
          path: 'expectedContexts',
          message: 'give either reference or expectedContexts, not both',
        },
      ],
    );
  });
});

void describe('context-recall', () => {
  void it('is the share of reference sentences found in some context', async () => {
    const reference = `${REFERENCE} It is 330 metres tall.`;
    const evaluation = await evaluate(
      'context-recall',
      { reference },
      {},
      { contexts: [OFF_TOPIC, RELEVANT_B, RELEVANT_A] },
    );
    assert.equal(evaluation.score, 2 / 3);
    assert.equal(evaluation.metadata?.found, 2);
    assert.equal(evaluation.metadata?.total, 3);
    const items = evaluation.metadata?.items as {
      item: string;
      found: boolean;
      similarity: number;
      context: number | null;
    }[];
    assert.deepEqual(
      items.map(({ found, context }) => ({ found, context })),
      [
        { found: true, context: 3 },
        { found: true, context: 2 },
        { found: false, context: null },
      ],
    );
    assert.equal(items[2]?.item, 'It is 330 metres tall.');
    assert.ok((items[2]?.similarity ?? 1) < 0.7);
  });

  void it('looks for expected contexts, tolerating small differences down to minSimilarity', async () => {
    const options = {
      expectedContexts: ['Paris is the capitol of France', 'The tower is 330 metres tall'],
      contexts: [RELEVANT_A],
    };
    const evaluation = await evaluate('context-recall', options, {}, null);
    assert.equal(evaluation.score, 1 / 2);
    const items = evaluation.metadata?.items as { similarity: number }[];
    assert.equal(items[0]?.similarity, Math.round((1 - 1 / 30) * 1000) / 1000);
    const exactOnly = await evaluate('context-recall', { ...options, minSimilarity: 1 }, {}, null);
    assert.equal(exactOnly.score, 0);
  });

  void it('scores no contexts 0 and refuses an empty reference list', async () => {
    const none = await evaluate('context-recall', { reference: REFERENCE, contexts: [] }, {}, null);
    assert.equal(none.score, 0);
    assert.equal(none.metadata?.found, 0);
    const noneEvenAtZero = await evaluate(
      'context-recall',
      { reference: REFERENCE, contexts: [], minSimilarity: 0 },
      {},
      null,
    );
    assert.equal(noneEvenAtZero.score, 0);
    await assert.rejects(
      evaluate('context-recall', { expectedContexts: ['', '  '], contexts: ['x'] }, {}, null),
      (error) =>
        error instanceof OptionError && /"expectedContexts" has no text/.test(error.message),
    );
  });

  void it('needs no judge', async () => {
    const evaluation = await evaluate(
      'context-recall',
      { reference: 'abc', contexts: ['xxabcxx'] },
      {},
      null,
      undefined,
    );
    assert.equal(evaluation.score, 1);
  });
});
