/**
 * Stops calling a host that fails the same systematic way call after call: a wrong key (401,
 * 403), a model that does not exist (404), a server that is not there (connection refused,
 * unknown host). Every later call would fail the same way, after its own retries, so once
 * `threshold` calls in a row have, the rest fail at once with that cause. 429 and 5xx are
 * passing conditions, retried, and never open it. Shared by the judges, model targets and HTTP
 * targets of a run.
 */
import type { JudgeError } from './types.ts';

/** Calls in a row that must fail the same way before a host is no longer called. */
export const DEFAULT_STOP_AFTER_ERRORS = 5;

/** Network failures that no retry or later call will cure. */
const SYSTEMATIC_NETWORK = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_FAIL']);

export interface Breaker {
  /** The error a call to `host` gets without being made, once the host is given up on. */
  refused(host: string): JudgeError | undefined;
  /**
   * How a call to `host` ended: `undefined` for an answer. `notFoundIsSystematic`: a 404 means
   * the endpoint or model is wrong (true for model APIs, not for per-case HTTP URLs).
   */
  record(host: string, error: JudgeError | undefined, notFoundIsSystematic: boolean): void;
}

/** The systematic cause of `error` (what must repeat to count), or undefined. */
export function systematicCause(
  error: JudgeError,
  notFoundIsSystematic: boolean,
): string | undefined {
  if (error.code === 'judge.http' && error.status !== undefined) {
    const systematic =
      error.status === 401 ||
      error.status === 403 ||
      (error.status === 404 && notFoundIsSystematic);
    return systematic ? `HTTP ${error.status}` : undefined;
  }
  if (error.code === 'judge.network' && error.networkCode !== undefined) {
    return SYSTEMATIC_NETWORK.has(error.networkCode) ? error.networkCode : undefined;
  }
  return undefined;
}

/**
 * A breaker giving up on a host after `threshold` identical systematic failures in a row (0:
 * never). `onOpen` is told once per host, with the failure that repeated.
 */
export function createBreaker(
  threshold: number,
  onOpen: (host: string, count: number, error: JudgeError) => void = () => {},
): Breaker {
  const hosts = new Map<
    string,
    { cause: string; count: number; error: JudgeError; open: boolean }
  >();
  return {
    refused(host) {
      const state = hosts.get(host);
      if (state === undefined || !state.open) return undefined;
      return {
        ...state.error,
        message: `not called: ${state.count} calls in a row to ${host} failed the same way, so the rest were stopped: ${state.error.message}`,
        attempts: 0,
      };
    },
    record(host, error, notFoundIsSystematic) {
      if (threshold <= 0) return;
      const state = hosts.get(host);
      if (state?.open) return;
      const cause = error === undefined ? undefined : systematicCause(error, notFoundIsSystematic);
      if (cause === undefined || error === undefined) {
        // An answer, or a failure that may pass: the streak is broken.
        hosts.delete(host);
        return;
      }
      const count = state !== undefined && state.cause === cause ? state.count + 1 : 1;
      const open = count >= threshold;
      hosts.set(host, { cause, count, error, open });
      if (open) onOpen(host, count, error);
    },
  };
}
