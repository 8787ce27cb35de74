/**
 * The Autoblocks SDK's Ragas wrappers, as classes over evalgate's built-ins: faithfulness,
 * response relevancy, the LLM context precision and recall, context entities recall, factual
 * correctness and noise sensitivity (chat judge), semantic similarity (embeddings), and the
 * non-LLM context precision and recall (no model). The SDK's `llm` and `embeddings` fields have
 * no counterpart: `model` and the run's judge settings pick the models.
 */
import type { Evaluation, EvaluatorArgs, Threshold } from '../../types/index.ts';
import { contextPrecision } from '../judges/context-precision.ts';
import { contextRecall } from '../judges/context-recall.ts';
import { answerRelevancy } from '../judges/answer-relevancy.ts';
import { contextEntitiesRecall } from '../judges/context-entities-recall.ts';
import { factualCorrectness, FACTUAL_MODES } from '../judges/factual-correctness.ts';
import { faithfulness } from '../judges/faithfulness.ts';
import { llmContextPrecision } from '../judges/llm-context-precision.ts';
import { llmContextRecall } from '../judges/llm-context-recall.ts';
import { noiseSensitivity, NOISE_MODES } from '../judges/noise-sensitivity.ts';
import { semanticSimilarity } from '../judges/semantic-similarity.ts';
import {
  BuiltinBackedEvaluator,
  mapperArgs,
  mappedText,
  mappedTexts,
  type CaseOutputArgs,
  type DrivenBuiltin,
  type SdkMembers,
  type OutputArgs,
  type TestCaseArgs,
} from './builtin-backed.ts';
import { SdkJudgeEvaluator } from './judges.ts';
import { optionalChoice } from '../options.ts';

/** Faithfulness: the share of the response's claims the retrieved contexts support. */
export abstract class BaseRagasFaithfulness<TCase, TOutput> extends SdkJudgeEvaluator<
  TCase,
  TOutput
> {
  abstract userInputMapper(args: CaseOutputArgs<TCase, TOutput>): string;
  abstract responseMapper(args: OutputArgs<TOutput>): string;
  abstract retrievedContextsMapper(args: CaseOutputArgs<TCase, TOutput>): string[];

  protected sdkMembers(): SdkMembers {
    return { userInputMapper: true, responseMapper: true, retrievedContextsMapper: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return faithfulness;
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    const both = mapperArgs({ testCase: args.testCase, output: args.output });
    return this.sdkScore(
      {
        question: mappedText(this, 'userInputMapper', this.userInputMapper(both)),
        answer: mappedText(
          this,
          'responseMapper',
          this.responseMapper(mapperArgs({ output: args.output })),
        ),
        contexts: mappedTexts(this, 'retrievedContextsMapper', this.retrievedContextsMapper(both)),
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
  /** Taken for parity with the SDK, never called: relevancy does not depend on the contexts. */
  retrievedContextsMapper?(args: CaseOutputArgs<TCase, TOutput>): string[];

  // Not retrievedContextsMapper: never called, so a retrieved_contexts_mapper is harmless.
  protected sdkMembers(): SdkMembers {
    return { userInputMapper: true, responseMapper: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return answerRelevancy;
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.sdkScore(
      {
        question: mappedText(
          this,
          'userInputMapper',
          this.userInputMapper(mapperArgs({ testCase: args.testCase, output: args.output })),
        ),
        answer: mappedText(
          this,
          'responseMapper',
          this.responseMapper(mapperArgs({ output: args.output })),
        ),
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

  protected sdkMembers(): SdkMembers {
    return { responseMapper: true, referenceMapper: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return semanticSimilarity;
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.sdkScore(
      {
        actual: mappedText(
          this,
          'responseMapper',
          this.responseMapper(mapperArgs({ output: args.output })),
        ),
        expected: mappedText(
          this,
          'referenceMapper',
          this.referenceMapper(mapperArgs({ testCase: args.testCase })),
        ),
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

  protected sdkMembers(): SdkMembers {
    return { retrievedContextsMapper: true, referenceContextsMapper: true };
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.sdkScore(
      {
        contexts: mappedTexts(
          this,
          'retrievedContextsMapper',
          this.retrievedContextsMapper(
            mapperArgs({ testCase: args.testCase, output: args.output }),
          ),
        ),
        expectedContexts: mappedTexts(
          this,
          'referenceContextsMapper',
          this.referenceContextsMapper(mapperArgs({ testCase: args.testCase })),
        ),
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
  protected sdkBuiltin(): DrivenBuiltin {
    return contextPrecision;
  }
}

/** The share of reference contexts found in the retrieved ones. */
export abstract class BaseRagasNonLLMContextRecall<TCase, TOutput> extends ContextMatching<
  TCase,
  TOutput
> {
  protected sdkBuiltin(): DrivenBuiltin {
    return contextRecall;
  }
}

/**
 * The retrieved contexts judged by a chat model against the reference answer; the user input,
 * when mapped, is shown to the judge for context (Ragas passes it too).
 */
abstract class LLMContextJudging<TCase, TOutput> extends SdkJudgeEvaluator<TCase, TOutput> {
  /** The question that was asked (optional: without it, the judge sees no question). */
  userInputMapper?(args: CaseOutputArgs<TCase, TOutput>): string;
  abstract retrievedContextsMapper(args: CaseOutputArgs<TCase, TOutput>): string[];
  abstract referenceMapper(args: TestCaseArgs<TCase>): string;

  protected sdkMembers(): SdkMembers {
    return { userInputMapper: false, retrievedContextsMapper: true, referenceMapper: true };
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    const both = mapperArgs({ testCase: args.testCase, output: args.output });
    const question =
      this.userInputMapper === undefined
        ? undefined
        : mappedText(this, 'userInputMapper', this.userInputMapper(both));
    return this.sdkScore(
      {
        contexts: mappedTexts(this, 'retrievedContextsMapper', this.retrievedContextsMapper(both)),
        reference: mappedText(
          this,
          'referenceMapper',
          this.referenceMapper(mapperArgs({ testCase: args.testCase })),
        ),
        ...(question !== undefined ? { question } : {}),
      },
      args as EvaluatorArgs,
    );
  }
}

/**
 * Average precision of the retrieval order, useful meaning the judge finds the context was
 * needed to arrive at the reference (`llm-context-precision`).
 */
export abstract class BaseRagasLLMContextPrecisionWithReference<
  TCase,
  TOutput,
> extends LLMContextJudging<TCase, TOutput> {
  protected sdkBuiltin(): DrivenBuiltin {
    return llmContextPrecision;
  }
}

/** The share of the reference's sentences the judge attributes to the contexts (`llm-context-recall`). */
export abstract class BaseRagasLLMContextRecall<TCase, TOutput> extends LLMContextJudging<
  TCase,
  TOutput
> {
  protected sdkBuiltin(): DrivenBuiltin {
    return llmContextRecall;
  }
}

/** The share of the reference's entities the retrieved contexts mention (`context-entities-recall`). */
export abstract class BaseRagasContextEntitiesRecall<TCase, TOutput> extends SdkJudgeEvaluator<
  TCase,
  TOutput
> {
  abstract retrievedContextsMapper(args: CaseOutputArgs<TCase, TOutput>): string[];
  abstract referenceMapper(args: TestCaseArgs<TCase>): string;

  protected sdkMembers(): SdkMembers {
    return { retrievedContextsMapper: true, referenceMapper: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return contextEntitiesRecall;
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.sdkScore(
      {
        contexts: mappedTexts(
          this,
          'retrievedContextsMapper',
          this.retrievedContextsMapper(
            mapperArgs({ testCase: args.testCase, output: args.output }),
          ),
        ),
        reference: mappedText(
          this,
          'referenceMapper',
          this.referenceMapper(mapperArgs({ testCase: args.testCase })),
        ),
      },
      args as EvaluatorArgs,
    );
  }
}

/**
 * The response's sentences checked against the reference and the reference's against the
 * response: F1 of both by default, or one direction with `mode` (`factual-correctness`).
 */
export abstract class BaseRagasFactualCorrectness<TCase, TOutput> extends SdkJudgeEvaluator<
  TCase,
  TOutput
> {
  /** `f1` (default, as in Ragas), `precision` or `recall`. */
  mode?: (typeof FACTUAL_MODES)[number];
  abstract responseMapper(args: OutputArgs<TOutput>): string;
  abstract referenceMapper(args: TestCaseArgs<TCase>): string;

  protected sdkMembers(): SdkMembers {
    return { responseMapper: true, referenceMapper: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return factualCorrectness;
  }

  /** Checks `mode` before the run: a misspelt one would otherwise be every case's error. */
  override sdkPreload(): void {
    super.sdkPreload();
    optionalChoice({ mode: this.mode }, 'mode', FACTUAL_MODES, 'f1');
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.sdkScore(
      {
        answer: mappedText(
          this,
          'responseMapper',
          this.responseMapper(mapperArgs({ output: args.output })),
        ),
        reference: mappedText(
          this,
          'referenceMapper',
          this.referenceMapper(mapperArgs({ testCase: args.testCase })),
        ),
        ...(this.mode !== undefined ? { mode: this.mode } : {}),
      },
      args as EvaluatorArgs,
    );
  }
}

/**
 * The share of the response's claims that are wrong yet stated by a retrieved context; lower is
 * better, default threshold `lte: 0.5` (`noise-sensitivity`).
 */
export abstract class BaseRagasNoiseSensitivity<TCase, TOutput> extends SdkJudgeEvaluator<
  TCase,
  TOutput
> {
  /** `relevant` (default): errors taken from relevant contexts; `irrelevant`: from the others. */
  mode?: (typeof NOISE_MODES)[number];
  /** The question that was asked (optional: shown to the judge of relevance). */
  userInputMapper?(args: CaseOutputArgs<TCase, TOutput>): string;
  abstract responseMapper(args: OutputArgs<TOutput>): string;
  abstract referenceMapper(args: TestCaseArgs<TCase>): string;
  abstract retrievedContextsMapper(args: CaseOutputArgs<TCase, TOutput>): string[];

  protected sdkMembers(): SdkMembers {
    return {
      userInputMapper: false,
      responseMapper: true,
      referenceMapper: true,
      retrievedContextsMapper: true,
    };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return noiseSensitivity;
  }

  /** Checks `mode` before the run: a misspelt one would otherwise be every case's error. */
  override sdkPreload(): void {
    super.sdkPreload();
    optionalChoice({ mode: this.mode }, 'mode', NOISE_MODES, 'relevant');
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    const both = mapperArgs({ testCase: args.testCase, output: args.output });
    const question =
      this.userInputMapper === undefined
        ? undefined
        : mappedText(this, 'userInputMapper', this.userInputMapper(both));
    return this.sdkScore(
      {
        answer: mappedText(
          this,
          'responseMapper',
          this.responseMapper(mapperArgs({ output: args.output })),
        ),
        reference: mappedText(
          this,
          'referenceMapper',
          this.referenceMapper(mapperArgs({ testCase: args.testCase })),
        ),
        contexts: mappedTexts(this, 'retrievedContextsMapper', this.retrievedContextsMapper(both)),
        ...(question !== undefined ? { question } : {}),
        ...(this.mode !== undefined ? { mode: this.mode } : {}),
      },
      args as EvaluatorArgs,
    );
  }
}
