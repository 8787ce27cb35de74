/**
 * The Autoblocks testing SDK's rule-based out-of-box evaluators, as classes over evalgate's
 * built-ins: `BaseIsEquals` runs `is-equals`, `BaseIsValidJSON` runs `is-valid-json`, and so on.
 * The user implements the mappers (TypeScript spelling, one object argument, as in the
 * Autoblocks TypeScript SDK); scoring is the built-in's own code.
 */
import type { Assertion, Evaluation, EvaluatorArgs } from '../../types/index.ts';
import { assertions } from '../assertions.ts';
import { hasAllSubstrings } from '../has-all-substrings.ts';
import { isEquals } from '../is-equals.ts';
import { isValidJson } from '../is-valid-json.ts';
import {
  BuiltinBackedEvaluator,
  mappedArray,
  mapperArgs,
  mappedText,
  mappedTexts,
  type CaseOutputArgs,
  type DrivenBuiltin,
  type SdkMembers,
  type OutputArgs,
  type TestCaseArgs,
} from './builtin-backed.ts';

/** Scores 1 when the mapped expected value equals the mapped output, else 0 (`is-equals`). */
export abstract class BaseIsEquals<TCase, TOutput> extends BuiltinBackedEvaluator<TCase, TOutput> {
  /** The expected value, from the case. */
  abstract testCaseMapper(args: TestCaseArgs<TCase>): string;
  /** The value compared, from the output. */
  abstract outputMapper(args: OutputArgs<TOutput>): string;

  protected sdkMembers(): SdkMembers {
    return { testCaseMapper: true, outputMapper: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return isEquals;
  }

  async evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    const expected = mappedText(
      this,
      'testCaseMapper',
      this.testCaseMapper(mapperArgs({ testCase: args.testCase })),
    );
    const actual = mappedText(
      this,
      'outputMapper',
      this.outputMapper(mapperArgs({ output: args.output })),
    );
    const evaluation = await this.sdkScore({ expected, actual }, args as EvaluatorArgs);
    // The SDK reports both sides on every case, equal or not.
    return {
      ...evaluation,
      metadata: { ...evaluation.metadata, expectedOutput: expected, actualOutput: actual },
    };
  }
}

/** Scores 1 when the mapped output parses as JSON, else 0 (`is-valid-json`). */
export abstract class BaseIsValidJSON<TCase, TOutput> extends BuiltinBackedEvaluator<
  TCase,
  TOutput
> {
  /** The text to parse, from the output. */
  abstract outputMapper(args: OutputArgs<TOutput>): string;

  protected sdkMembers(): SdkMembers {
    return { outputMapper: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return isValidJson;
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.sdkScore(
      {
        actual: mappedText(
          this,
          'outputMapper',
          this.outputMapper(mapperArgs({ output: args.output })),
        ),
      },
      args as EvaluatorArgs,
    );
  }
}

/** The spelling the Autoblocks TypeScript SDK uses for `BaseIsValidJSON`. */
export const BaseIsValidJson = BaseIsValidJSON;
/** The spelling the Autoblocks TypeScript SDK uses for `BaseIsValidJSON`. */
export type BaseIsValidJson<TCase, TOutput> = BaseIsValidJSON<TCase, TOutput>;

/** Scores 1 when the mapped output contains every mapped substring, else 0 (`has-all-substrings`). */
export abstract class BaseHasAllSubstrings<TCase, TOutput> extends BuiltinBackedEvaluator<
  TCase,
  TOutput
> {
  /** The substrings that must all occur, from the case. */
  abstract testCaseMapper(args: TestCaseArgs<TCase>): string[];
  /** The text searched, from the output. */
  abstract outputMapper(args: OutputArgs<TOutput>): string;

  protected sdkMembers(): SdkMembers {
    return { testCaseMapper: true, outputMapper: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return hasAllSubstrings;
  }

  evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation> {
    return this.sdkScore(
      {
        substrings: mappedTexts(
          this,
          'testCaseMapper',
          this.testCaseMapper(mapperArgs({ testCase: args.testCase })),
        ),
        actual: mappedText(
          this,
          'outputMapper',
          this.outputMapper(mapperArgs({ output: args.output })),
        ),
      },
      args as EvaluatorArgs,
    );
  }
}

/**
 * A rubric the user grades in code (`assertions`): scores 1 when every required assertion
 * passed. Returning `undefined` or an empty list from `evaluateAssertions` skips the case, as
 * in the SDK: a case with no rules has nothing to say.
 */
export abstract class BaseAssertions<TCase, TOutput> extends BuiltinBackedEvaluator<
  TCase,
  TOutput
> {
  abstract evaluateAssertions(
    args: CaseOutputArgs<TCase, TOutput>,
  ): Assertion[] | undefined | Promise<Assertion[] | undefined>;

  protected sdkMembers(): SdkMembers {
    return { evaluateAssertions: true };
  }

  protected sdkBuiltin(): DrivenBuiltin {
    return assertions;
  }

  async evaluateTestCase(args: EvaluatorArgs<TCase, TOutput>): Promise<Evaluation | undefined> {
    const rubric = await this.evaluateAssertions(
      mapperArgs({ testCase: args.testCase, output: args.output }),
    );
    if (rubric === undefined || rubric === null) return undefined;
    const list = mappedArray(
      this,
      'evaluateAssertions',
      rubric,
      '{ criterion, passed, required } (or undefined to skip the case)',
    );
    if (list.length === 0) return undefined;
    return this.sdkScore({ assertions: list }, args as EvaluatorArgs);
  }
}
