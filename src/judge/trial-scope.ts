/**
 * The trial being run, for the calls made while running it (a model target's, a judge's, a
 * custom evaluator's through `createJudgeClient`): the engine enters it around a trial's target
 * call and each of its evaluator calls when a suite runs several trials, and the judge client
 * caches a call as that trial's. One for the process, under a registered symbol: `evals run` and
 * the Action run from a bundle of their own, while the code under test imports
 * `createJudgeClient` from the package (lib/index.js), another copy of this module, whose own
 * scope would hold no trial, so every trial after the first would be served the first's cached
 * answer.
 *
 * That copy may be of another evalgate version, so what is found under the symbol is checked
 * (an `AsyncLocalStorage` whose store is a trial number) before it is trusted. Where it is of
 * another shape, this copy enters its trials in a scope of its own, never replacing the one
 * found (the copy that put it there keeps working), and a call it cannot tell the trial of is
 * {@link UNKNOWN_TRIAL}: the client then neither reads nor writes the cache for it, so no trial
 * is served another's answer. Nothing here throws.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const TRIAL_SCOPE = Symbol.for('evalgate.trialScope');

/** What {@link currentTrial} says when the trial may be one this copy cannot read. */
export const UNKNOWN_TRIAL = 'unknown';

/** This copy's own scope, for when the process holds another shape under the symbol. */
const ownScope = new AsyncLocalStorage<number>();

/** The process's scope, made when there is none; null when it holds another shape. */
function sharedScope(): AsyncLocalStorage<number> | null {
  const holder = globalThis as { [TRIAL_SCOPE]?: unknown };
  const found = (holder[TRIAL_SCOPE] ??= new AsyncLocalStorage<number>());
  return found instanceof AsyncLocalStorage ? (found as AsyncLocalStorage<number>) : null;
}

/** Runs `fn` as part of trial `trial` (1-based): calls it makes are cached as that trial's. */
export function inTrial<T>(trial: number, fn: () => T): T {
  return (sharedScope() ?? ownScope).run(trial, fn);
}

/**
 * The trial (1-based) the current call is made for; undefined outside any trial scope;
 * {@link UNKNOWN_TRIAL} when the scope found holds something that is not a trial number, or is
 * of a shape this copy does not know and this copy entered no trial itself.
 */
export function currentTrial(): number | typeof UNKNOWN_TRIAL | undefined {
  const shared = sharedScope();
  const store: unknown = (shared ?? ownScope).getStore();
  if (store === undefined) return shared === null ? UNKNOWN_TRIAL : undefined;
  return Number.isInteger(store) && (store as number) >= 1 ? (store as number) : UNKNOWN_TRIAL;
}
