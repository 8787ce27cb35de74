/**
 * evalgate's public API: the engine behind `evals run`, usable from code, and the types a user's
 * function under test and evaluators are written against.
 */
export {
  runTestSuite,
  type RunTestSuiteArgs,
  type RunTestSuiteResult,
  type SuiteCaseResult,
  type SuiteRunResult,
  type SuiteTrialResult,
} from './api/run-test-suite.ts';
export {
  BaseEvaluator,
  BaseEventEvaluator,
  BaseTestEvaluator,
  type TracerEvent,
} from './evaluators/base.ts';
// The Autoblocks SDK's out-of-box evaluator classes and grid-point store (also `evalgate/testing`).
export {
  BaseAccuracy,
  BaseAssertions,
  AutomaticBattle,
  BaseAutomaticBattle,
  BaseHasAllSubstrings,
  BaseIsEquals,
  BaseIsValidJSON,
  BaseIsValidJson,
  BaseLLMJudge,
  BaseManualBattle,
  BaseNSFW,
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
  BaseToxicity,
  gridSearchAsyncLocalStorage,
  HasAllSubstrings,
  ManualBattle,
  type EvaluationOverride,
  type EvaluationOverrideComment,
  type EvaluationOverrideField,
  type GridPoint,
  type ScoreChoice,
  type SdkEvaluatorContext,
  type SuiteJudgeSettings,
} from './testing.ts';
export { EvaluationError, UsageError, type Issue } from './shared/errors.ts';
export { addUsage, callUsage, emptyUsage, type PriceTable } from './judge/usage.ts';
export { createJudgeClient, type JudgeClientOptions } from './judge/client.ts';
export { createHostLimiter, type HostLimiter } from './judge/host-limiter.ts';
export type {
  CallOptions,
  ChatMessage,
  ChatRequest,
  ChatResult,
  ChatTool,
  ChatUsage,
  EmbedResult,
  JudgeClient,
  JudgeError,
  ToolCall,
} from './judge/types.ts';
export { builtinEvaluators, type BuiltinEvaluatorName } from './evaluators/registry.ts';
export type {
  BuiltinContext,
  BuiltinDefinition,
  BuiltinFiles,
  JudgeContext,
} from './evaluators/types.ts';
export type {
  Assertion,
  CaseResult,
  EngineEvaluator,
  Evaluation,
  EvaluationResult,
  EvaluatorArgs,
  EvaluatorFn,
  EvaluatorSummary,
  FnArgs,
  GateCondition,
  GateSpec,
  MaybeEvaluation,
  Params,
  PassCondition,
  PassConditionArgs,
  ResultsArtifact,
  RunResult,
  RunSummary,
  TestEvaluator,
  TestEvaluatorObject,
  TestFn,
  Threshold,
  TrialResult,
  Usage,
  Verdict,
} from './types/index.ts';
