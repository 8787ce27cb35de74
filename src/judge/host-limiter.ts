/**
 * The per-host concurrency cap of judge calls: requests in flight to one server (`host:port`)
 * are bounded, whichever evaluator or client makes them.
 */
import pLimit, { type LimitFunction } from 'p-limit';

/** Requests in flight per host (`host:port`), shareable between clients. */
export interface HostLimiter {
  /** Requests allowed in flight to one host, when known: a time-out waiting for a slot names it. */
  readonly perHost?: number;
  /** Runs `task` once a slot for `host` is free. */
  run<T>(host: string, task: () => Promise<T>): Promise<T>;
}

/** A limiter allowing `perHost` requests in flight to each host. */
export function createHostLimiter(perHost: number): HostLimiter {
  const limit = Math.max(1, Math.floor(perHost));
  const limits = new Map<string, LimitFunction>();
  return {
    perHost: limit,
    run(host, task) {
      let hostLimit = limits.get(host);
      if (hostLimit === undefined) {
        hostLimit = pLimit(limit);
        limits.set(host, hostLimit);
      }
      return hostLimit(task);
    },
  };
}
