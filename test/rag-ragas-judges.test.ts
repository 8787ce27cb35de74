/**
 * `context-entities-recall`, `factual-correctness` and `noise-sensitivity` against a loopback
 * OpenAI-compatible server through the real judge client: the calls they make and in which
 * order, the score they compute from the answers, what metadata explains it, and every reply
 * that does not fit (an evaluation error keeping the reply).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OptionError } from '../src/evaluators/options.ts';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import type { JudgeContext } from '../src/evaluators/types.ts';
import {
  evaluateBuiltin,
  evaluationError,
  judgeOn,
  promptOf,
  toolOf,
  verdicts,
} from './helpers/builtin-judge.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
let judge: JudgeContext;
useOpenAiServer((started) => {
  server = started;
  judge = judgeOn(server);
});

function entities(referenceEntities: unknown, contextEntities: unknown) {
  return { toolArguments: { referenceEntities, contextEntities } };
}

void describe('context-entities-recall', () => {
  const CASE = { reference: 'The Eiffel Tower was completed in 1889 in Paris.' };
  const OUTPUT = { contexts: ['The eiffel tower stands in Paris.', 'Bananas are yellow.'] };

  void it("is the share of the reference's entities the contexts mention, case and spaces ignored", async () => {
    server.script(
      entities(
        ['Eiffel Tower', 'Paris', '1889', ' paris '],
        ['  eiffel   TOWER ', 'Paris', 'bananas'],
      ),
    );
    const evaluation = await evaluateBuiltin(judge, 'context-entities-recall', {}, CASE, OUTPUT);
    assert.equal(evaluation.score, 2 / 3);
    assert.deepEqual(evaluation.metadata?.missing, ['1889']);
    assert.equal(evaluation.metadata?.found, 2);
    assert.equal(evaluation.metadata?.total, 3, 'Paris counts once');
    assert.deepEqual(evaluation.metadata?.referenceEntities, ['Eiffel Tower', 'Paris', '1889']);
    assert.equal(server.requests.length, 1);
    assert.equal(toolOf(server, 0), 'record_entities');
    const prompt = promptOf(server, 0);
    assert.ok(prompt.includes(CASE.reference));
    assert.ok(prompt.includes('<passage 2>\nBananas are yellow.\n</passage 2>'));
    assert.equal(evaluation.usage?.calls, 1);
  });

  void it('reports a reference that names no entity as an error, keeping the reply', async () => {
    server.script(entities([], ['Paris']));
    const error = await evaluationError(
      evaluateBuiltin(judge, 'context-entities-recall', {}, CASE, OUTPUT),
    );
    assert.match(error.message, /the reference names no entity/);
    assert.ok(String(error.metadata?.raw).includes('"contextEntities":["Paris"]'));
    assert.equal(error.usage?.calls, 1);
  });

  void it('reports lists that do not fit, keeping the reply', async () => {
    server.script(entities('Paris', []), entities(['Paris', 3], []));
    const notArray = await evaluationError(
      evaluateBuiltin(judge, 'context-entities-recall', {}, CASE, OUTPUT),
    );
    assert.match(
      notArray.message,
      /record_entities arguments do not fit: "referenceEntities" is not an array/,
    );
    assert.ok(String(notArray.metadata?.raw).includes('"referenceEntities":"Paris"'));
    const notString = await evaluationError(
      evaluateBuiltin(judge, 'context-entities-recall', {}, CASE, OUTPUT),
    );
    assert.match(notString.message, /referenceEntities\[1\] is not a string/);
  });

  void it('scores no contexts 0 without a call, and refuses a blank reference', async () => {
    const empty = await evaluateBuiltin(judge, 'context-entities-recall', {}, CASE, {
      contexts: [],
    });
    assert.equal(empty.score, 0);
    await assert.rejects(
      evaluateBuiltin(judge, 'context-entities-recall', {}, { reference: ' ' }, OUTPUT),
      (error) => error instanceof OptionError && /reference is blank/.test(error.message),
    );
    assert.equal(server.requests.length, 0);
  });
});

void describe('factual-correctness', () => {
  const CASE = {
    reference: 'The Eiffel Tower is 300 meters tall. It stands in Paris. It opened in 1889.',
  };
  const ANSWER = 'The Eiffel Tower is 300 meters tall. It is in Rome.';

  void it('is the F1 of precision (response vs reference) and recall (reference vs response)', async () => {
    server.script(verdicts(1, 0), verdicts(1, 0, 0));
    const evaluation = await evaluateBuiltin(judge, 'factual-correctness', {}, CASE, ANSWER);
    // P = 1/2, R = 1/3: 2PR / (P + R) = 0.4.
    assert.ok(Math.abs((evaluation.score ?? 0) - 0.4) < 1e-12, String(evaluation.score));
    const metadata = evaluation.metadata ?? {};
    assert.equal(metadata.precision, 0.5);
    assert.equal(metadata.recall, 0.333);
    assert.deepEqual(metadata.unsupported, ['It is in Rome.']);
    assert.deepEqual(metadata.missing, ['It stands in Paris.', 'It opened in 1889.']);
    assert.deepEqual((metadata.claims as unknown[])[1], {
      claim: 'It is in Rome.',
      supported: false,
      reason: 'r2',
    });
    assert.deepEqual(
      [toolOf(server, 0), toolOf(server, 1)],
      ['record_reference_support', 'record_response_support'],
    );
    assert.ok(promptOf(server, 0).includes('<statement 2>\nIt is in Rome.\n</statement 2>'));
    assert.ok(promptOf(server, 1).includes('<statement 3>\nIt opened in 1889.\n</statement 3>'));
    assert.equal(evaluation.usage?.calls, 2);
  });

  void it('scores one direction with mode precision or recall, from one call', async () => {
    server.script(verdicts(1, 0));
    const precision = await evaluateBuiltin(
      judge,
      'factual-correctness',
      { mode: 'precision' },
      CASE,
      ANSWER,
    );
    assert.equal(precision.score, 0.5);
    assert.equal(precision.metadata?.recall, undefined);
    assert.equal(server.requests.length, 1);
    server.reset();
    server.script(verdicts(1, 0, 0));
    const recall = await evaluateBuiltin(judge, 'factual-correctness', { mode: 'recall' }, CASE, {
      answer: ANSWER,
    });
    assert.equal(recall.score, 1 / 3);
    assert.equal(toolOf(server, 0), 'record_response_support');
    assert.equal(server.requests.length, 1);
  });

  void it('reports a second answer that does not fit, with the usage of both calls', async () => {
    server.script(verdicts(1, 0), verdicts(1));
    const error = await evaluationError(
      evaluateBuiltin(judge, 'factual-correctness', {}, CASE, ANSWER),
    );
    assert.match(
      error.message,
      /record_response_support arguments do not fit: 1 verdicts for 3 items/,
    );
    assert.ok(String(error.metadata?.raw).includes('"verdicts"'));
    assert.equal(error.usage?.calls, 2);
  });

  void it('scores a blank response 0 without a call, and refuses an unknown mode', async () => {
    const blank = await evaluateBuiltin(judge, 'factual-correctness', {}, CASE, '  ');
    assert.equal(blank.score, 0);
    await assert.rejects(
      evaluateBuiltin(judge, 'factual-correctness', { mode: 'accuracy' }, CASE, ANSWER),
      (error) => error instanceof OptionError && /"mode"/.test(error.message),
    );
    assert.equal(server.requests.length, 0);
  });
});

void describe('noise-sensitivity', () => {
  const CASE = {
    question: 'Tell me about the Eiffel Tower.',
    reference: 'The Eiffel Tower is 300 meters tall. It stands in Paris.',
  };
  const OUTPUT = {
    answer: 'The Eiffel Tower is 300 meters tall. It is painted gold. It opened in 1920.',
    contexts: [
      'The Eiffel Tower, 300 m tall, is painted gold each decade.',
      'A different tower opened in 1920.',
    ],
  };

  void it('is the share of claims that are wrong yet stated by a relevant context', async () => {
    // Claims 2 and 3 are wrong; context 1 is relevant; it states claim 2 ("painted gold").
    server.script(verdicts(1, 0, 0), verdicts(1, 0), verdicts(1, 0));
    const evaluation = await evaluateBuiltin(judge, 'noise-sensitivity', {}, CASE, OUTPUT);
    assert.equal(evaluation.score, 1 / 3);
    const metadata = evaluation.metadata ?? {};
    assert.deepEqual(metadata.noisyClaims, [{ claim: 'It is painted gold.', reason: 'r1' }]);
    assert.deepEqual(metadata.incorrectClaims, ['It is painted gold.', 'It opened in 1920.']);
    assert.deepEqual(metadata.relevantRanks, [1]);
    assert.deepEqual(
      [0, 1, 2].map((i) => toolOf(server, i)),
      ['record_reference_support', 'record_relevance', 'record_passage_support'],
    );
    assert.ok(promptOf(server, 1).includes(CASE.question), 'the relevance judge sees the question');
    const third = promptOf(server, 2);
    assert.ok(third.includes('painted gold each decade') && !third.includes('A different tower'));
    assert.ok(!third.includes('300 meters tall.'), 'only the incorrect claims are checked');
    assert.equal(evaluation.usage?.calls, 3);
  });

  void it('with mode irrelevant counts wrong claims stated only by an irrelevant context', async () => {
    server.script(verdicts(1, 0, 0), verdicts(1, 0), verdicts(1, 0), verdicts(1));
    const evaluation = await evaluateBuiltin(
      judge,
      'noise-sensitivity',
      { mode: 'irrelevant' },
      CASE,
      OUTPUT,
    );
    assert.equal(evaluation.score, 1 / 3);
    assert.deepEqual(evaluation.metadata?.noisyClaims, [
      { claim: 'It opened in 1920.', reason: 'r1' },
    ]);
    const fourth = promptOf(server, 3);
    assert.ok(fourth.includes('A different tower') && !fourth.includes('painted gold each'));
    assert.ok(
      !fourth.includes('It is painted gold.'),
      'a claim a relevant context states is not noise',
    );
  });

  void it('stops after one call when no claim is wrong, and carries a lte default threshold', async () => {
    server.script(verdicts(1, 1, 1));
    const evaluation = await evaluateBuiltin(judge, 'noise-sensitivity', {}, CASE, OUTPUT);
    assert.equal(evaluation.score, 0);
    assert.equal(server.requests.length, 1);
    assert.equal(evaluation.metadata?.incorrect, 0);
    const created = builtinEvaluators['noise-sensitivity'].create({}, { id: 'n', judge });
    assert.deepEqual(created.threshold, { lte: 0.5 });
  });

  void it('reports a relevance answer that does not fit, keeping it, with both calls used', async () => {
    server.script(verdicts(1, 0, 0), verdicts(1));
    const error = await evaluationError(
      evaluateBuiltin(judge, 'noise-sensitivity', {}, CASE, OUTPUT),
    );
    assert.match(error.message, /record_relevance arguments do not fit: 1 verdicts for 2 items/);
    assert.ok(String(error.metadata?.raw).includes('"reason":"r1"'));
    assert.equal(error.usage?.calls, 2);
    server.script({ noToolCall: true, content: 'all fine' });
    const none = await evaluationError(
      evaluateBuiltin(judge, 'noise-sensitivity', {}, CASE, OUTPUT),
    );
    assert.match(none.message, /without calling record_reference_support/);
    assert.equal(none.metadata?.raw, 'all fine');
  });
});
