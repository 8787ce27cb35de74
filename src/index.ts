/**
 * evalgate's public API: the engine behind `evals run`, usable from code, and the types a user's
 * function under test and evaluators are written against.
 */
export {
  runTestSuite,
  type RunTestSuiteArgs,
  type RunTestSuiteResult,
} from './api/run-test-suite.ts';
export { BaseTestEvaluator } from './evaluators/base.ts';
export { EvaluationError } from './shared/errors.ts';
export { addUsage, callUsage, emptyUsage, type PriceTable } from './judge/usage.ts';
export {
  createHostLimiter,
  createJudgeClient,
  type CallOptions,
  type HostLimiter,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type ChatTool,
  type ChatUsage,
  type EmbedResult,
  type JudgeClient,
  type JudgeClientOptions,
  type JudgeError,
  type ToolCall,
} from './judge/client.ts';
export { builtinEvaluators, type BuiltinEvaluatorName } from './evaluators/registry.ts';
export type {
  BuiltinContext,
  BuiltinDefinition,
  BuiltinFiles,
  JudgeContext,
} from './evaluators/types.ts';
export type {
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
  Params,
  PassCondition,
  PassConditionArgs,
  ResultsArtifact,
  RunResult,
  RunSummary,
  TestFn,
  Threshold,
  TrialResult,
  Usage,
  Verdict,
} from './types/index.ts';
