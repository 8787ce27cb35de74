/**
 * `isolation: worker`: the function under test runs in a pool of worker threads, so that a call
 * past its time limit can be stopped even when it never yields (a synchronous busy loop cannot
 * be pre-empted in-process; a thread can be terminated).
 *
 * - The pool holds up to `size` threads (the suite's concurrency, which bounds the calls in
 *   flight), all started and loaded before the first case, so no call's time includes a start.
 *   Each loads the user's module once and runs one call at a time.
 * - The engine's time limit aborts the call's signal: the pool then terminates the thread and
 *   starts a replacement at once, while the other threads keep serving. The engine records the
 *   time-out itself, with its usual message.
 * - A thread that dies during a call (`process.exit`, an uncaught error from a stray timer) errors
 *   only that call, with the reason, and is replaced. One that dies idle is just dropped; a later
 *   call starts another if the pool runs short. Every start is caused by a call or by the death of
 *   a thread that was serving one, so a module that kills its threads cannot make the pool spin.
 * - Idle threads are unref'd: a pool left behind at the end of a run does not keep the process
 *   alive. Busy and starting ones are ref'd, so the process waits for their answers.
 */
import { Worker } from 'node:worker_threads';
import { describeError } from '../shared/describe-error.ts';
import type { FnArgs, Target, TargetOutput } from '../types/index.ts';
import type { CallRequest, LoadFailure, WorkerMessage, WorkerStart } from './worker-protocol.ts';

/** What a pool needs: its threads' program and what that program loads. */
export interface WorkerPoolSetup {
  /** The worker program (`bind/function-worker.ts`, or its built `.js`). */
  entry: URL;
  start: WorkerStart;
  /** Most threads at once. */
  size: number;
  /** The target's description (`function ./app.ts#answer (in worker threads)`). */
  description: string;
  /**
   * The run's interrupt. The threads still loading when it comes are stopped: a module that
   * never finishes loading in a thread (a busy loop at its top level) would hold the run there.
   */
  signal?: AbortSignal;
}

/**
 * A target whose calls run in a started pool, or why the pool could not start (the module does
 * not load in a worker thread). Resolves once every thread has loaded the function.
 */
export async function startWorkerTarget(
  setup: WorkerPoolSetup,
): Promise<{ ok: true; target: Target; close(): void } | { ok: false; failure: LoadFailure }> {
  const pool = new WorkerPool(setup);
  const failure = await pool.start(setup.signal);
  if (failure === INTERRUPTED) {
    pool.close();
    // The run starts no case once interrupted; a call that came anyway is told why it cannot run.
    const call = (): Promise<TargetOutput> =>
      Promise.reject(
        new Error('the run was interrupted before its worker threads loaded the function'),
      );
    return { ok: true, target: { description: setup.description, call }, close: () => {} };
  }
  if (failure !== null) {
    pool.close();
    return { ok: false, failure };
  }
  return {
    ok: true,
    target: {
      description: setup.description,
      call: (args) => pool.call(args),
      ready: () => pool.ready(),
    },
    close: () => pool.close(),
  };
}

/** What a pool's start gives when the run's interrupt came while its threads loaded. */
const INTERRUPTED = 'interrupted';

/** A call waiting for its thread's answer. */
interface InFlight {
  id: number;
  resolve(output: TargetOutput): void;
  reject(error: Error): void;
}

/** One thread of the pool. */
interface PooledThread {
  worker: Worker;
  /** Resolves when the function is loaded (null) or the thread could not load it (why). */
  ready: Promise<LoadFailure | null>;
  loaded: boolean;
  call: InFlight | null;
  /** Set when the pool terminates it: its end is nobody's error. */
  stopping: boolean;
  /** The uncaught error that is ending it, if one is. */
  crash: string | null;
}

/** A call waiting for a free thread. */
type Waiter = { take(thread: PooledThread): void; fail(message: string): void };

class WorkerPool {
  readonly #setup: WorkerPoolSetup;
  readonly #threads = new Set<PooledThread>();
  readonly #idle: PooledThread[] = [];
  readonly #waiting: Waiter[] = [];
  /** Callers of `ready` waiting for a loaded thread. */
  readonly #readyWaiters: (() => void)[] = [];
  /** Callers whose `ready` has resolved and whose call has not started: each is owed a thread. */
  #promised = 0;
  #nextId = 0;

  constructor(setup: WorkerPoolSetup) {
    this.#setup = setup;
  }

  /**
   * Starts every thread; null once all have loaded the function, else the first failure, or
   * {@link INTERRUPTED} when `signal` aborts first (or had: then no thread is started).
   */
  async start(signal?: AbortSignal): Promise<LoadFailure | null | typeof INTERRUPTED> {
    if (signal?.aborted === true) return INTERRUPTED;
    const threads = Array.from({ length: Math.max(1, this.#setup.size) }, () => this.#spawn());
    const loaded = Promise.all(threads.map((thread) => thread.ready)).then(
      (outcomes) => outcomes.find((outcome) => outcome !== null) ?? null,
    );
    if (signal === undefined) return loaded;
    let onAbort = (): void => {};
    const aborted = new Promise<typeof INTERRUPTED>((resolve) => {
      onAbort = () => resolve(INTERRUPTED);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([loaded, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Terminates every thread (a pool whose start failed, or one only started as a check). */
  close(): void {
    for (const thread of [...this.#threads]) this.#stop(thread);
  }

  /**
   * Undefined when a loaded thread is free for the next call; else a promise that resolves when
   * one is (a thread replacing one stopped at its time limit has loaded), the thread then kept
   * for that call. The engine awaits it before it starts the call's clock, so no call's time
   * holds a thread's start.
   */
  ready(): Promise<void> | undefined {
    if (this.#idle.length > this.#promised) {
      this.#promised++;
      return undefined;
    }
    return new Promise((resolve) => {
      this.#readyWaiters.push(resolve);
      if (this.#threads.size < this.#setup.size) this.#spawn();
    });
  }

  /** Lets callers of `ready` go while there are free threads not yet promised. */
  #wakeReady(): void {
    while (this.#readyWaiters.length > 0 && this.#idle.length > this.#promised) {
      this.#promised++;
      this.#readyWaiters.shift()?.();
    }
  }

  call(args: FnArgs): Promise<TargetOutput> {
    // This call was let go by `ready`: the thread promised to it is now its to take.
    if (this.#promised > 0) this.#promised--;
    // Read once: the engine aborts it at the time limit and on an interrupt.
    const signal = args.signal;
    const request: CallRequest = {
      id: ++this.#nextId,
      testCase: args.testCase,
      params: args.params,
    };
    return new Promise<TargetOutput>((resolve, reject) => {
      let thread: PooledThread | null = null;
      const done = (): void => signal.removeEventListener('abort', onAbort);
      const waiter: Waiter = {
        take: (taken) => {
          thread = taken;
          taken.call = {
            id: request.id,
            resolve: (output) => {
              done();
              resolve(output);
            },
            reject: (error) => {
              done();
              reject(error);
            },
          };
          taken.worker.ref();
          try {
            taken.worker.postMessage(request);
          } catch (error) {
            // The case or grid point holds something structured clone cannot copy.
            taken.call = null;
            this.#release(taken);
            done();
            reject(
              new Error(
                `the case cannot be passed to the function's worker thread (isolation: worker): ${describeError(error)}`,
              ),
            );
          }
        },
        fail: (message) => {
          done();
          reject(new Error(message));
        },
      };
      const onAbort = (): void => {
        if (thread === null) {
          const at = this.#waiting.indexOf(waiter);
          if (at !== -1) this.#waiting.splice(at, 1);
        } else if (thread.call?.id === request.id) {
          thread.call = null;
          this.#stop(thread);
          // A time-out is routine: the next case should find a thread ready. An interrupt ends
          // the run, which needs no more threads.
          if (isTimeout(signal.reason)) this.#spawn();
        }
        reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.#acquire(waiter);
    });
  }

  #acquire(waiter: Waiter): void {
    const thread = this.#idle.pop();
    if (thread !== undefined) {
      waiter.take(thread);
      return;
    }
    this.#waiting.push(waiter);
    if (this.#threads.size < this.#setup.size) this.#spawn();
  }

  /** A thread is free: to the first waiting call, else to the idle list. */
  #release(thread: PooledThread): void {
    const waiter = this.#waiting.shift();
    if (waiter !== undefined) {
      waiter.take(thread);
      return;
    }
    thread.worker.unref();
    this.#idle.push(thread);
    this.#wakeReady();
  }

  #stop(thread: PooledThread): void {
    thread.stopping = true;
    this.#forget(thread);
    void thread.worker.terminate();
  }

  #forget(thread: PooledThread): void {
    this.#threads.delete(thread);
    const at = this.#idle.indexOf(thread);
    if (at !== -1) this.#idle.splice(at, 1);
  }

  #spawn(): PooledThread {
    const { entry, start } = this.#setup;
    const worker = entry.pathname.endsWith('.ts')
      ? new Worker(typeScriptBootstrap(entry), { eval: true, workerData: start })
      : new Worker(entry, { workerData: start });
    let settleReady: (outcome: LoadFailure | null) => void = () => {};
    const thread: PooledThread = {
      worker,
      ready: new Promise((resolve) => (settleReady = resolve)),
      loaded: false,
      call: null,
      stopping: false,
      crash: null,
    };
    this.#threads.add(thread);
    worker.on('message', (message: WorkerMessage) => this.#onMessage(thread, message, settleReady));
    worker.on('error', (error) => {
      thread.crash = describeError(error);
    });
    worker.on('exit', (code) => this.#onExit(thread, code, settleReady));
    return thread;
  }

  #onMessage(
    thread: PooledThread,
    message: WorkerMessage,
    settleReady: (outcome: LoadFailure | null) => void,
  ): void {
    if (message.type === 'ready') {
      thread.loaded = true;
      settleReady(null);
      if (!thread.stopping) this.#release(thread);
      return;
    }
    if (message.type === 'load-failed') {
      thread.crash = message.failure.message;
      settleReady(message.failure);
      return;
    }
    const call = thread.call;
    // An answer to a call that was given up (timed out, interrupted) is dropped.
    if (call === null || call.id !== message.id) return;
    thread.call = null;
    this.#release(thread);
    if (message.type === 'returned') call.resolve({ output: message.output });
    else if (message.type === 'unclonable') call.reject(new Error(message.message));
    else {
      const error = new Error(message.error.message);
      if (message.error.name !== undefined) error.name = message.error.name;
      if (message.error.stack !== undefined) error.stack = message.error.stack;
      call.reject(error);
    }
  }

  #onExit(
    thread: PooledThread,
    code: number,
    settleReady: (outcome: LoadFailure | null) => void,
  ): void {
    this.#forget(thread);
    if (thread.stopping) {
      settleReady({ message: 'the worker thread was stopped' });
      return;
    }
    const why = thread.crash ?? `it exited with code ${code}`;
    if (!thread.loaded) {
      const message = `the worker thread ended before it loaded the function: ${why}`;
      settleReady({ message });
      // Callers of `ready` go on to their calls, which wait for a thread or learn why not.
      for (const wake of this.#readyWaiters.splice(0)) {
        this.#promised++;
        wake();
      }
      // One waiting call learns why; the others start another thread, which may fare better.
      this.#waiting.shift()?.fail(message);
      if (this.#waiting.length > 0 && this.#threads.size < this.#setup.size) this.#spawn();
      return;
    }
    const call = thread.call;
    if (call === null) return;
    thread.call = null;
    call.reject(
      new Error(
        thread.crash !== null
          ? `the function's worker thread crashed during this call: ${thread.crash}`
          : `the function's worker thread exited with code ${code} during this call (process.exit in the function?)`,
      ),
    );
    this.#spawn();
  }
}

/** The engine aborts a call at its time limit with a `TimeoutError`. */
function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError';
}

/**
 * The worker program as sources (tests, `node --import tsx`): a worker thread does not inherit
 * the main thread's loader hooks, so it registers tsx itself before importing the `.ts` entry.
 */
function typeScriptBootstrap(entry: URL): string {
  const tsx = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); })`;
}
