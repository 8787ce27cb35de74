/**
 * The model-based context metrics, `llm-context-precision` and `llm-context-recall`, against a
 * loopback OpenAI-compatible server through the real judge client: the prompt they send, the
 * score they compute from the verdicts, and every reply that does not fit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OptionError } from '../src/evaluators/options.ts';
import { builtinEvaluators, type BuiltinEvaluatorName } from '../src/evaluators/registry.ts';
import type { JudgeContext } from '../src/evaluators/types.ts';
import type { Evaluation } from '../src/types/index.ts';
import {
  evaluateBuiltin,
  evaluationError,
  judgeOn,
  promptOf,
  verdicts,
} from './helpers/builtin-judge.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
let judge: JudgeContext;

useOpenAiServer((started) => {
  server = started;
  judge = judgeOn(server);
});

function evaluate(
  name: BuiltinEvaluatorName,
  options: Record<string, unknown>,
  testCase: Record<string, unknown>,
  output: unknown,
): Promise<Evaluation> {
  return evaluateBuiltin(judge, name, options, testCase, output);
}

/** The system and user messages of the first request, joined. */
function prompt(): string {
  return promptOf(server, 0);
}

const CASE = {
  question: 'How tall is the Eiffel Tower?',
  reference: 'The Eiffel Tower is 300 meters tall. It stands in Paris.',
};
const OUTPUT = {
  answer: '300 meters',
  contexts: ['Bananas are yellow.', 'The tower stands 300 m tall.', 'It is in Paris, France.'],
};

void describe('llm-context-precision', () => {
  void it('is the average precision of the verdicts in retrieval order, from one call', async () => {
    server.script(verdicts(0, 1, 1));
    const evaluation = await evaluate('llm-context-precision', {}, CASE, OUTPUT);
    // Useful at ranks 2 and 3: (1/2 + 2/3) / 2.
    assert.equal(evaluation.score, (1 / 2 + 2 / 3) / 2);
    assert.deepEqual(evaluation.metadata?.usefulRanks, [2, 3]);
    assert.equal(evaluation.metadata?.useful, 2);
    assert.deepEqual((evaluation.metadata?.verdicts as unknown[])[0], {
      context: 1,
      useful: false,
      reason: 'r1',
    });
    assert.equal(server.requests.length, 1);
    const body = server.requests[0]?.body as Record<string, unknown>;
    assert.equal(body.model, 'judge-model');
    assert.deepEqual(body.tool_choice, {
      type: 'function',
      function: { name: 'record_usefulness' },
    });
    const text = prompt();
    for (const part of [
      CASE.question,
      CASE.reference,
      '<passage 2>\nThe tower stands 300 m tall.',
    ]) {
      assert.ok(text.includes(part), `the prompt holds ${part}`);
    }
    assert.equal(evaluation.usage?.calls, 1);
  });

  void it('scores the same verdicts higher when the useful context ranks first', async () => {
    server.script(verdicts(1, 1, 0));
    assert.equal((await evaluate('llm-context-precision', {}, CASE, OUTPUT)).score, 1);
  });

  void it('takes reference, contexts and question from options', async () => {
    server.script(verdicts(0));
    const evaluation = await evaluate(
      'llm-context-precision',
      {
        reference: 'Mount Everest is 8,849 m high.',
        contexts: 'K2 is in Pakistan.',
        question: 'Q?',
      },
      { expected: 'unused' },
      'an answer',
    );
    assert.equal(evaluation.score, 0);
    assert.ok(prompt().includes('Mount Everest is 8,849 m high.'));
    assert.ok(prompt().includes('<question>\nQ?\n</question>'));
  });

  void it('reports a verdict count that does not match the contexts, keeping the reply', async () => {
    server.script(verdicts(1, 0));
    const error = await evaluationError(evaluate('llm-context-precision', {}, CASE, OUTPUT));
    assert.match(error.message, /2 verdicts for 3 items/);
    assert.ok(String(error.metadata?.raw).includes('"verdict":1'));
    assert.equal(error.usage?.calls, 1);
  });

  void it('reports a verdict that is not 1 or 0, and a reply without the tool call', async () => {
    server.script(verdicts(1, 'yes', 0));
    const bad = await evaluationError(evaluate('llm-context-precision', {}, CASE, OUTPUT));
    assert.match(bad.message, /verdicts\[1\]\.verdict is "yes", not 1 or 0/);
    server.script({ noToolCall: true, content: '{"verdicts": "all useful"}' });
    const none = await evaluationError(evaluate('llm-context-precision', {}, CASE, OUTPUT));
    assert.match(none.message, /without calling record_usefulness/);
    assert.equal(none.metadata?.raw, '{"verdicts": "all useful"}');
  });

  void it('scores no contexts 0 without a call, and refuses a blank reference', async () => {
    const empty = await evaluate('llm-context-precision', {}, CASE, { contexts: [] });
    assert.equal(empty.score, 0);
    await assert.rejects(
      evaluate('llm-context-precision', {}, { reference: '  ' }, OUTPUT),
      (error) => error instanceof OptionError && /reference is blank/.test(error.message),
    );
    assert.equal(server.requests.length, 0);
  });

  void it('needs a chat model at create time', () => {
    assert.throws(
      () =>
        builtinEvaluators['llm-context-precision'].create(
          {},
          { id: 'p', judge: { ...judge, model: undefined } },
        ),
      /llm-context-precision needs a model/,
    );
  });
});

void describe('llm-context-recall', () => {
  void it('is the share of reference sentences the judge attributes to the contexts', async () => {
    server.script(verdicts(1, 0));
    const evaluation = await evaluate('llm-context-recall', {}, CASE, OUTPUT);
    assert.equal(evaluation.score, 0.5);
    assert.equal(evaluation.metadata?.attributed, 1);
    assert.equal(evaluation.metadata?.total, 2);
    assert.deepEqual(evaluation.metadata?.notAttributed, ['It stands in Paris.']);
    const text = prompt();
    assert.ok(text.includes('<statement 1>\nThe Eiffel Tower is 300 meters tall.\n</statement 1>'));
    assert.ok(text.includes('<statement 2>\nIt stands in Paris.\n</statement 2>'));
    assert.ok(text.includes('<passage 3>\nIt is in Paris, France.'));
    const body = server.requests[0]?.body as Record<string, unknown>;
    assert.deepEqual(body.tool_choice, {
      type: 'function',
      function: { name: 'record_attribution' },
    });
  });

  void it("falls back to the case's expected and contexts", async () => {
    server.script(verdicts(1));
    const evaluation = await evaluate(
      'llm-context-recall',
      {},
      { expected: 'Water boils at 100 °C.', contexts: ['At sea level water boils at 100 °C.'] },
      'answer text',
    );
    assert.equal(evaluation.score, 1);
    assert.deepEqual(evaluation.metadata?.notAttributed, []);
  });

  void it('reports too few verdicts with the raw reply, and scores no contexts 0 without a call', async () => {
    server.script(verdicts(1));
    const error = await evaluationError(evaluate('llm-context-recall', {}, CASE, OUTPUT));
    assert.match(error.message, /record_attribution arguments do not fit: 1 verdicts for 2 items/);
    assert.ok(String(error.metadata?.raw).includes('verdicts'));
    server.reset();
    const empty = await evaluate('llm-context-recall', {}, CASE, { contexts: [] });
    assert.equal(empty.score, 0);
    assert.equal(empty.metadata?.total, 2);
    assert.equal(server.requests.length, 0);
  });
});
