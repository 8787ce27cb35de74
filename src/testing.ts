/**
 * `evalgate/testing`: the surface of the Autoblocks testing SDK (`@autoblocks/client/testing`),
 * so a suite written for it runs here with only its import changed. Everything here is also
 * exported from `evalgate`.
 */
export {
  runTestSuite,
  type RunTestSuiteArgs,
  type RunTestSuiteResult,
  type SuiteCaseResult,
  type SuiteRunResult,
  type SuiteTrialResult,
} from './api/run-test-suite.ts';
export type { SuiteJudgeSettings } from './api/sdk-context.ts';
export { gridSearchAsyncLocalStorage, type GridPoint } from './api/grid-context.ts';
export {
  BaseEvaluator,
  BaseEventEvaluator,
  BaseTestEvaluator,
  type TracerEvent,
} from './evaluators/base.ts';
// What a bad argument to runTestSuite throws: `instanceof UsageError` tells it from a bug.
export { UsageError, type Issue } from './shared/errors.ts';
export {
  BaseAssertions,
  BaseHasAllSubstrings,
  // The SDK's older names of these three classes, which it still exports.
  BaseHasAllSubstrings as HasAllSubstrings,
  BaseIsEquals,
  BaseIsValidJSON,
  BaseIsValidJson,
} from './evaluators/sdk/logic.ts';
export {
  BaseAccuracy,
  BaseAutomaticBattle,
  BaseAutomaticBattle as AutomaticBattle,
  BaseLLMJudge,
  BaseManualBattle,
  BaseManualBattle as ManualBattle,
  BaseNSFW,
  BaseToxicity,
  type EvaluationOverride,
  type EvaluationOverrideComment,
  type EvaluationOverrideField,
  type ScoreChoice,
} from './evaluators/sdk/judges.ts';
export {
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
} from './evaluators/sdk/ragas.ts';
export type { SdkEvaluatorContext } from './evaluators/sdk/builtin-backed.ts';
export type {
  Assertion,
  Evaluation,
  EvaluatorArgs,
  FnArgs,
  MaybeEvaluation,
  Params,
  TestEvaluator,
  TestEvaluatorObject,
  Threshold,
} from './types/index.ts';
