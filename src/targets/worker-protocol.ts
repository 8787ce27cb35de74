/**
 * The messages between a function worker pool (`worker.ts`, main thread) and each of its worker
 * threads (`worker-thread.ts`). Everything here crosses by structured clone.
 */
import type { Params } from '../types/index.ts';

/** What a worker thread is started with (its `workerData`): how to load the function. */
export interface WorkerStart {
  /** The module spec as written in the config (`./app.ts#answer`). */
  spec: string;
  /** The config's folder, which the spec is relative to. */
  dir: string;
  /** Folders whose node_modules are searched for tsx first (see the module loader). */
  tsxSearchFrom: readonly string[];
  /**
   * The run's secrets, all its scrubber removes (the config's keys, header values and URL
   * credentials, the environment's, and the values the Action declared): the thread registers
   * them as its run's, so that a judge client the function makes there (`createJudgeClient`)
   * scrubs them as one made in the main thread would. A thread has its own globals, so it would
   * see no run otherwise.
   */
  secrets: readonly string[];
}

/** Main thread → worker: call the function once. */
export interface CallRequest {
  id: number;
  testCase: Record<string, unknown>;
  params: Params;
}

/** What an exception thrown (or a rejection) in the worker keeps on its way back. */
export interface ThrownInWorker {
  /** The text the case error shows, as the engine would describe the thrown value itself. */
  message: string;
  name?: string;
  stack?: string;
}

/** Why a thread could not load the function, and where, when the module loader could tell. */
export interface LoadFailure {
  message: string;
  file?: string;
  line?: number;
  col?: number;
}

/** Worker → main thread. */
export type WorkerMessage =
  /** The function is loaded: calls may come. */
  | { type: 'ready' }
  /** The function could not be loaded; the thread ends after this. */
  | { type: 'load-failed'; failure: LoadFailure }
  | { type: 'returned'; id: number; output: unknown }
  | { type: 'threw'; id: number; error: ThrownInWorker }
  /** The call returned something structured clone cannot copy (a function, a symbol, …). */
  | { type: 'unclonable'; id: number; message: string };
