import type { JudgeClient } from '../judge/types.ts';
import type { PriceTable } from '../judge/usage.ts';
import type { EngineEvaluator, Threshold } from '../types/index.ts';

/** Context a built-in gets when it is created from an `evals.yaml` evaluator entry. */
export interface BuiltinContext {
  /** The evaluator's `id:` in the config. */
  id: string;
  /** Model access for judge built-ins; absent where none was set up (code, deterministic use). */
  judge?: JudgeContext;
  /** Files next to the config; absent outside a config run (then file-backed built-ins refuse). */
  files?: BuiltinFiles;
  /**
   * Removes the run's secrets from a piece of a value a built-in quotes, before it is cut short:
   * scrubbing the finished case does not recognise a secret's first few characters. Absent: none.
   */
  scrub?: (text: string) => string;
}

/**
 * A built-in evaluator: its option schema (for `with:`), its default threshold, and a factory.
 * `with` reaches `create` raw: templates (`{{case.x}}`) are resolved per case by the evaluator
 * itself through `resolveTemplates`, so a template error becomes that case's evaluation error.
 */
export interface BuiltinDefinition {
  /** One line for docs and `--help`. */
  summary: string;
  /** JSON Schema of `with:`, where any value may also be a `{{ template }}` string. */
  optionsSchema: Record<string, unknown>;
  /** Used when the config gives no `threshold:`. Absent: scores are reported, pass is null. */
  defaultThreshold?: Threshold;
  /**
   * The model endpoint the built-in calls (a judge); absent for deterministic ones. An
   * evaluator's `judge:` block is only accepted on built-ins that call one.
   */
  calls?: 'chat' | 'embeddings';
  /**
   * Model requests one evaluation makes at most (a retried request counts once), for the plan
   * `evals run --dry-run` prints; default 1 when `calls` is set, else 0. A function gets the
   * `with:` options as written (templates unresolved) when the count depends on a mode.
   */
  callsPerCase?: number | ((options: Record<string, unknown>) => number);
  /**
   * Load-time checks beyond the schema (an invalid regex, min > max). Options holding templates
   * are passed as written; skip checks on those. Each problem names its option path (`pattern`).
   */
  validate?(options: Record<string, unknown>): { path: string; message: string }[];
  create(options: Record<string, unknown>, context: BuiltinContext): EngineEvaluator;
}

/**
 * What a judge built-in (one that calls a model) gets at create time: a client already set up
 * from `defaults.judge` and the evaluator's `judge:` block (base URL, key, timeout, retries, the
 * shared cache and per-host cap), and the resolved model settings. Deterministic built-ins
 * ignore it. Everything here is injected, so a judge evaluator stays free of environment reads.
 */
export interface JudgeContext {
  client: JudgeClient;
  /** Chat model; `undefined` when none is configured (a judge that needs one reports an error). */
  model: string | undefined;
  /** Embeddings model for `semantic-similarity` and the like; `undefined` when not configured. */
  embeddingModel: string | undefined;
  temperature: number;
  /** For the cost in `Evaluation.usage` (see `callUsage`). */
  prices: PriceTable | undefined;
}

/**
 * Files a built-in may keep next to the config (the `automatic-battle` baselines). The run's
 * settings decide whether they may be written; writes happen once, after the run, through the
 * flush callbacks the built-ins register.
 */
export interface BuiltinFiles {
  /** The config's folder: relative paths in options resolve against it. */
  configDir: string;
  /** The suite the evaluator belongs to. */
  suiteId: string;
  /** `--update-baselines`: recorded baselines that lost may be replaced. */
  updateBaselines: boolean;
  /**
   * Why a baselines file that does not exist is not recorded by this run (without
   * `--update-baselines`), e.g. `CI=true`; absent: the first run records it.
   */
  noFirstRecording?: string;
  /**
   * The command line that records missing baselines, for a message to quote (`evals run
   * 'sub/my evals.yaml' --update-baselines`); without it, `evals run --update-baselines`.
   */
  updateCommand?: string;
  /**
   * How to record missing baselines where no command line does (`pass updateBaselines: true to
   * runTestSuite(s)`), an imperative for a message; it replaces the quoted `updateCommand`.
   */
  updateHint?: string;
  /**
   * Called by the pipeline after the run (also an interrupted one), in registration order. A
   * flush may resolve to a note on what it wrote (`vs recorded the first baseline of 2 cases in ...`), which
   * `runTestSuite` prints; `evals run` reports the file in its own words.
   */
  onRunEnd(flush: () => Promise<string | undefined>): void;
}
