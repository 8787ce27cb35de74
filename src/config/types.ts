import type { PriceTable } from '../judge/usage.ts';
import type { GateSpec, Threshold } from '../types/index.ts';

/** A 1-based position in the config file. */
export interface Loc {
  line: number;
  col: number;
}

/** A config path as segments, e.g. `['suites', 0, 'evaluators', 1, 'use']`. */
export type ConfigPath = (string | number)[];

/** A validated `evals.yaml`: every value checked, env substituted, durations in milliseconds. */
export interface LoadedConfig {
  /** The config path for messages, as the user gave it (e.g. `examples/quickstart/evals.yaml`). */
  file: string;
  absPath: string;
  /** Absolute folder of the config: testset and module paths are relative to it. */
  dir: string;
  /** sha256 (hex) of the config file's bytes. */
  hash: string;
  version: 1;
  defaults: {
    concurrency: number;
    timeoutMs: number | null;
    trials: number;
    /** `defaults.judge`, as written (durations in ms); `{}` when absent. */
    judge: JudgeDefaults;
  };
  suites: SuiteConfig[];
  /** Position of a config path (the closest existing ancestor), for errors found after loading. */
  locate(path: ConfigPath): Loc;
}

export interface SuiteConfig {
  /** Index in `suites:`, for config paths in messages. */
  index: number;
  id: string;
  testset: TestsetConfig;
  /** Fields that identify a case; absent: dedup id, else contentId. */
  hash?: string[];
  /** What produces each case's output (`function:`, else the row's `output` field). */
  target: TargetConfig;
  /** Grid parameters in the order written; `{}` when there is no grid. */
  grid: Record<string, unknown[]>;
  concurrency: number;
  timeoutMs: number | null;
  /** Times each case runs (`trials:`, else `defaults.trials`, else 1); `--trials` overrides it later. */
  trials: number;
  evaluators: EvaluatorConfig[];
  /** `all`, `any`, or a module spec. */
  pass: string;
  gate: GateSpec;
}

/**
 * What produces a suite's outputs, by kind; each kind is one entry of the target registry
 * (`targets/registry.ts`).
 */
export type TargetConfig =
  /** `function: ./app/answer.ts#answer`: the module spec as written. */
  | { kind: 'function'; module: string }
  /** No `function:`: the outputs recorded in the testset's `output` field. */
  | { kind: 'recorded' };

export type TestsetConfig =
  | {
      kind: 'file';
      /** As written, relative to the config folder. */
      path: string;
      ref?: string;
      revision?: string;
      tags?: string[];
      /** Testset id for contentIds; default: the file's base name without extension. */
      id?: string;
    }
  | {
      kind: 'inline';
      /** The `cases:` items with their YAML node lines. */
      records: { value: Record<string, unknown>; line: number }[];
      revision?: string;
      tags?: string[];
      /** Testset id for contentIds; default: the suite id. */
      id?: string;
    };

/** Model settings of judge evaluators (`defaults.judge`, an evaluator's `judge:`); all optional. */
export interface JudgeSettings {
  model?: string;
  embeddingModel?: string;
  baseUrl?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  temperature?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

/** `defaults.judge`: the settings every judge inherits, plus what only makes sense per process. */
export interface JudgeDefaults extends JudgeSettings {
  prices?: PriceTable;
  hostConcurrency?: number;
}

export interface EvaluatorConfig {
  index: number;
  id: string;
  /** A built-in name or a module spec, as written. */
  use: string;
  kind: 'builtin' | 'module';
  /** Options: for built-ins, raw (templates resolved per case); for modules, given to the constructor/factory. */
  with: Record<string, unknown>;
  threshold?: Threshold;
  concurrency?: number;
  timeoutMs?: number;
  /** The evaluator's `judge:` block, as written (durations in ms). */
  judge?: JudgeSettings;
}
