/**
 * Model access for the judge built-ins of one run: one client per distinct connection setting
 * (base URL, key, timeout, retries), all sharing one per-host cap and one on-disk cache, and the
 * files context through which `automatic-battle` records its baselines after the run.
 *
 * The environment is read here, at the edge, once; the evaluators get values.
 */
import { join, resolve } from 'node:path';
import type { EvaluatorConfig, JudgeSettings, LoadedConfig, SuiteConfig } from '../config/types.ts';
import type { BuiltinContext } from '../evaluators/types.ts';
import type { Breaker } from '../judge/breaker.ts';
import { createHostLimiter } from '../judge/host-limiter.ts';
import { createJudgeClient, DEFAULT_BASE_URL } from '../judge/client.ts';
import { type JudgeClient } from '../judge/types.ts';
import type { ModelClients } from '../targets/model.ts';
import { literalValue } from '../shared/templates.ts';
import { shellWord } from '../shared/shell-word.ts';
import { envUrlProblem } from '../shared/url-problems.ts';

/** The cache folder when `--cache-dir` is not given, relative to the config's folder. */
export const DEFAULT_CACHE_DIR = '.evalgate/cache';
/** Requests in flight to one host when `defaults.judge.hostConcurrency` is not set. */
export const DEFAULT_HOST_CONCURRENCY = 8;

/** What the command line decides about model calls. */
export interface ModelRuntime {
  /** Absolute cache folder; `null` (`--no-cache`): every call goes to the server. */
  cacheDir: string | null;
  /** `--update-baselines`. */
  updateBaselines: boolean;
  env: Record<string, string | undefined>;
  /** The run's secrets, scrubbed by every client from errors, answers and its cache. */
  secrets?: readonly string[];
  /** Gives up on servers that fail systematically, for every client of the run. */
  breaker?: Breaker;
  /** Injected for tests; default the global fetch. */
  fetch?: typeof fetch;
  /** Where a warning goes, such as a cache that cannot be written (said once per run). */
  warn?: (message: string) => void;
}

/**
 * The run's model access: for judges (`contextFor`) and, as `ModelClients`, for model targets,
 * which share the judges' clients, cache and per-host cap.
 */
export interface ModelAccess extends ModelClients {
  /**
   * Why a judge evaluator cannot call the base URL it takes from `OPENAI_BASE_URL` (credentials in
   * its user part, which fetch refuses, or a port past 65535), refused as the same URL in the
   * config is, with the code of its issue; undefined when it can, or names its own `baseUrl:`.
   */
  envBaseUrlProblem(evaluator: EvaluatorConfig): { code: string; message: string } | undefined;
  /** The `judge` and `files` parts of a built-in's create context. */
  contextFor(
    suite: SuiteConfig,
    evaluator: EvaluatorConfig,
  ): Pick<BuiltinContext, 'judge' | 'files'>;
  /**
   * Runs what built-ins registered for the end of the run (baseline files), in order. Every
   * callback runs even if one fails; the failures are returned as messages.
   */
  finish(): Promise<string[]>;
}

/**
 * The cache folder a run uses: `--cache-dir` (absolute, or relative to cwd), else the default
 * next to the config.
 */
export function resolveCacheDir(
  config: Pick<LoadedConfig, 'dir'>,
  cwd: string,
  options: { noCache?: boolean; cacheDir?: string },
): string | null {
  if (options.noCache) return null;
  return options.cacheDir !== undefined
    ? resolve(cwd, options.cacheDir)
    : join(config.dir, DEFAULT_CACHE_DIR);
}

/** Creates the run's model access. Nothing connects until a judge makes its first call. */
export function createModelAccess(config: LoadedConfig, runtime: ModelRuntime): ModelAccess {
  const defaults = config.defaults.judge;
  const hostLimiter = createHostLimiter(defaults.hostConcurrency ?? DEFAULT_HOST_CONCURRENCY);
  const clients = new Map<string, JudgeClient>();
  const flushes: (() => Promise<unknown>)[] = [];
  // Every client shares the cache folder: its trouble is said once, not once per client or call.
  let cacheWarned = false;
  const onCacheUnwritable = (message: string): void => {
    if (cacheWarned) return;
    cacheWarned = true;
    runtime.warn?.(message);
  };

  const clientFor = (written: JudgeSettings): JudgeClient => {
    const settings = literalSettings(written);
    const baseUrl = settings.baseUrl ?? (runtime.env.OPENAI_BASE_URL || DEFAULT_BASE_URL);
    const apiKey = settings.apiKey ?? (runtime.env.OPENAI_API_KEY || undefined);
    // The key takes part in telling clients apart, in memory only; it is never written anywhere.
    const key = JSON.stringify([
      baseUrl,
      apiKey ?? null,
      settings.headers ?? null,
      settings.timeoutMs,
      settings.maxRetries,
    ]);
    let client = clients.get(key);
    if (client === undefined) {
      client = createJudgeClient({
        baseUrl,
        ...(apiKey !== undefined ? { apiKey } : {}),
        ...(settings.headers !== undefined ? { headers: settings.headers } : {}),
        ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
        ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
        cacheDir: runtime.cacheDir,
        onCacheUnwritable,
        hostLimiter,
        ...(runtime.secrets !== undefined ? { secrets: runtime.secrets } : {}),
        ...(runtime.breaker !== undefined ? { breaker: runtime.breaker } : {}),
        env: runtime.env,
        ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
      });
      clients.set(key, client);
    }
    return client;
  };

  return {
    client: clientFor,
    prices: defaults.prices,
    envBaseUrlProblem(evaluator) {
      const settings: JudgeSettings = { ...defaults, ...evaluator.judge };
      const fromEnv = runtime.env.OPENAI_BASE_URL;
      if (settings.baseUrl !== undefined || fromEnv === undefined || fromEnv === '')
        return undefined;
      const problem = envUrlProblem('OPENAI_BASE_URL', fromEnv);
      return problem === null
        ? undefined
        : {
            code: problem.code,
            message: `this judge has no baseUrl:, so it calls ${problem.message}`,
          };
    },
    contextFor(suite, evaluator) {
      const settings: JudgeSettings = { ...defaults, ...evaluator.judge };
      // The client reads its own settings' escapes; the model names are sent from here.
      const { model, embeddingModel } = literalSettings(settings);
      return {
        judge: {
          get client() {
            return clientFor(settings);
          },
          model,
          embeddingModel,
          temperature: settings.temperature ?? 0,
          prices: defaults.prices,
        },
        files: {
          configDir: config.dir,
          suiteId: suite.id,
          updateBaselines: runtime.updateBaselines,
          ...firstRecording(runtime.env),
          updateCommand: `evals run ${shellWord(config.file)} --update-baselines`,
          onRunEnd: (flush) => flushes.push(flush),
        },
      };
    },
    async finish() {
      const failures: string[] = [];
      for (const flush of flushes) {
        try {
          await flush();
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
        }
      }
      return failures;
    },
  };
}

/**
 * `noFirstRecording` for a run in CI (`CI` set to anything but empty, `0` or `false`, as GitHub
 * Actions, GitLab and most CI services set it): a baselines file a first run records there is
 * left on the runner, so every later run would record again and pass, judging nothing.
 */
export function firstRecording(env: Record<string, string | undefined>): {
  noFirstRecording?: string;
} {
  const ci = env.CI;
  if (ci === undefined || ['', '0', 'false'].includes(ci.trim().toLowerCase())) return {};
  return { noFirstRecording: `a run in CI (CI=${ci.length > 16 ? 'set' : ci})` };
}

/**
 * A judge's settings as sent: an escaped `\{{` read as `{{`, as everywhere else a template could
 * be (a `{{ … }}` itself is refused in them when the config loads), so `x-note: '\{{ raw }}'`
 * sends `{{ raw }}`, as an http target's header does, and `model: 'm-\{{ x }}'` asks for
 * `m-{{ x }}`, as a model target's `model:` (a template) does, not the backslash.
 */
function literalSettings(settings: JudgeSettings): JudgeSettings {
  const literal = (text: string | undefined): string | undefined =>
    text === undefined ? undefined : (literalValue(text) as string);
  const model = literal(settings.model);
  const embeddingModel = literal(settings.embeddingModel);
  const baseUrl = literal(settings.baseUrl);
  const apiKey = literal(settings.apiKey);
  const headers =
    settings.headers === undefined
      ? undefined
      : (literalValue(settings.headers) as Record<string, string>);
  return {
    ...settings,
    ...(model !== undefined ? { model } : {}),
    ...(embeddingModel !== undefined ? { embeddingModel } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(headers !== undefined ? { headers } : {}),
  };
}
