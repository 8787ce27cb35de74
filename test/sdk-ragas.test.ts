/**
 * The Ragas-style SDK classes over evalgate's RAG built-ins, with seed 003's Eiffel Tower
 * example; model-backed ones answer from the loopback OpenAI-compatible server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import {
  BaseRagasFaithfulness,
  BaseRagasNonLLMContextPrecisionWithReference,
  BaseRagasNonLLMContextRecall,
  BaseRagasResponseRelevancy,
  BaseRagasSemanticSimilarity,
  runTestSuite,
  type RunTestSuiteResult,
  type TestEvaluator,
} from 'evalgate/testing';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

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
});
