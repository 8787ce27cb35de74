/**
 * Stops calling a server that fails the same systematic way call after call: a wrong key (401,
 * 403), a server that is not there (connection refused, unknown host), a model that does not
 * exist (a model API's 404). Every later call would fail the same way, after its own retries, so
 * once `threshold` calls in a row have, the rest fail at once with that cause. 429 and 5xx are
 * passing conditions, retried, and never open it. Shared by the judges, model targets and HTTP
 * targets of a run.
 *
 * A model API's "model not found" 404 says something about one model, not the host: it is counted
 * per (host, model), so one unknown model on a server that also serves a healthy one (a grid over
 * models on one Ollama) stops only the calls for that model. Every other systematic failure is
 * the host's, and stops every call to it.
 */
import type { JudgeError } from './types.ts';

/** Calls in a row that must fail the same way before a host is no longer called. */
export const DEFAULT_STOP_AFTER_ERRORS = 5;

/** Network failures that no retry or later call will cure. */
const SYSTEMATIC_NETWORK = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_FAIL']);

export interface Breaker {
  /**
   * The error a call to `host` gets without being made, once the host is given up on, or (for a
   * model API call naming its `model`) that model on that host.
   */
  refused(host: string, model?: string): JudgeError | undefined;
  /**
   * How a call to `host` ended: `undefined` for an answer. `notFoundIsSystematic`: a 404 means
   * the endpoint or model is wrong (true for model APIs, not for per-case HTTP URLs); given the
   * call's `model`, that 404 counts against the model only.
   */
  record(
    host: string,
    error: JudgeError | undefined,
    notFoundIsSystematic: boolean,
    model?: string,
  ): void;
}

/** A systematic cause: what must repeat to count, and whether it is one model's or the host's. */
interface Cause {
  cause: string;
  perModel: boolean;
}

/**
 * The systematic cause of `error`, or undefined for a failure that may pass. A 404 is one when
 * `notFoundIsSystematic`; it is the model's when the call named one (`model`), else the host's.
 */
export function systematicCause(
  error: JudgeError,
  notFoundIsSystematic: boolean,
  model?: string,
): Cause | undefined {
  if (error.code === 'judge.http' && error.status !== undefined) {
    if (error.status === 404) {
      return notFoundIsSystematic
        ? { cause: 'HTTP 404', perModel: model !== undefined }
        : undefined;
    }
    const systematic = error.status === 401 || error.status === 403;
    return systematic ? { cause: `HTTP ${error.status}`, perModel: false } : undefined;
  }
  if (error.code === 'judge.network' && error.networkCode !== undefined) {
    return SYSTEMATIC_NETWORK.has(error.networkCode)
      ? { cause: error.networkCode, perModel: false }
      : undefined;
  }
  return undefined;
}

interface Streak {
  cause: string;
  count: number;
  error: JudgeError;
  open: boolean;
}

/**
 * A breaker giving up on a host (or a host's model) after `threshold` identical systematic
 * failures in a row (0: never). `onOpen` is told once per host or model given up on: `who` names
 * it (`http://h/v1`, or `http://h/v1 for model "m"`), with the failure that repeated.
 */
export function createBreaker(
  threshold: number,
  onOpen: (who: string, count: number, error: JudgeError) => void = () => {},
): Breaker {
  const streaks = new Map<string, Streak>();
  const modelKey = (host: string, model: string | undefined): string | undefined =>
    model === undefined ? undefined : JSON.stringify([host, model]);
  const hostKey = (host: string): string => JSON.stringify([host]);
  const describe = (host: string, model: string | undefined): string =>
    model === undefined ? host : `${host} for model ${JSON.stringify(model)}`;

  /** One more failure with `cause` in the streak at `key`; it opens at the threshold. */
  const fail = (key: string, cause: string, error: JudgeError, who: string): void => {
    const state = streaks.get(key);
    if (state?.open) return;
    const count = state !== undefined && state.cause === cause ? state.count + 1 : 1;
    const open = count >= threshold;
    streaks.set(key, { cause, count, error, open });
    if (open) onOpen(who, count, error);
  };

  return {
    refused(host, model) {
      const keyed: [string | undefined, string | undefined][] = [
        [hostKey(host), undefined],
        [modelKey(host, model), model],
      ];
      for (const [key, perModel] of keyed) {
        const state = key === undefined ? undefined : streaks.get(key);
        if (state === undefined || !state.open) continue;
        return {
          ...state.error,
          message: `not called: ${state.count} calls in a row to ${describe(host, perModel)} failed the same way, so the rest were stopped: ${state.error.message}`,
          attempts: 0,
        };
      }
      return undefined;
    },
    record(host, error, notFoundIsSystematic, model) {
      if (threshold <= 0) return;
      if (streaks.get(hostKey(host))?.open) return;
      const ofModel = modelKey(host, model);
      const systematic =
        error === undefined ? undefined : systematicCause(error, notFoundIsSystematic, model);
      if (systematic === undefined || error === undefined) {
        // An answer, or a failure that may pass: the host's streak and the model's are broken.
        streaks.delete(hostKey(host));
        if (ofModel !== undefined) streaks.delete(ofModel);
        return;
      }
      if (systematic.perModel && ofModel !== undefined) {
        // The model is missing, not the host: the host's streak neither grows nor breaks.
        fail(ofModel, systematic.cause, error, describe(host, model));
        return;
      }
      // A host-wide failure ends the model's streak of 404s: its calls now fail another way.
      if (ofModel !== undefined) streaks.delete(ofModel);
      fail(hostKey(host), systematic.cause, error, host);
    },
  };
}
