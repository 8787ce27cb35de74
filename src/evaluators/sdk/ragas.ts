/**
 * The Autoblocks SDK's Ragas wrappers for the RAG metrics evalgate has, as classes over its
 * built-ins: faithfulness and response relevancy (chat judge), semantic similarity
 * (embeddings), and the non-LLM context precision and recall (no model). The SDK's `llm` and
 * `embeddings` fields have no counterpart: the run's judge settings pick the models.
 */
import type { Evaluation, EvaluatorArgs, Threshold } from '../../types/index.ts';
import { contextPrecision } from '../judges/context-precision.ts';
import { contextRecall } from '../judges/context-recall.ts';
import { answerRelevancy } from '../judges/answer-relevancy.ts';
import { faithfulness } from '../judges/faithfulness.ts';
import { semanticSimilarity } from '../judges/semantic-similarity.ts';
import {
  BuiltinBackedEvaluator,
  type CaseOutputArgs,
  type DrivenBuiltin,
  type OutputArgs,
  type TestCaseArgs,
} from './builtin-backed.ts';
import { SdkJudgeEvaluator } from './judges.ts';

/** Faithfulness: the share of the response's claims the retrieved contexts support. */
export abstract class BaseRagasFaithfulness<TCase, TOutput> extends SdkJudgeEvaluator<
  TCase,
  TOutput
> {
  abstract userInputMapper(args: CaseOutputArgs<TCase, TOutput>): string;
  abstract responseMapper(args: OutputArgs<TOutput>): string;
  abstract retrievedContextsMapper(args: CaseOutputArgs<TCase, TOutput>): string[];

  protected builtin(): DrivenBuiltin {
    return faithfulness;
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    const both = { testCase: args.testCase, output: args.output };
    return this.scoreValues(
      {
        question: this.userInputMapper(both),
        answer: this.responseMapper({ output: args.output }),
        contexts: this.retrievedContextsMapper(both),
      },
      args as EvaluatorArgs,
    );
  }
}

/** Response relevancy: whether the response addresses the user input (`answer-relevancy`). */
export abstract class BaseRagasResponseRelevancy<TCase, TOutput> extends SdkJudgeEvaluator<
  TCase,
  TOutput
> {
  abstract userInputMapper(args: CaseOutputArgs<TCase, TOutput>): string;
  abstract responseMapper(args: OutputArgs<TOutput>): string;
  /** Read for parity with the SDK; relevancy does not depend on the contexts. */
  retrievedContextsMapper?(args: CaseOutputArgs<TCase, TOutput>): string[];

  protected builtin(): DrivenBuiltin {
    return answerRelevancy;
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.scoreValues(
      {
        question: this.userInputMapper({ testCase: args.testCase, output: args.output }),
        answer: this.responseMapper({ output: args.output }),
      },
      args as EvaluatorArgs,
    );
  }
}

/** Semantic similarity: cosine of the response's and the reference's embeddings. */
export abstract class BaseRagasSemanticSimilarity<TCase, TOutput> extends BuiltinBackedEvaluator<
  TCase,
  TOutput
> {
  /** Pass range of the score (no default: what counts as close depends on the model). */
  threshold?: Threshold;
  abstract responseMapper(args: OutputArgs<TOutput>): string;
  abstract referenceMapper(args: TestCaseArgs<TCase>): string;

  protected builtin(): DrivenBuiltin {
    return semanticSimilarity;
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.scoreValues(
      {
        actual: this.responseMapper({ output: args.output }),
        expected: this.referenceMapper({ testCase: args.testCase }),
      },
      args as EvaluatorArgs,
    );
  }
}

/** The retrieved contexts matched against reference contexts, with no model call. */
abstract class ContextMatching<TCase, TOutput> extends BuiltinBackedEvaluator<TCase, TOutput> {
  /** Pass range of the score (default: none, scores are reported). */
  threshold?: Threshold;
  abstract retrievedContextsMapper(args: CaseOutputArgs<TCase, TOutput>): string[];
  abstract referenceContextsMapper(args: TestCaseArgs<TCase>): string[];

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.scoreValues(
      {
        contexts: this.retrievedContextsMapper({ testCase: args.testCase, output: args.output }),
        expectedContexts: this.referenceContextsMapper({ testCase: args.testCase }),
      },
      args as EvaluatorArgs,
    );
  }
}

/** Average precision of the retrieval order, relevant meaning it holds a reference context. */
export abstract class BaseRagasNonLLMContextPrecisionWithReference<
  TCase,
  TOutput,
> extends ContextMatching<TCase, TOutput> {
  protected builtin(): DrivenBuiltin {
    return contextPrecision;
  }
}

/** The share of reference contexts found in the retrieved ones. */
export abstract class BaseRagasNonLLMContextRecall<TCase, TOutput> extends ContextMatching<
  TCase,
  TOutput
> {
  protected builtin(): DrivenBuiltin {
    return contextRecall;
  }
}
