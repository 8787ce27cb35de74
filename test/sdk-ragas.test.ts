/**
 * The Ragas-style SDK classes over evalgate's RAG built-ins, with seed 003's Eiffel Tower
 * example; model-backed ones answer from the loopback OpenAI-compatible server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import {
  BaseRagasContextEntitiesRecall,
  BaseRagasFactualCorrectness,
  BaseRagasFaithfulness,
  BaseRagasLLMContextPrecisionWithReference,
  BaseRagasLLMContextRecall,
  BaseRagasNoiseSensitivity,
  BaseRagasNonLLMContextPrecisionWithReference,
  BaseRagasNonLLMContextRecall,
  BaseRagasResponseRelevancy,
  BaseRagasSemanticSimilarity,
  runTestSuite,
  type RunTestSuiteResult,
  type TestEvaluator,
} from 'evalgate/testing';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';
import { numbered } from './helpers/judge-evaluators.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

interface TestCase {
  question: string;
  expectedAnswer: string;
  referenceContexts: string[];
}

interface Output {
  answer: string;
  contexts: string[];
}

const EIFFEL: TestCase = {
  question: 'How tall is the Eiffel Tower?',
  expectedAnswer: '300 meters',
  referenceContexts: ['The Eiffel tower stands 300 meters tall.'],
};

function run(evaluators: TestEvaluator<TestCase, Output>[]): Promise<RunTestSuiteResult> {
  return runTestSuite<TestCase, Output>({
    id: 'my-test-suite',
    testCases: [EIFFEL],
    testCaseHash: ['question'],
    fn: () => ({
      answer: '300 meters',
      contexts: ['Paris is in France.', 'The Eiffel tower stands 300 meters tall.'],
    }),
    evaluators,
    judge: {
      client: createJudgeClient({ baseUrl: server.url, cacheDir: null, env: {} }),
      embeddingModel: 'embed-model',
    },
    quiet: true,
    setExitCode: false,
  });
}

function evaluation(result: RunTestSuiteResult, id: string) {
  return result.runs[0]?.cases[0]?.evaluations.find((e) => e.evaluator === id);
}

describe('Ragas-style SDK classes', () => {
  it('BaseRagasResponseRelevancy maps user input and response and scores the verdict', async () => {
    server.setResponder(() => ({
      toolArguments: { reason: 'on topic', choice: 'fully relevant' },
    }));
    class ResponseRelevancy extends BaseRagasResponseRelevancy<TestCase, Output> {
      id = 'response-relevancy';
      override threshold = { gte: 1 };
      userInputMapper({ testCase }: { testCase: TestCase; output: Output }): string {
        return testCase.question;
      }
      responseMapper({ output }: { output: Output }): string {
        return output.answer;
      }
      override retrievedContextsMapper({
        output,
      }: {
        testCase: TestCase;
        output: Output;
      }): string[] {
        return output.contexts;
      }
    }
    const result = await run([new ResponseRelevancy()]);
    assert.equal(evaluation(result, 'response-relevancy')?.score, 1);
    assert.equal(evaluation(result, 'response-relevancy')?.passed, true);
    const prompt = JSON.stringify(server.requests[0]?.body);
    assert.ok(prompt.includes('How tall is the Eiffel Tower?') && prompt.includes('300 meters'));
  });

  it('BaseRagasFaithfulness scores the share of supported claims', async () => {
    server.setResponder(() => ({
      toolArguments: {
        claims: [
          { claim: 'The tower is 300 meters tall.', reason: 'passage 2', supported: true },
          { claim: 'It is blue.', reason: 'no passage', supported: false },
        ],
      },
    }));
    class Faithfulness extends BaseRagasFaithfulness<TestCase, Output> {
      id = 'faithfulness';
      userInputMapper({ testCase }: { testCase: TestCase; output: Output }): string {
        return testCase.question;
      }
      responseMapper({ output }: { output: Output }): string {
        return output.answer;
      }
      retrievedContextsMapper({ output }: { testCase: TestCase; output: Output }): string[] {
        return output.contexts;
      }
    }
    const result = await run([new Faithfulness()]);
    assert.equal(evaluation(result, 'faithfulness')?.score, 0.5);
  });

  it('BaseRagasSemanticSimilarity embeds response and reference with the run’s embeddings model', async () => {
    class SemanticSimilarity extends BaseRagasSemanticSimilarity<TestCase, Output> {
      id = 'semantic-similarity';
      responseMapper({ output }: { output: Output }): string {
        return output.answer;
      }
      referenceMapper({ testCase }: { testCase: TestCase }): string {
        return testCase.expectedAnswer.replace('meters', 'metres');
      }
    }
    const result = await run([new SemanticSimilarity()]);
    // The fake embeds the i-th text as [length, 1, i]: [10, 1, 0] against [10, 1, 1].
    const score = evaluation(result, 'semantic-similarity')?.score ?? 0;
    assert.ok(Math.abs(score - 101 / Math.sqrt(101 * 102)) < 1e-9, String(score));
    const models = server.requests.map((r) => (r.body as { model?: string }).model);
    assert.ok(models.length > 0 && models.every((m) => m === 'embed-model'), String(models));
  });

  it('the non-LLM context precision and recall match reference contexts without a model', async () => {
    class Precision extends BaseRagasNonLLMContextPrecisionWithReference<TestCase, Output> {
      id = 'context-precision';
      retrievedContextsMapper({ output }: { testCase: TestCase; output: Output }): string[] {
        return output.contexts;
      }
      referenceContextsMapper({ testCase }: { testCase: TestCase }): string[] {
        return testCase.referenceContexts;
      }
    }
    class Recall extends BaseRagasNonLLMContextRecall<TestCase, Output> {
      id = 'context-recall';
      retrievedContextsMapper({ output }: { testCase: TestCase; output: Output }): string[] {
        return output.contexts;
      }
      referenceContextsMapper({ testCase }: { testCase: TestCase }): string[] {
        return testCase.referenceContexts;
      }
    }
    const result = await run([new Precision(), new Recall()]);
    // The relevant context ranks second of two: average precision 1/2.
    assert.equal(evaluation(result, 'context-precision')?.score, 0.5);
    assert.equal(evaluation(result, 'context-recall')?.score, 1);
    assert.equal(server.requests.length, 0);
  });

  it('the LLM context precision and recall ask the judge per context and per reference sentence', async () => {
    server.setResponder((request) => {
      const tool = (request.body as { tools: { function: { name: string } }[] }).tools[0]?.function
        .name;
      // Precision: the first context (Paris) is not useful, the second is. Recall: the one
      // reference sentence is attributed.
      const verdicts = tool === 'record_usefulness' ? [0, 1] : [1];
      return {
        toolArguments: { verdicts: verdicts.map((verdict) => ({ reason: 'because', verdict })) },
      };
    });
    class Precision extends BaseRagasLLMContextPrecisionWithReference<TestCase, Output> {
      id = 'llm-context-precision';
      override model = 'class-model';
      override userInputMapper({ testCase }: { testCase: TestCase; output: Output }): string {
        return testCase.question;
      }
      retrievedContextsMapper({ output }: { testCase: TestCase; output: Output }): string[] {
        return output.contexts;
      }
      referenceMapper({ testCase }: { testCase: TestCase }): string {
        return testCase.expectedAnswer;
      }
    }
    class Recall extends BaseRagasLLMContextRecall<TestCase, Output> {
      id = 'llm-context-recall';
      retrievedContextsMapper({ output }: { testCase: TestCase; output: Output }): string[] {
        return output.contexts;
      }
      referenceMapper({ testCase }: { testCase: TestCase }): string {
        return testCase.referenceContexts.join(' ');
      }
    }
    const result = await run([new Precision(), new Recall()]);
    assert.equal(evaluation(result, 'llm-context-precision')?.score, 0.5);
    assert.deepEqual(evaluation(result, 'llm-context-precision')?.metadata?.usefulRanks, [2]);
    assert.equal(evaluation(result, 'llm-context-recall')?.score, 1);
    const bodies = server.requests.map((r) => r.body as { model: string; messages: unknown[] });
    assert.equal(bodies.length, 2);
    const precision = bodies.find((b) => JSON.stringify(b).includes('record_usefulness'));
    assert.equal(precision?.model, 'class-model');
    assert.ok(JSON.stringify(precision?.messages).includes('How tall is the Eiffel Tower?'));
    const recall = bodies.find((b) => JSON.stringify(b).includes('record_attribution'));
    assert.equal(recall?.model, 'gpt-4o', "the SDK's default model");
  });

  it('context entities recall, factual correctness and noise sensitivity map and score through the judge', async () => {
    server.setResponder((request) => {
      const body = request.body as { tool_choice: { function: { name: string } } };
      const tool = body.tool_choice.function.name;
      if (tool === 'record_entities') {
        return {
          toolArguments: {
            referenceEntities: ['300 meters'],
            contextEntities: ['Paris', '300 Meters'],
          },
        };
      }
      // Statements about the 300 meters are supported; every passage is relevant and states
      // every claim put to it.
      const tag =
        { record_relevance: 'passage', record_passage_support: 'claim' }[tool] ?? 'statement';
      const verdicts = numbered(request, tag).map((item) => ({
        reason: tool,
        verdict: tag !== 'statement' || item.includes('300') ? 1 : 0,
      }));
      return { toolArguments: { verdicts } };
    });
    class EntitiesRecall extends BaseRagasContextEntitiesRecall<TestCase, Output> {
      id = 'entities';
      retrievedContextsMapper({ output }: { testCase: TestCase; output: Output }): string[] {
        return output.contexts;
      }
      referenceMapper({ testCase }: { testCase: TestCase }): string {
        return testCase.expectedAnswer;
      }
    }
    class FactualCorrectness extends BaseRagasFactualCorrectness<TestCase, Output> {
      id = 'factual';
      override mode = 'precision' as const;
      responseMapper({ output }: { output: Output }): string {
        return output.answer;
      }
      referenceMapper({ testCase }: { testCase: TestCase }): string {
        return testCase.expectedAnswer;
      }
    }
    class NoiseSensitivity extends BaseRagasNoiseSensitivity<TestCase, Output> {
      id = 'noise';
      override userInputMapper({ testCase }: { testCase: TestCase; output: Output }): string {
        return testCase.question;
      }
      responseMapper({ output }: { output: Output }): string {
        return `${output.answer}. It is in Paris. It is blue.`;
      }
      referenceMapper({ testCase }: { testCase: TestCase }): string {
        return testCase.expectedAnswer;
      }
      retrievedContextsMapper({ output }: { testCase: TestCase; output: Output }): string[] {
        return output.contexts;
      }
    }
    const result = await run([
      new EntitiesRecall(),
      new FactualCorrectness(),
      new NoiseSensitivity(),
    ]);
    assert.equal(evaluation(result, 'entities')?.score, 1);
    assert.equal(evaluation(result, 'factual')?.score, 1);
    assert.equal(evaluation(result, 'factual')?.metadata?.mode, 'precision');
    // Two of three claims are wrong and stated by a relevant passage: 2/3, above the default lte 0.5.
    const noise = evaluation(result, 'noise');
    assert.equal(noise?.score, 2 / 3);
    assert.equal(noise?.passed, false);
    const tools = server.requests.map(
      (r) => (r.body as { tool_choice: { function: { name: string } } }).tool_choice.function.name,
    );
    assert.deepEqual(
      tools.filter((t) => t === 'record_response_support'),
      [],
      'precision only',
    );
    assert.equal(tools.length, 1 + 1 + 3);
    const relevance = server.requests.find((r) =>
      JSON.stringify(r.body).includes('record_relevance'),
    );
    assert.ok(JSON.stringify(relevance?.body).includes('How tall is the Eiffel Tower?'));
  });
});
