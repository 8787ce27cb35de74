/**
 * What a run will do, as a plain value: which suites, grid points and cases, how many trials,
 * which evaluators and how many model calls at most. `planRun` builds it from the config and
 * the testsets without any I/O; `evals run --dry-run` prints it; the binding step turns it into
 * the engine's suites.
 */
import type { Shard } from './shard.ts';
import type {
  ConfigDataParts,
  ConfigHashParts,
  GateSpec,
  Params,
  PreparedCase,
  TestsetInfo,
} from '../types/index.ts';

/** Narrowing of a run chosen on the command line (`--suite`, `--tag`, `--grid k=v`, `--shard`). */
export interface RunFilters {
  suites?: string[];
  tags?: string[];
  /** `--grid model=large --grid model=small` → `{ model: ['large', 'small'] }`. */
  grid?: Record<string, string[]>;
  /** `--shard 2/4`: only the cases whose identity falls in this shard (see `shardOf`). */
  shard?: Shard;
  /**
   * `--resume FILE`: the interrupted run this one finishes, which only the config that wrote it
   * may resume: the `configHash` it records is the config's hash, or (written by an earlier
   * evalgate) the hash of its text. Checked first, with the other filters: the suites the
   * partial ran are filled into `suites`, and another config would not have them. Its
   * `configHashParts` and `configDataParts`, when recorded, let a refusal name what changed.
   */
  resume?: {
    from: string;
    configHash: string;
    configHashParts?: ConfigHashParts;
    configDataParts?: ConfigDataParts;
  };
}

/** A suite's testset as read: every case in file order, and where it came from. */
export interface ReadTestset {
  cases: readonly PreparedCase[];
  info: Omit<TestsetInfo, 'cases'>;
}

/** The testsets of the suites a run selects, by suite id. */
export type TestsetIndex = ReadonlyMap<string, ReadTestset>;

export interface RunPlan {
  /** The config file, as the user named it. */
  config: string;
  shard: Shard | null;
  /** Set when the plan finishes an interrupted run (`--resume`). */
  resume: { from: string; kept: number } | null;
  suites: SuitePlan[];
}

export interface SuitePlan {
  id: string;
  /**
   * What produces the outputs, as the plan prints it (`function ./app.ts#answer`; for a model
   * target, where its calls go: `model gpt-4o at http://127.0.0.1:8000/v1 from OPENAI_BASE_URL`).
   */
  target: string;
  evaluators: PlannedEvaluator[];
  testset: Omit<TestsetInfo, 'cases'>;
  /** Rows in the testset, before tag and shard filters. */
  rows: number;
  trials: number;
  concurrency: number;
  timeoutMs: number | null;
  /** `all`, `any`, or the module spec of a pass condition. */
  pass: string;
  gate: GateSpec;
  /** One per grid point, in run order. */
  runs: PlannedRun[];
  /**
   * Model calls the suite makes at most: per case execution (each trial of each case) for its
   * built-in judges; `unknown` names the parts whose calls cannot be known (code under test,
   * custom evaluators).
   */
  modelCalls: { perCase: number; unknown: string[] };
}

export interface PlannedEvaluator {
  id: string;
  /** The built-in's name or the module spec, as written. */
  use: string;
  /**
   * Where a built-in judge's calls go when a base URL says (its own, `defaults.judge`'s or
   * `OPENAI_BASE_URL`), as the plan prints it: `at http://127.0.0.1:8000/v1 from
   * OPENAI_BASE_URL`. Absent for other evaluators, and for a judge calling OpenAI's API.
   */
  callsTo?: string;
  /** Model calls of one evaluation at most; `null` when unknown (a custom evaluator). */
  callsPerCase: number | null;
}

export interface PlannedRun {
  params: Params;
  /** The cases the run plans, in testset order. */
  cases: readonly PreparedCase[];
  /**
   * With `--resume`: the positions (in `cases`) of the cases the interrupted run finished,
   * which are taken over instead of run.
   */
  done?: ReadonlySet<number>;
}
