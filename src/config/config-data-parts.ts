/**
 * The config's data hash broken down (`ConfigDataParts`): a digest of each top-level key, of
 * each key of each suite, and of each non-secret environment value the config refers to. The
 * artifact records it beside configHash, so a refusal to resume or merge can say "suite qa of
 * evals.yaml changed (its evaluators)" where the data hash alone says only "the config changed".
 *
 * It is not part of the hash (which stays what earlier versions recorded, so their partials still
 * resume), and the hash cannot be recomputed from it: it is trusted only when it says it breaks
 * down the data hash a refusal compares (`of`). A digest is of the same marked data the hash is
 * of (config-hash.ts), so what leaves the hash as it was leaves every digest as it was.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../shared/canonical-json.ts';
import type { ConfigDataParts } from '../types/index.ts';

function digest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/**
 * The digest the parts record of a key written as `value`, plain data with no `${VAR}`
 * reference: to tell which of some known values a recorded key holds.
 */
export function writtenValueDigest(value: unknown): string {
  return digest(value);
}

/**
 * The parts of `data` (the config as written, marked) whose hash is `of`, with `env`, the
 * non-secret values of the variables it refers to (`null`: unset).
 */
export function configDataParts(
  data: unknown,
  env: Readonly<Record<string, string | null>>,
  of: string,
): ConfigDataParts {
  const keys: Record<string, string> = {};
  const suites: ConfigDataParts['suites'] = [];
  if (isRecord(data)) {
    for (const [key, value] of Object.entries(data)) {
      if (key !== 'suites' || !Array.isArray(value)) keys[key] = digest(value);
      else value.forEach((suite, i) => suites.push(suiteParts(suite, i)));
    }
  }
  const names = Object.keys(env);
  const values = Object.fromEntries(
    names.map((name) => [name, env[name] === null ? null : digest(env[name])]),
  );
  return { of, keys, suites, ...(names.length > 0 ? { env: values } : {}) };
}

/** One suite's id (as written; its position when it has no plain one) and its keys' digests. */
function suiteParts(suite: unknown, index: number): ConfigDataParts['suites'][number] {
  const fields = isRecord(suite) ? suite : { '': suite };
  const id = typeof fields['id'] === 'string' ? fields['id'] : `suites[${index}]`;
  const keys: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) keys[key] = digest(value);
  return { id, keys };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * What changed in the config's own data from `before` to `after`, one phrase each, naming the
 * config as `name` (`evals.yaml`, or `the config`): a top-level key changed, new or gone; a
 * suite changed (with which of its keys), new or gone, or the suites reordered; an environment
 * value changed. Empty when the parts show no difference (then only the hash can tell).
 */
export function describeDataChanges(
  before: ConfigDataParts,
  after: ConfigDataParts,
  name: string,
): string[] {
  const changes: string[] = [];
  changes.push(...keyChanges(before.keys, after.keys, name));
  const was = new Map(before.suites.map((suite) => [suite.id, suite.keys]));
  const now = new Map(after.suites.map((suite) => [suite.id, suite.keys]));
  for (const [id, keys] of now) {
    const earlier = was.get(id);
    if (earlier === undefined) {
      changes.push(`suite ${id} is new in ${name}`);
      continue;
    }
    const changed = changedKeys(earlier, keys);
    if (changed.length > 0) changes.push(`suite ${id} of ${name} changed (its ${and(changed)})`);
  }
  for (const id of was.keys()) {
    if (!now.has(id)) changes.push(`suite ${id} is no longer in ${name}`);
  }
  // The suites both have, in another order (one added or removed moves none of the others).
  const order = (parts: ConfigDataParts, other: Map<string, unknown>): string =>
    parts.suites
      .map((suite) => suite.id)
      .filter((id) => other.has(id))
      .join('\n');
  if (order(before, now) !== order(after, was)) {
    changes.push(`the suites of ${name} are in another order`);
  }
  const wasEnv = before.env ?? {};
  for (const [variable, value] of Object.entries(after.env ?? {})) {
    // A variable referred to only now, or no longer, is a change of the data named above.
    if (!Object.hasOwn(wasEnv, variable) || wasEnv[variable] === value) continue;
    const how =
      value === null
        ? 'is unset now'
        : wasEnv[variable] === null
          ? 'is set now'
          : 'has another value';
    changes.push(`the environment variable ${variable} that ${name} refers to ${how}`);
  }
  return changes;
}

/** The top-level keys (but `suites`) that changed, are new or are gone, one phrase each. */
function keyChanges(
  before: Record<string, string>,
  after: Record<string, string>,
  name: string,
): string[] {
  const changes: string[] = [];
  for (const [key, value] of Object.entries(after)) {
    if (!Object.hasOwn(before, key)) changes.push(`the top-level key ${key} is new in ${name}`);
    else if (before[key] !== value) changes.push(`the top-level ${key} of ${name} changed`);
  }
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key))
      changes.push(`the top-level key ${key} is no longer in ${name}`);
  }
  return changes;
}

/** The keys whose digests differ, are new or are gone, sorted. */
function changedKeys(before: Record<string, string>, after: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => before[key] !== after[key]).sort();
}

/** `a`, `a and b`, `a, b and c` */
function and(items: readonly string[]): string {
  return items.length <= 1
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
