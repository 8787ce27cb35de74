import type { PriceTable } from '../judge/usage.ts';
import type { CoveredFiles } from './config-hash.ts';
import type { ConfigDataParts, ConfigHashParts, GateSpec, Threshold } from '../types/index.ts';

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
  /**
   * The configHash: sha256 (hex) of the canonical JSON of the config's data as written, before
   * `${VAR}` substitution (see config-hash.ts). Comments, formatting, key order, quoting and
   * anchors do not change it; any change of meaning, or of an environment reference, does. Once
   * loaded by the pipeline, it also covers the prompt files, modules and command scripts the
   * config names (pipeline/config-files-hash.ts).
   */
  hash: string;
  /**
   * sha256 (hex) of the config file's text: what evalgate recorded as configHash before it
   * hashed the data, so a partial or shard written then still matches a config whose text is
   * unchanged.
   */
  textHash: string;
  /**
   * What evalgate recorded as configHash before the hash covered modules and command scripts,
   * so a partial written then still resumes (without those files checked); absent when the
   * config names neither (see pipeline/config-files-hash.ts).
   */
  earlierHash?: string;
  /** The files the hash covers beside the config, by kind, for messages (see `ConfigHashes`). */
  coveredFiles?: readonly CoveredFiles[];
  /** What `hash` is the hash of, when it covers files (see `ConfigHashes`). */
  hashParts?: ConfigHashParts;
  /** The config's data hash broken down (see `ConfigHashes`). */
  dataParts?: ConfigDataParts;
  /** The modules the config names, from its folder (see `ConfigHashes`). */
  namedModules?: readonly string[];
  version: 1;
  defaults: {
    concurrency: number;
    timeoutMs: number | null;
    trials: number;
    /** `defaults.isolation`: where suites with a `function:` run it. */
    isolation: Isolation;
    /** `defaults.stopAfterErrors`: identical systematic call failures before a host is given up. */
    stopAfterErrors: number;
    /** `defaults.judge`, as written (durations in ms); `{}` when absent. */
    judge: JudgeDefaults;
  };
  suites: SuiteConfig[];
  /**
   * The top-level `removedSuites`: suites of a baseline this config no longer has, on purpose
   * (else one gone fails `regressions: block`); absent when the config does not set it.
   */
  removedSuites?: string[];
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
 * Where a suite's function runs: `process` (the evalgate process itself, the default) or `worker`
 * (a pool of worker threads, so a call past its time limit can be stopped even when it never
 * yields).
 */
export type Isolation = 'process' | 'worker';

/**
 * What produces a suite's outputs, by kind; each kind is one entry of the target registry
 * (`targets/registry.ts`).
 */
export type TargetConfig =
  /**
   * `function: ./app/answer.ts#answer`: the module spec as written, and `isolation: worker` when
   * it runs in worker threads (absent: in the process).
   */
  | { kind: 'function'; module: string; isolation?: 'worker' }
  /**
   * Neither `function:` nor `target:`: the outputs recorded in the testset, in the column `output:`
   * names (absent: the `output` field).
   */
  | { kind: 'recorded'; column?: string }
  | ModelTargetConfig
  | HttpTargetConfig
  | CommandTargetConfig;

/**
 * Text of a prompt or message: inline (a template), or a file relative to the config whose path
 * may hold `{{params.x}}` (read once per grid point) and whose content is a template.
 */
export type PromptSource =
  | {
      text: string;
      /** Where the text is, relative to the suite, for a problem found in it. */
      at: ConfigPath;
    }
  | {
      file: string;
      /** Where `file:` is, relative to the suite, for a missing file's message. */
      at: ConfigPath;
    };

/** `target: { type: model }`: one chat completion per case from an OpenAI-compatible API. */
export interface ModelTargetConfig {
  kind: 'model';
  /** Template: `gpt-4o-mini`, or `{{params.model}}` for a grid over models. */
  model: string;
  /** `prompt:` becomes one user message. */
  messages: { role: 'system' | 'user' | 'assistant' | 'developer'; content: PromptSource }[];
  baseUrl?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  /** `text` (the default): the reply's text; `json`: the parsed reply; a schema: JSON that has to match it. */
  responseFormat: 'text' | 'json' | { schema: Record<string, unknown> };
  /** Per request attempt. */
  timeoutMs?: number;
  maxRetries?: number;
  /**
   * `allowEmptyOutput: true`: an empty output (nothing, or only white space) is scored as it is.
   * Absent (the default): it is a case error, since scored it would pass every check that
   * something is not there (a `not: true` check, a maximum length).
   */
  allowEmptyOutput?: true;
}

/** `target: { type: http }`: one request per case to an HTTP endpoint. */
export interface HttpTargetConfig {
  kind: 'http';
  /** Template; what a template puts into it is percent-encoded. */
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers: Record<string, string>;
  /** A JSON template (any YAML value), or absent for no body. */
  body?: unknown;
  /** A path into the JSON answer (`data.answer`, `choices.0.message.content`); absent: the whole body. */
  output?: string;
  maxRetries: number;
  /**
   * `allowEmptyOutput: true`: an empty output (nothing, or only white space) is scored as it is.
   * Absent (the default): it is a case error, since scored it would pass every check that
   * something is not there (a `not: true` check, a maximum length).
   */
  allowEmptyOutput?: true;
}

/** `target: { type: command }`: one process per case. */
export interface CommandTargetConfig {
  kind: 'command';
  /** An argv list of templates, or with `shell: true` one command line. */
  run: string[] | string;
  shell: boolean;
  /** Relative to the config; default the config's folder. */
  cwd?: string;
  env: Record<string, string>;
  /** `text`: stdout without its trailing line breaks; `json`: stdout parsed. */
  output: 'text' | 'json';
  /**
   * `allowEmptyOutput: true`: an empty output (nothing, or only white space) is scored as it is.
   * Absent (the default): it is a case error, since scored it would pass every check that
   * something is not there (a `not: true` check, a maximum length).
   */
  allowEmptyOutput?: true;
}

export type TestsetConfig =
  | {
      kind: 'file';
      /** As written, relative to the config folder. */
      path: string;
      ref?: string;
      revision?: string;
      tags?: string[];
      /** `split:` column → separator: joined list cells cut into lists before the run. */
      split?: Record<string, string>;
      /** Testset id for contentIds; default: the file's base name without extension. */
      id?: string;
    }
  | {
      kind: 'inline';
      /**
       * The `cases:` items with their YAML node lines, and columns for cases that share a line
       * with another (a flow list: `cases: [{ a: 1 }, { a: 2 }]`).
       */
      records: { value: Record<string, unknown>; line: number; col?: number }[];
      revision?: string;
      tags?: string[];
      /** `split:` column → separator: joined list cells cut into lists before the run. */
      split?: Record<string, string>;
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
  /** No `id:` was written: `id` is the default taken from `use` (the export's name for a module). */
  idFromUse?: true;
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
  /** `when: { tags }`: the rows it applies to; absent, every row. */
  when?: { tags: string[] };
  /** `not: true`: the score is inverted (1 − score). */
  not?: boolean;
  /** `agreement: { column }`: its verdicts are checked against the human labels in that column. */
  agreement?: { column: string };
}
