/**
 * Every kind of target, by the `kind` of a suite's `TargetConfig`: how each is built from the
 * config. A new kind is one file and one entry here; the engine only ever calls `Target.call`.
 * The record is typed by the config's kinds, so a kind without an implementation is a compile
 * error.
 */
import type { ConfigPath, LoadedConfig, SuiteConfig, TargetConfig } from '../config/types.ts';
import type { Breaker } from '../judge/breaker.ts';
import type { Checked, Issue, Located } from '../shared/errors.ts';
import type { Target, TestFn } from '../types/index.ts';
import { createCommandTarget } from './command.ts';
import { describeTarget } from '../config/target.ts';
import { envUrlProblem } from '../shared/url-problems.ts';
import { createScrubber } from '../shared/secrets.ts';
import { functionTarget } from './function.ts';
import { createHttpTarget } from './http.ts';
import { createModelTarget, type ModelClients } from './model.ts';
import { recordedColumnTarget, recordedTarget } from './recorded.ts';
import { startWorkerTarget } from './worker.ts';

/**
 * What building a target may use: the suite it belongs to, the loading of user code, the run's
 * model clients and the environment commands inherit.
 */
export interface TargetContext {
  config: LoadedConfig;
  suite: SuiteConfig;
  /** The issue at a path of the suite (`issueAt('target', 'url')`). */
  issueAt: (...path: ConfigPath) => Issue;
  /** The run's model clients (shared with the judges); absent when the run has none. */
  models?: ModelClients;
  /** The run's secrets (keys, tokens), which targets scrub from what they report. */
  secrets: readonly string[];
  /** Gives up on servers that fail systematically. */
  breaker?: Breaker;
  /** The environment a command target's process inherits. */
  env: Readonly<Record<string, string | undefined>>;
  /** Injected for tests; default the global fetch. */
  fetch?: typeof fetch;
  /** Prints a warning of the run (`warning: …` on stderr); default silent. */
  warn?: (message: string) => void;
  /**
   * The function exported by `module` (a module spec), or the problem placed at `where` in the
   * config (or at the syntax error in the module itself).
   */
  loadFunction(module: string, where: ConfigPath): Promise<Located<TestFn>>;
  /**
   * The program worker threads run for `isolation: worker` (`bind/function-worker.ts`); absent
   * where no such threads can be started.
   */
  functionWorkerEntry?: URL;
  /**
   * Folders searched for tsx before the config's own, by the threads of `isolation: worker` as
   * by the main thread's loader (the Action adds the working directory and the workspace).
   */
  tsxSearchFrom?: readonly string[];
  /**
   * The target is built only to check the config (`evals validate`) and is never called: it
   * takes no more than the check needs (a worker pool starts one thread, to see the module load
   * there, and stops it).
   */
  checkOnly?: boolean;
  /** The run's interrupt: worker threads still loading the function are stopped at it. */
  signal?: AbortSignal;
}

/**
 * Builds one kind of target from its config; a problem is placed in the config, and a kind that
 * checks several things (a file at each grid point) gives every problem it found.
 */
export interface TargetKind<C extends { kind: string } = TargetConfig> {
  create(config: C, context: TargetContext): Promise<Located<Target> | Checked<Target>>;
}

/** The targets a config may name. */
export const targetKinds: {
  [K in TargetConfig['kind']]: TargetKind<Extract<TargetConfig, { kind: K }>>;
} = {
  function: {
    async create(config, context) {
      // Loaded here even for worker threads: a module that does not load is reported the same
      // way (its file and line) whatever the isolation.
      const fn = await context.loadFunction(config.module, ['function']);
      if (!fn.ok) return fn;
      if (config.isolation !== 'worker') {
        const { warn } = suiteWarn(context);
        return { ok: true, value: functionTarget(fn.value, `function ${config.module}`, warn) };
      }
      return createWorkerFunctionTarget(config, context);
    },
  },
  recorded: {
    create: (config) =>
      Promise.resolve({
        ok: true,
        value: config.column !== undefined ? recordedColumnTarget(config.column) : recordedTarget,
      }),
  },
  model: {
    create: async (config, context) => {
      const fromEnv = envBaseUrlProblem(config.baseUrl, context);
      const built = await createModelTarget(config, {
        dir: context.config.dir,
        grid: context.suite.grid,
        models: context.models,
        issueAt: context.issueAt,
        ...suiteWarn(context),
      });
      // Both at once: the environment's URL and the target's own files are separate fixes.
      if (fromEnv === undefined) return built;
      return { ok: false, issues: [fromEnv, ...(built.ok ? [] : built.issues)] };
    },
  },
  http: {
    create: (config, context) =>
      Promise.resolve(
        createHttpTarget(config, {
          issueAt: context.issueAt,
          secrets: context.secrets,
          ...(context.breaker !== undefined ? { breaker: context.breaker } : {}),
          ...(context.fetch !== undefined ? { fetch: context.fetch } : {}),
          ...suiteWarn(context),
        }),
      ),
  },
  command: {
    create: (config, context) =>
      Promise.resolve(
        createCommandTarget(config, {
          dir: context.config.dir,
          env: context.env,
          grid: context.suite.grid,
          issueAt: context.issueAt,
          secrets: context.secrets,
          ...suiteWarn(context),
        }),
      ),
  },
};

/** The context's `warn`, each message naming the suite; none when the context has none. */
function suiteWarn(context: TargetContext): { warn?: (message: string) => void } {
  const { warn } = context;
  if (warn === undefined) return {};
  return { warn: (message) => warn(`suite ${context.suite.id}: ${message}`) };
}

/**
 * The problem of the base URL a model target without `baseUrl:` takes from `OPENAI_BASE_URL`:
 * credentials in its user part, refused as they are in the config (fetch cannot send them, so
 * every case would fail), at the target, with the password masked; or a port out of range.
 */
function envBaseUrlProblem(baseUrl: string | undefined, context: TargetContext): Issue | undefined {
  const fromEnv = context.env.OPENAI_BASE_URL;
  if (baseUrl !== undefined || fromEnv === undefined || fromEnv === '') return undefined;
  const problem = envUrlProblem('OPENAI_BASE_URL', fromEnv);
  if (problem === null) return undefined;
  return {
    ...context.issueAt('target'),
    code: problem.code,
    message: `this model target has no baseUrl:, so it calls ${problem.message}`,
  };
}

/** A `function:` suite's target with `isolation: worker`, its threads started and loaded. */
async function createWorkerFunctionTarget(
  config: Extract<TargetConfig, { kind: 'function' }>,
  context: TargetContext,
): Promise<Located<Target>> {
  const entry = context.functionWorkerEntry;
  if (entry === undefined) {
    return {
      ok: false,
      issue: {
        ...context.issueAt('isolation'),
        code: 'suite.isolation',
        message: 'isolation: worker is not available here: this run cannot start worker threads',
      },
    };
  }
  if (context.suite.timeoutMs === null) {
    // A call that never settles would keep its thread, and with it the whole run, alive for
    // ever: in the process the run notices an idle event loop, but a busy thread keeps it busy.
    return {
      ok: false,
      issue: {
        ...context.issueAt('isolation'),
        code: 'suite.isolation',
        message:
          'isolation: worker needs a time limit: with timeout: none a call that never returns would hold its thread, and the run, for ever; give the suite a timeout (e.g. timeout: 30s)',
      },
    };
  }
  const { dir } = context.config;
  const started = await startWorkerTarget({
    entry,
    start: {
      spec: config.module,
      dir,
      tsxSearchFrom: [dir, ...(context.tsxSearchFrom ?? [])],
      // Its scrubber's values: the declared secrets too, which the thread's globals do not hold.
      secrets: createScrubber(context.secrets).values,
    },
    size: context.checkOnly === true ? 1 : context.suite.concurrency,
    description: describeTarget(config),
    ...(context.signal !== undefined ? { signal: context.signal } : {}),
  });
  if (started.ok) {
    if (context.checkOnly === true) started.close();
    return { ok: true, value: started.target };
  }
  const { message, file, line, col } = started.failure;
  const what = `${config.module} loads in the main thread but not in a worker thread (isolation: worker)`;
  // Where the module itself says (the line that threw), as when it fails to load in the process.
  if (file !== undefined && line !== undefined) {
    return {
      ok: false,
      issue: {
        code: 'target.worker-start',
        file,
        line,
        col: col ?? 1,
        path: '',
        message: `${message} (${what})`,
      },
    };
  }
  return {
    ok: false,
    issue: {
      ...context.issueAt('function'),
      code: 'target.worker-start',
      message: `${what}: ${message}`,
    },
  };
}

/** A registry of target kinds, as the binding step takes it (the built-ins, or more in tests). */
export type TargetKinds = Readonly<Record<string, TargetKind<{ kind: string }>>>;
