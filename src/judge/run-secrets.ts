/**
 * The secrets of the runs going on, for the judge clients' calls. A client made in code
 * (`createJudgeClient` in a custom evaluator or a function target) knows only its own key,
 * headers and URL, and the environment's secrets; a run knows more (the config's keys, header
 * values and URL credentials, the values the Action declared). Its error details are cut to a
 * few hundred characters and its answers cached on disk, so it must scrub with the run's
 * secrets too, before either.
 *
 * The runs of this thread are registered for as long as they go on, and a call scrubs the
 * secrets of every run going on: usually one; with two `runTestSuite` runs at once, a call of
 * one scrubs the other's secrets too, which removes more than it must, never less. Not an
 * AsyncLocalStorage scope per run: on Node 20, entering one turns on promise hooks for every
 * promise made from then on, a cost every case of every run would pay for the rare client made
 * in code.
 */
import { createScrubber, type Scrubber } from '../shared/secrets.ts';

/**
 * Each run's secrets going on, with how many runs hold them (one scrubber may serve two), and a
 * count that grows whenever they change, so that a client's combined scrubber is made again.
 * Kept on the process under a registered symbol, not in this module: `evals run` and the Action
 * run from a bundle of their own, while the code under test imports `createJudgeClient` from the
 * package (lib/index.js), another copy of this module that would otherwise see no run.
 */
interface Registry {
  readonly running: Map<object, { values: readonly string[]; held: number }>;
  generation: number;
}

const REGISTRY = Symbol.for('evalgate.runSecrets');

/** The registry every copy of evalgate in this process shares. */
function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= { running: new Map(), generation: 0 };
  return holder[REGISTRY];
}

/** Runs `fn` as a run whose secrets `scrubber` removes: calls made meanwhile scrub them too. */
export async function withRunSecrets<T>(scrubber: Scrubber, fn: () => Promise<T>): Promise<T> {
  if (scrubber.empty) return fn();
  const shared = registry();
  const entry = shared.running.get(scrubber);
  if (entry) entry.held++;
  else shared.running.set(scrubber, { values: scrubber.values, held: 1 });
  shared.generation++;
  try {
    return await fn();
  } finally {
    const held = shared.running.get(scrubber);
    if (held !== undefined && --held.held <= 0) shared.running.delete(scrubber);
    shared.generation++;
  }
}

/**
 * The scrubber of a client's call: `own` (the client's secrets), with the secrets of the runs
 * going on, if any. One scrubber of all the lists, not one after the other: of a secret that
 * holds another, the scrubber that knows only the shorter would leave the longer's rest. Made
 * again only when a run starts or ends.
 */
export function callScrubber(own: readonly string[]): () => Scrubber {
  const alone = createScrubber(own);
  const shared = registry();
  let made: { generation: number; scrubber: Scrubber } | undefined;
  return () => {
    if (shared.running.size === 0) return alone;
    if (made?.generation !== shared.generation) {
      const values = [...shared.running.values()].flatMap((run) => run.values);
      made = { generation: shared.generation, scrubber: createScrubber([...own, ...values]) };
    }
    return made.scrubber;
  };
}
