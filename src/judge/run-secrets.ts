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
import { createScrubber, MIN_SECRET_LENGTH, type Scrubber } from '../shared/secrets.ts';

/**
 * Each run's secrets going on, with how many runs hold them (one scrubber may serve two), and a
 * count that grows whenever they change, so that a client's combined scrubber is made again.
 * Kept on the process under a registered symbol, not in this module: `evals run` and the Action
 * run from a bundle of their own, while the code under test imports `createJudgeClient` from the
 * package (lib/index.js), another copy of this module that would otherwise see no run. That copy
 * may be of another evalgate version (a project's own install): see {@link sharedRegistry}.
 */
interface Registry {
  readonly format?: number;
  readonly running: Map<object, { values: readonly string[]; held: number }>;
  generation: number;
}

/** The format of {@link Registry} this copy reads and writes, named by its key. */
const FORMAT = 1;
/** The key of every copy of this format; a later format has a key of its own (`@2` and on). */
const KEY = Symbol.for(`evalgate.runSecrets@${FORMAT}`);
/** The key of the evalgate versions before formats had keys: the same shape, unnumbered. */
const LEGACY_KEY = Symbol.for('evalgate.runSecrets');
/** What every key of a run-secrets registry, of any format, starts with. */
const KEY_PREFIX = 'evalgate.runSecrets';

type Holder = Record<symbol, unknown>;

/**
 * This copy's own registry, for when the process holds a shape it does not know under its key:
 * its runs are still scrubbed by its own clients.
 */
const ownRegistry: Registry = { format: FORMAT, running: new Map(), generation: 0 };

/**
 * The registry every copy of this format in the process shares: under {@link KEY}, and the very
 * same object under {@link LEGACY_KEY}, where the versions before formats look, unless that
 * holds another shape. With it, every other registry key's object (a later format's, another
 * shape put under this copy's key, a registry the versions before formats share apart from this
 * one): their strings are scrubbed too ({@link foreignSecrets}), more than needed, never less. A foreign
 * object is never replaced, so the copy that put it there keeps working; and nothing here throws.
 */
function sharedRegistry(): { registry: Registry; foreign: unknown[] } {
  const holder = globalThis as Holder;
  let registry: Registry;
  const found = holder[KEY];
  if (isKnownRegistry(found)) registry = found;
  else if (found !== undefined) registry = ownRegistry;
  else {
    const legacy = holder[LEGACY_KEY];
    registry = isKnownRegistry(legacy)
      ? legacy
      : { format: FORMAT, running: new Map(), generation: 0 };
    holder[KEY] = registry;
    if (legacy === undefined) holder[LEGACY_KEY] = registry;
  }
  const foreign: unknown[] = [];
  for (const key of Object.getOwnPropertySymbols(holder)) {
    if (!Symbol.keyFor(key)?.startsWith(KEY_PREFIX)) continue;
    const value = holder[key];
    if (value !== registry) foreign.push(value);
  }
  return { registry, foreign };
}

/** Whether `found` is a registry of this copy's format (or of the unnumbered one before it). */
function isKnownRegistry(found: unknown): found is Registry {
  if (typeof found !== 'object' || found === null) return false;
  const { format, running, generation } = found as Partial<Record<keyof Registry, unknown>>;
  return (
    (format === undefined || format === FORMAT) &&
    running instanceof Map &&
    typeof generation === 'number'
  );
}

/** Runs `fn` as a run whose secrets `scrubber` removes: calls made meanwhile scrub them too. */
export async function withRunSecrets<T>(scrubber: Scrubber, fn: () => Promise<T>): Promise<T> {
  const release = holdRunSecrets(scrubber);
  try {
    return await fn();
  } finally {
    release();
  }
}

/**
 * Registers `scrubber`'s secrets as those of a run going on, until the function it returns is
 * called: {@link withRunSecrets} around a run; for a whole worker thread of `isolation: worker`,
 * whose run is the main thread's (`bind/function-worker.ts`), for as long as the thread lives.
 */
export function holdRunSecrets(scrubber: Scrubber): () => void {
  if (scrubber.empty) return () => {};
  const { registry: shared } = sharedRegistry();
  const entry = shared.running.get(scrubber);
  if (entry) entry.held++;
  else shared.running.set(scrubber, { values: scrubber.values, held: 1 });
  shared.generation++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const held = shared.running.get(scrubber);
    if (held !== undefined && --held.held <= 0) shared.running.delete(scrubber);
    shared.generation++;
  };
}

/**
 * The scrubber of a client's call: `own` (the client's secrets), with the secrets of the runs
 * going on, if any. One scrubber of all the lists, not one after the other: of a secret that
 * holds another, the scrubber that knows only the shorter would leave the longer's rest. Made
 * again only when a run starts or ends (or, beside a registry of a shape this copy does not
 * know, when the strings found in it change).
 */
export function callScrubber(own: readonly string[]): () => Scrubber {
  const alone = createScrubber(own);
  let made: { generation: number; foreign: string; scrubber: Scrubber } | undefined;
  return () => {
    const { registry: shared, foreign } = sharedRegistry();
    const found = foreign.length === 0 ? [] : foreignSecrets(foreign);
    if (shared.running.size === 0 && found.length === 0) return alone;
    const key = found.join('\n');
    if (made?.generation !== shared.generation || made.foreign !== key) {
      const values = [...shared.running.values()].flatMap((run) => runValues(run));
      made = {
        generation: shared.generation,
        foreign: key,
        scrubber: createScrubber([...own, ...values, ...found]),
      };
    }
    return made.scrubber;
  };
}

/**
 * A run's secrets; in an entry of another shape (another copy wrote it in a known registry),
 * every string in it, as for a foreign registry.
 */
function runValues(run: unknown): string[] {
  const values = (run as { values?: unknown } | null)?.values;
  if (Array.isArray(values) && values.every((value) => typeof value === 'string')) {
    return values;
  }
  return foreignSecrets(run);
}

/** How deep and how many values {@link foreignSecrets} reads: bounded, whatever it is given. */
const FOREIGN_DEPTH = 6;
const FOREIGN_VALUES = 10_000;

/**
 * Every string of `found` long enough to be a secret, read through maps, sets, arrays and plain
 * properties, to a bounded depth and count: what a registry of a shape this copy does not know
 * may hold of its runs' secrets, all treated as secrets. Never throws: a getter that throws or a
 * proxy that refuses is skipped.
 */
function foreignSecrets(found: unknown): string[] {
  const strings = new Set<string>();
  const seen = new Set<unknown>();
  let budget = FOREIGN_VALUES;
  const visit = (value: unknown, depth: number): void => {
    if (budget-- <= 0) return;
    if (typeof value === 'string') {
      if (value.length >= MIN_SECRET_LENGTH) strings.add(value);
      return;
    }
    if (typeof value !== 'object' || value === null || depth >= FOREIGN_DEPTH || seen.has(value))
      return;
    seen.add(value);
    for (const child of childrenOf(value)) visit(child, depth + 1);
  };
  visit(found, 0);
  return [...strings].sort();
}

/** What {@link foreignSecrets} reads of `value`: each one that can be read, skipping the rest. */
function childrenOf(value: object): unknown[] {
  try {
    if (value instanceof Map) return [...value.keys(), ...value.values()];
    if (value instanceof Set || Array.isArray(value)) return [...(value as Iterable<unknown>)];
    const children: unknown[] = [];
    for (const key of Object.keys(value)) {
      try {
        children.push((value as Record<string, unknown>)[key]);
      } catch {
        // A getter that throws: nothing of it is known to scrub.
      }
    }
    return children;
  } catch {
    // A proxy that refuses to list its keys, an iterator that throws: nothing more to read.
    return [];
  }
}
