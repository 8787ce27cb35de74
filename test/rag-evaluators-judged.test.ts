/**
 * The judge-backed RAG and similarity built-ins (faithfulness, answer-relevancy,
 * semantic-similarity) against a loopback OpenAI-compatible server through the real judge client.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OptionError } from '../src/evaluators/options.ts';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import { evaluationError } from './helpers/builtin-judge.ts';
import { server } from './helpers/judge-server.ts';
import { evaluate, judge, useRagServer } from './helpers/rag-evaluators.ts';

useRagServer();

/** The request body the server received `index`-th, as an object. */
function body(index: number): Record<string, unknown> {
  const request = server.requests[index];
  assert.ok(request, `request ${index} was made`);
  return request.body as Record<string, unknown>;
}

/** The system and user messages of a chat request, joined. */
function promptOf(index: number): string {
  const messages = body(index).messages as { content: string }[];
  return messages.map((m) => m.content).join('\n');
}

const PARIS_CONTEXTS = [
  'Paris is the capital and largest city of France.',
  'The Eiffel Tower was completed in 1889.',
];

void describe('faithfulness', () => {
  void it('scores supported claims over all claims, from a prompt holding question, contexts and answer', async () => {
    server.script({
      toolArguments: {
        claims: [
          { claim: 'Paris is the capital of France.', reason: 'Passage 1.', supported: true },
          {
            claim: 'The Eiffel Tower was completed in 1889.',
            reason: 'Passage 2.',
            supported: true,
          },
          { claim: 'The tower is 500 m tall.', reason: 'No passage says so.', supported: false },
        ],
      },
    });
    const evaluation = await evaluate(
      'faithfulness',
      { contexts: '{{case.passages}}', answer: '{{output.text}}' },
      { question: 'Tell me about Paris.', passages: PARIS_CONTEXTS },
      { text: 'Paris, the capital, has a 500 m tower finished in 1889.' },
    );
    assert.equal(evaluation.score, 2 / 3);
    assert.equal(evaluation.metadata?.supported, 2);
    assert.equal(evaluation.metadata?.total, 3);
    const claims = evaluation.metadata?.claims as { claim: string; supported: boolean }[];
    assert.deepEqual(
      claims.map((c) => c.supported),
      [true, true, false],
    );
    assert.equal(claims[2]?.claim, 'The tower is 500 m tall.');

    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]?.path, '/v1/chat/completions');
    const request = body(0);
    assert.equal(request.model, 'judge-model');
    assert.equal(request.temperature, 0);
    assert.deepEqual(request.tool_choice, {
      type: 'function',
      function: { name: 'record_claims' },
    });
    const prompt = promptOf(0);
    assert.ok(prompt.includes('Tell me about Paris.'));
    assert.ok(prompt.includes(PARIS_CONTEXTS[0] ?? '?'));
    assert.ok(prompt.includes(PARIS_CONTEXTS[1] ?? '?'));
    assert.ok(prompt.includes('Paris, the capital, has a 500 m tower finished in 1889.'));

    assert.equal(evaluation.usage?.calls, 1);
    assert.equal(evaluation.usage?.promptTokens, 42);
    assert.equal(evaluation.usage?.completionTokens, 7);
  });

  void it("takes the answer and contexts from the output object and the question from the case's input", async () => {
    server.script({
      toolArguments: { claims: [{ claim: 'a', reason: 'r', supported: true }] },
    });
    const evaluation = await evaluate(
      'faithfulness',
      {},
      { input: 'Where is the Louvre?', contexts: ['ignored: the output has its own'] },
      { answer: 'In Paris.', contexts: ['The Louvre is in Paris.'] },
    );
    assert.equal(evaluation.score, 1);
    const prompt = promptOf(0);
    assert.ok(prompt.includes('Where is the Louvre?'));
    assert.ok(prompt.includes('The Louvre is in Paris.'));
    assert.ok(prompt.includes('In Paris.'));
    assert.ok(!prompt.includes('ignored'));
  });

  void it('falls back to the case contexts, and a single string is one passage', async () => {
    server.script({ toolArguments: { claims: [] } });
    const evaluation = await evaluate(
      'faithfulness',
      {},
      { contexts: 'Only passage.' },
      'I do not know.',
    );
    assert.equal(evaluation.score, 1);
    assert.equal(evaluation.metadata?.noClaims, true);
    assert.equal(evaluation.metadata?.total, 0);
    assert.ok(promptOf(0).includes('<passage 1>\nOnly passage.\n</passage>'));
    assert.ok(!promptOf(0).includes('<passage 2>'));
    // No question in the case: the prompt does not invent one.
    assert.ok(!promptOf(0).includes('<question>'));
  });

  void it('scores an empty answer 1 without calling the model', async () => {
    const evaluation = await evaluate('faithfulness', {}, { contexts: ['x'] }, '  ');
    assert.equal(evaluation.score, 1);
    assert.equal(evaluation.metadata?.noClaims, true);
    assert.equal(server.requests.length, 0);
  });

  void it('reports malformed tool arguments as an evaluation error with the raw arguments', async () => {
    server.script({ toolArguments: { claims: [{ claim: 'x', reason: 'r', supported: 'yes' }] } });
    const error = await evaluationError(
      evaluate('faithfulness', {}, { contexts: ['c'] }, 'An answer.'),
    );
    assert.match(error.message, /claims\[0\]\.supported is not a boolean/);
    assert.ok(String(error.metadata?.raw).includes('"supported":"yes"'));
    assert.equal(error.usage?.calls, 1);
  });

  void it('reports an answer without the tool call as an evaluation error', async () => {
    server.script({ noToolCall: true, content: 'All claims look fine to me.' });
    const error = await evaluationError(
      evaluate('faithfulness', {}, { contexts: ['c'] }, 'An answer.'),
    );
    assert.match(error.message, /without calling record_claims/);
    assert.equal(error.metadata?.raw, 'All claims look fine to me.');
  });

  void it('refuses contexts that are not strings, for that case only', async () => {
    await assert.rejects(
      evaluate('faithfulness', {}, {}, { answer: 'a', contexts: [{ text: 'x' }] }),
      (error) => error instanceof OptionError && /output's "contexts"/.test(error.message),
    );
    await assert.rejects(
      evaluate('faithfulness', {}, {}, 'no contexts anywhere'),
      (error) => error instanceof OptionError && /no contexts/.test(error.message),
    );
    assert.equal(server.requests.length, 0);
  });

  void it('needs a chat model at create time', () => {
    assert.throws(
      () =>
        builtinEvaluators.faithfulness.create(
          {},
          { id: 'f', judge: { ...judge, model: undefined } },
        ),
      /faithfulness needs a model: set defaults\.judge\.model/,
    );
    assert.throws(
      () => builtinEvaluators.faithfulness.create({}, { id: 'f' }),
      /needs a judge client/,
    );
  });
});

void describe('answer-relevancy', () => {
  void it('maps fully / partially / not relevant to 1 / 0.5 / 0', async () => {
    const expected = [
      ['fully relevant', 1],
      ['partially relevant', 0.5],
      ['not relevant', 0],
    ] as const;
    for (const [choice, score] of expected) {
      server.reset();
      server.script({ toolArguments: { reason: `because ${choice}`, choice } });
      const evaluation = await evaluate(
        'answer-relevancy',
        {},
        { question: 'What is the capital of France?' },
        'Paris.',
      );
      assert.equal(evaluation.score, score, choice);
      assert.deepEqual(evaluation.metadata, { verdict: choice, reason: `because ${choice}` });
      assert.equal(evaluation.usage?.calls, 1);
      const prompt = promptOf(0);
      assert.ok(prompt.includes('What is the capital of France?'));
      assert.ok(prompt.includes('Paris.'));
      const tools = body(0).tools as { function: { parameters: { properties: object } } }[];
      assert.deepEqual(
        (tools[0]?.function.parameters.properties as { choice: { enum: string[] } }).choice.enum,
        ['fully relevant', 'partially relevant', 'not relevant'],
      );
    }
  });

  void it('takes the question from the option, over the case', async () => {
    server.script({ toolArguments: { reason: 'ok', choice: 'fully relevant' } });
    await evaluate(
      'answer-relevancy',
      { question: 'Asked: {{case.q}}', answer: '{{output.reply}}' },
      { q: 'How tall is the tower?', question: 'not this one' },
      { reply: '330 metres.' },
    );
    const prompt = promptOf(0);
    assert.ok(prompt.includes('Asked: How tall is the tower?'));
    assert.ok(prompt.includes('330 metres.'));
    assert.ok(!prompt.includes('not this one'));
  });

  void it('rejects a verdict outside the choices with the raw answer', async () => {
    server.script({ toolArguments: { reason: 'hmm', choice: 'somewhat' } });
    const error = await evaluationError(evaluate('answer-relevancy', {}, { question: 'q?' }, 'a'));
    assert.ok(String(error.metadata?.raw).includes('somewhat'));
    assert.equal(error.usage?.calls, 1);
  });

  void it('needs a question, and scores an empty answer 0 without a call', async () => {
    await assert.rejects(
      evaluate('answer-relevancy', {}, { other: 1 }, 'an answer'),
      (error) => error instanceof OptionError && /no question/.test(error.message),
    );
    const empty = await evaluate('answer-relevancy', {}, { question: 'q?' }, '');
    assert.equal(empty.score, 0);
    assert.equal(server.requests.length, 0);
  });
});

/** An embeddings answer with exactly these vectors. */
function vectors(...embeddings: number[][]): { body: Record<string, unknown> } {
  return {
    body: {
      object: 'list',
      data: embeddings.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      usage: { prompt_tokens: 11, total_tokens: 11 },
    },
  };
}

void describe('semantic-similarity', () => {
  void it('scores the cosine of the two embeddings from one call with both texts', async () => {
    server.script(vectors([1, 0], [0.6, 0.8]));
    const evaluation = await evaluate(
      'semantic-similarity',
      { expected: '{{case.reference}}' },
      { reference: 'The capital is Paris.' },
      'Paris is the capital.',
    );
    assert.ok(Math.abs(evaluation.score - 0.6) < 1e-12);
    assert.ok(Math.abs((evaluation.metadata?.cosine as number) - 0.6) < 1e-12);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]?.path, '/v1/embeddings');
    assert.deepEqual(body(0), {
      model: 'embed-model',
      input: ['Paris is the capital.', 'The capital is Paris.'],
    });
    assert.equal(evaluation.usage?.calls, 1);
    assert.equal(evaluation.usage?.promptTokens, 11);
  });

  void it('compares `actual` when given, and scales nothing: the cosine ignores vector length', async () => {
    server.script(vectors([3, 4], [6, 8]));
    const evaluation = await evaluate(
      'semantic-similarity',
      { expected: 'b', actual: '{{output.answer}}' },
      {},
      { answer: 'a' },
    );
    assert.ok(Math.abs(evaluation.score - 1) < 1e-12);
    assert.deepEqual((body(0).input as string[])[0], 'a');
  });

  void it('scores a negative cosine 0 and keeps the cosine in metadata', async () => {
    server.script(vectors([1, 0], [-0.8, 0.6]));
    const evaluation = await evaluate('semantic-similarity', { expected: 'up' }, {}, 'down');
    assert.equal(evaluation.score, 0);
    assert.ok(Math.abs((evaluation.metadata?.cosine as number) + 0.8) < 1e-12);
  });

  void it('reports a zero vector and mismatched dimensions as evaluation errors', async () => {
    server.script(vectors([0, 0], [1, 0]), vectors([1, 0, 0], [1, 0]));
    const zero = await evaluationError(evaluate('semantic-similarity', { expected: 'x' }, {}, 'y'));
    assert.match(zero.message, /zero vector/);
    assert.equal(zero.usage?.calls, 1);
    const mismatch = await evaluationError(
      evaluate('semantic-similarity', { expected: 'x' }, {}, 'y'),
    );
    assert.match(mismatch.message, /differ in length \(3 and 2\)/);
  });

  void it('reports a failed call with its status', async () => {
    server.script({ status: 400 });
    const error = await evaluationError(
      evaluate('semantic-similarity', { expected: 'x' }, {}, 'y'),
    );
    assert.match(error.message, /embeddings call failed/);
    assert.equal(error.metadata?.status, 400);
  });

  void it('needs no call for equal texts and scores an empty text 0', async () => {
    const same = await evaluate('semantic-similarity', { expected: 'same' }, {}, 'same');
    assert.equal(same.score, 1);
    const empty = await evaluate('semantic-similarity', { expected: 'x' }, {}, '');
    assert.equal(empty.score, 0);
    assert.equal(empty.metadata?.emptyText, 'actual');
    assert.equal(server.requests.length, 0);
  });

  void it('needs an embeddings model at create time', () => {
    assert.throws(
      () =>
        builtinEvaluators['semantic-similarity'].create(
          { expected: 'x' },
          { id: 's', judge: { ...judge, embeddingModel: undefined } },
        ),
      /semantic-similarity needs an embeddings model: set defaults\.judge\.embeddingModel/,
    );
  });
});
