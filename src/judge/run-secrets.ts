/**
 * The secrets of the run a judge client's call is made in. A client made in code
 * (`createJudgeClient` in a custom evaluator or a function target) knows only its own key,
 * headers and URL, and the environment's secrets; a run knows more (the config's keys, header
 * values and URL credentials, the values the Action declared). Its error details are cut to a
 * few hundred characters and its answers cached on disk, so it must scrub with the run's
 * secrets too, before either: the run enters this scope around its engine, and every call made
 * in it (in the same thread) finds the run's scrubber here.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createScrubber, type Scrubber } from '../shared/secrets.ts';

const runScope = new AsyncLocalStorage<Scrubber>();

/** Runs `fn` as a run whose secrets `scrubber` removes: calls it makes scrub them too. */
export function withRunSecrets<T>(scrubber: Scrubber, fn: () => T): T {
  return scrubber.empty ? fn() : runScope.run(scrubber, fn);
}

/**
 * The scrubber of a client's call: `own` (the client's secrets), with the secrets of the run the
 * call is made in, if any. One scrubber of both lists, not one after the other: of a secret
 * that holds another, the scrubber that knows only the shorter would leave the longer's rest.
 * Made once per run and client.
 */
export function callScrubber(own: readonly string[]): () => Scrubber {
  const alone = createScrubber(own);
  const withRun = new WeakMap<Scrubber, Scrubber>();
  return () => {
    const run = runScope.getStore();
    if (run === undefined) return alone;
    let both = withRun.get(run);
    if (both === undefined) {
      both = createScrubber([...own, ...run.values]);
      withRun.set(run, both);
    }
    return both;
  };
}
