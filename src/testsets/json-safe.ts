/**
 * A value as JSON text would give it back, for the testset writer: what `JSON.stringify` drops,
 * nulls or turns into text is reported, so a write never changes data without saying so; and
 * how messages name such a value.
 */
import { setOwn } from '../shared/own-key.ts';

/** Marks a value JSON leaves out (an object key dropped, an array item written as null). */
export const DROP = Symbol('drop');

/**
 * `value` as JSON text would give it back: the value itself when it is plain JSON data (the
 * common case: no copy), else a copy with each difference reported at its path.
 *
 * Readers only ever produce plain JSON, but rows can also come from code, where `undefined`,
 * `NaN` or a `Date` slip in; writing those silently would change the data on the way through.
 */
export function jsonValue(
  value: unknown,
  path: string,
  report: (path: string, what: string) => void,
  ancestors: object[] = [],
): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Number.isFinite(value)) return value;
      report(path, `holds ${String(value)}, which JSON writes as null`);
      return null;
    case 'bigint':
      report(
        path,
        `holds the bigint ${value}n, which JSON cannot hold: it would be written as the string "${value}"`,
      );
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      // Never a string here: nothing to scrub.
      report(path, `holds ${kindOf(value, (text) => text)}, which JSON leaves out`);
      return DROP;
    default:
      break;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.includes(object)) {
    report(path, 'holds a circular reference, which JSON cannot hold: it would be written as null');
    return null;
  }
  if (Array.isArray(object)) {
    const items: unknown[] = object;
    let copy: unknown[] | null = null;
    ancestors.push(object);
    for (let i = 0; i < items.length; i++) {
      const itemPath = `${path}[${i}]`;
      if (!(i in items)) {
        report(itemPath, 'is a hole in the array, which JSON writes as null');
        copy ??= items.slice(0, i);
        copy.push(null);
        continue;
      }
      const item = items[i];
      const safe = jsonValue(item, itemPath, report, ancestors);
      if (safe !== item && copy === null) copy = items.slice(0, i);
      if (copy !== null) copy.push(safe === DROP ? null : safe);
    }
    ancestors.pop();
    return copy ?? object;
  }
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) {
    const name = (object.constructor as { name?: unknown } | undefined)?.name;
    report(
      path,
      `holds ${typeof name === 'string' && name !== '' ? `a ${name} object` : 'a class instance'}, which is not plain JSON data: it would be written as its JSON text`,
    );
    try {
      return JSON.parse(JSON.stringify(object) ?? 'null') as unknown;
    } catch {
      return null;
    }
  }
  const record = object as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  ancestors.push(object);
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] ?? '';
    const child = record[key];
    const safe = jsonValue(child, path === '' ? key : `${path}.${key}`, report, ancestors);
    if (safe !== child && copy === null) {
      copy = {};
      for (let j = 0; j < i; j++) {
        const before = keys[j] ?? '';
        setOwn(copy, before, record[before]);
      }
    }
    if (copy !== null && safe !== DROP) setOwn(copy, key, safe);
  }
  ancestors.pop();
  return copy ?? object;
}

/** Removes the secrets from a text a message is about to quote (see {@link quoteShort}). */
export type Scrub = (text: string) => string;

/**
 * `the number 3`, `the boolean true`, `null`, `an array`… for messages; a string is quoted
 * shortened, scrubbed with `scrub` first.
 */
export function kindOf(value: unknown, scrub: Scrub): string {
  switch (typeof value) {
    case 'number':
      return `the number ${String(value)}`;
    case 'boolean':
      return `the boolean ${String(value)}`;
    case 'string':
      return `the string ${quoteShort(value, scrub)}`;
    case 'bigint':
      return `the bigint ${value}n`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object';
  }
}

/**
 * A string as JSON, shortened: messages quote the bad value without printing a whole essay. It
 * is scrubbed before it is cut: a secret cut at the `..."` would keep its first characters,
 * which no scrub of the finished message can recognise.
 */
export function quoteShort(text: string, scrub: Scrub): string {
  const quoted = JSON.stringify(scrub(text));
  return quoted.length > 60 ? `${quoted.slice(0, 57)}..."` : quoted;
}
